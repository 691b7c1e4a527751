package io.omnigraph.engine.schema.migrate;

import io.omnigraph.api.SchemaPlan;
import io.omnigraph.api.SchemaPlanStep;
import io.omnigraph.engine.schema.Annotation;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.InterfaceType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.SchemaIr;
import io.omnigraph.engine.schema.SchemaIr.DeclKind;
import io.omnigraph.engine.schema.SchemaIr.TypeIdentity;
import io.omnigraph.engine.schema.TableSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plans a schema change (docs/schema-migration.md): compares the accepted schema with a desired one
 * compiled against the accepted IR (so {@code @rename_from} keeps identities), declaration by stable
 * id, and lists one step per change. Pure: no I/O.
 *
 * <p>Besides the user-facing steps it derives the physical table work from the two schemas' table
 * specs, by stable table id: a table the desired schema adds is created, a table it removes is
 * dropped, a table whose column list changes (name, type, nullability, order, stable property id)
 * is rewritten, and a table whose key changes only is re-registered under the new key.
 */
public final class SchemaPlanner {
  /** Stable codes of unsupported changes (docs/schema-migration.md, "Unsupported changes"). */
  public static final String INTERFACE_RENAME = "OG-MF-101";
  public static final String INTERFACE_REMOVED = "OG-MF-102";
  public static final String REQUIRED_PROPERTY_ADDED = "OG-MF-103";
  public static final String IMPLEMENTS_CHANGED = "OG-MF-104";
  public static final String EDGE_SHAPE_CHANGED = "OG-MF-105";
  public static final String PROPERTY_TYPE_CHANGED = "OG-MF-106";
  public static final String CONSTRAINT_REMOVED = "OG-MF-107";
  public static final String CONSTRAINT_ADDED = "OG-MF-108";
  public static final String EMBED_CHANGED = "OG-MF-109";
  public static final String ANNOTATION_CHANGED = "OG-MF-110";
  public static final String PROVENANCE_CHANGED = "OG-MF-111";
  public static final String NULLABILITY_CHANGED = "OG-MF-112";
  public static final String BLOB_REWRITE = "OG-MF-113";

  private static final Set<String> METADATA = Set.of(Annotation.DESCRIPTION, Annotation.INSTRUCTION);
  /** Annotations compared elsewhere (constraints) or that are hints, not state. */
  private static final Set<String> NOT_COMPARED = Set.of(Annotation.RENAME_FROM, "key", "unique", "index");

  private SchemaPlanner() {}

  /** What happens to one physical table. */
  public enum TableAction { CREATE, REWRITE, RENAME, DROP }

  /**
   * One table's physical work.
   *
   * @param action what happens
   * @param before the accepted table (null for CREATE)
   * @param after the desired table (null for DROP)
   */
  public record TableChange(TableAction action, TableSpec before, TableSpec after) {}

  /**
   * A plan with what applying it takes.
   *
   * @param plan the public plan
   * @param desired the desired schema, compiled against the accepted IR
   * @param tables per touched table, what happens to it (schema order of the desired schema, drops last)
   */
  public record Planned(SchemaPlan plan, CompiledSchema desired, List<TableChange> tables) {}

  /**
   * @param accepted the accepted schema
   * @param desired the desired schema compiled against {@code accepted.ir()}
   * @param hardDrops whether drops are hard ({@code --allow-data-loss})
   * @return the plan
   */
  public static Planned plan(CompiledSchema accepted, CompiledSchema desired, boolean hardDrops) {
    Steps s = new Steps(hardDrops ? "hard" : "soft");
    SchemaIr a = accepted.ir();
    SchemaIr d = desired.ir();
    // Interfaces: only additions are supported.
    for (InterfaceType i : desired.catalog().interfaces()) {
      TypeIdentity di = d.type(DeclKind.INTERFACE, i.name()).orElseThrow();
      Optional<TypeIdentity> ai = byId(a, DeclKind.INTERFACE, di.typeId());
      if (ai.isEmpty()) {
        s.add("add_type", "type_kind", "interface", "name", i.name());
      } else if (!ai.get().name().equals(i.name())) {
        s.unsupported("interface " + ai.get().name(), "renaming an interface is not supported", INTERFACE_RENAME);
      }
    }
    for (InterfaceType i : accepted.catalog().interfaces()) {
      TypeIdentity ai = a.type(DeclKind.INTERFACE, i.name()).orElseThrow();
      if (byId(d, DeclKind.INTERFACE, ai.typeId()).isEmpty()) {
        s.unsupported("interface " + i.name(), "removing an interface is not supported", INTERFACE_REMOVED);
      }
    }
    for (NodeType n : desired.catalog().nodes()) {
      TypeIdentity dn = d.type(DeclKind.NODE, n.name()).orElseThrow();
      Optional<TypeIdentity> an = byId(a, DeclKind.NODE, dn.typeId());
      if (an.isEmpty()) {
        s.add("add_type", "type_kind", "node", "name", n.name());
        continue;
      }
      NodeType old = accepted.catalog().node(an.get().name()).orElseThrow();
      if (!old.name().equals(n.name())) {
        s.add("rename_type", "type_kind", "node", "from", old.name(), "to", n.name());
      }
      if (!old.implementsList().equals(n.implementsList())) {
        s.unsupported("node " + n.name(), "changing the interfaces a node implements (from " + old.implementsList()
            + " to " + n.implementsList() + ") is not supported", IMPLEMENTS_CHANGED);
      }
      compareType(s, "node", old.name(), n.name(), old.annotations(), n.annotations(), old.properties(), n.properties(),
          old.constraints(), n.constraints(), an.get(), dn);
    }
    for (EdgeType e : desired.catalog().edges()) {
      TypeIdentity de = d.type(DeclKind.EDGE, e.name()).orElseThrow();
      Optional<TypeIdentity> ae = byId(a, DeclKind.EDGE, de.typeId());
      if (ae.isEmpty()) {
        s.add("add_type", "type_kind", "edge", "name", e.name());
        continue;
      }
      EdgeType old = accepted.catalog().edge(ae.get().name()).orElseThrow();
      if (!old.name().equals(e.name())) {
        s.add("rename_type", "type_kind", "edge", "from", old.name(), "to", e.name());
      }
      long oldFrom = a.type(DeclKind.NODE, old.fromType()).orElseThrow().typeId();
      long oldTo = a.type(DeclKind.NODE, old.toType()).orElseThrow().typeId();
      long newFrom = d.type(DeclKind.NODE, e.fromType()).orElseThrow().typeId();
      long newTo = d.type(DeclKind.NODE, e.toType()).orElseThrow().typeId();
      if (oldFrom != newFrom || oldTo != newTo) {
        s.unsupported("edge " + e.name(), "changing an edge's endpoints (" + old.fromType() + " -> " + old.toType()
            + " to " + e.fromType() + " -> " + e.toType() + ") is not supported", EDGE_SHAPE_CHANGED);
      }
      if (!old.cardinality().equals(e.cardinality())) {
        s.unsupported("edge " + e.name(), "changing an edge's cardinality (" + old.cardinality() + " to "
            + e.cardinality() + ") is not supported", EDGE_SHAPE_CHANGED);
      }
      compareType(s, "edge", old.name(), e.name(), old.annotations(), e.annotations(), old.properties(), e.properties(),
          old.constraints(), e.constraints(), ae.get(), de);
    }
    for (NodeType n : accepted.catalog().nodes()) {
      TypeIdentity an = a.type(DeclKind.NODE, n.name()).orElseThrow();
      if (byId(d, DeclKind.NODE, an.typeId()).isEmpty()) {
        s.drop("drop_type", "type_kind", "node", "name", n.name());
      }
    }
    for (EdgeType e : accepted.catalog().edges()) {
      TypeIdentity ae = a.type(DeclKind.EDGE, e.name()).orElseThrow();
      if (byId(d, DeclKind.EDGE, ae.typeId()).isEmpty()) {
        s.drop("drop_type", "type_kind", "edge", "name", e.name());
      }
    }
    List<TableChange> tables = tables(accepted, desired);
    for (TableChange c : tables) {
      boolean blob = c.action() == TableAction.REWRITE && c.before().arrowSchema().getFields().stream()
          .anyMatch(f -> f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.LargeBinary);
      if (blob) {
        s.unsupported(c.before().kind().label() + " " + c.before().typeName(), "changing the columns of a type with a"
            + " Blob property is not supported yet (its table would have to be rewritten)", BLOB_REWRITE);
      }
    }
    List<SchemaPlanStep> steps = s.ordered();
    boolean supported = steps.stream().noneMatch(SchemaPlanStep::unsupported);
    return new Planned(new SchemaPlan(supported, steps, a.hash(), d.hash()), desired, tables);
  }

  /** Physical work per table, by stable table id. */
  static List<TableChange> tables(CompiledSchema accepted, CompiledSchema desired) {
    Map<Long, TableSpec> before = new LinkedHashMap<>();
    accepted.tables().forEach(t -> before.put(t.stableTableId(), t));
    List<TableChange> out = new ArrayList<>();
    Set<Long> kept = new java.util.HashSet<>();
    for (TableSpec after : desired.tables()) {
      TableSpec b = before.get(after.stableTableId());
      if (b == null) {
        out.add(new TableChange(TableAction.CREATE, null, after));
        continue;
      }
      kept.add(after.stableTableId());
      if (b.tableIncarnationId() != after.tableIncarnationId()) {
        throw new IllegalStateException("table " + after.tableKey() + " changed incarnation while keeping its id");
      }
      if (!b.arrowSchema().getFields().equals(after.arrowSchema().getFields())) {
        out.add(new TableChange(TableAction.REWRITE, b, after));
      } else if (!b.tableKey().equals(after.tableKey())) {
        out.add(new TableChange(TableAction.RENAME, b, after));
      }
    }
    for (TableSpec b : before.values()) {
      if (!kept.contains(b.stableTableId())) {
        out.add(new TableChange(TableAction.DROP, b, null));
      }
    }
    return out;
  }

  private static Optional<TypeIdentity> byId(SchemaIr ir, DeclKind kind, long typeId) {
    return ir.types().stream().filter(t -> t.kind() == kind && t.typeId() == typeId).findFirst();
  }

  private static void compareType(Steps s, String kind, String oldName, String name, List<Annotation> oldAnn,
      List<Annotation> newAnn, List<Property> oldProps, List<Property> newProps, List<Constraint> oldCons,
      List<Constraint> newCons, TypeIdentity oldId, TypeIdentity newId) {
    // Type annotations.
    Map<String, String> oldMeta = annotations(oldAnn, true);
    Map<String, String> newMeta = annotations(newAnn, true);
    if (!oldMeta.equals(newMeta)) {
      s.add("update_type_metadata", "type_kind", kind, "name", name, "annotations", changedNames(oldMeta, newMeta));
    }
    Map<String, String> oldOther = annotations(oldAnn, false);
    Map<String, String> newOther = annotations(newAnn, false);
    if (!oldOther.equals(newOther)) {
      s.unsupported(kind + " " + name, "changing annotations " + changedNames(oldOther, newOther)
          + " is not supported (only @description and @instruction are)", ANNOTATION_CHANGED);
    }
    // Properties by stable id.
    Map<Long, Property> oldById = new LinkedHashMap<>();
    for (Property p : oldProps) {
      oldById.put(oldId.propertyId(p.name()), p);
    }
    Set<Long> seen = new java.util.HashSet<>();
    for (Property p : newProps) {
      long id = newId.propertyId(p.name());
      Property old = oldById.get(id);
      String entity = kind + " " + name + "." + p.name();
      if (old == null) {
        if (p.nullable()) {
          s.add("add_property", "type_kind", kind, "type_name", name, "property_name", p.name(), "property_type",
              p.typeSpelling());
        } else {
          s.unsupported(entity, "adding a required property is not supported: existing rows have no value for it;"
              + " declare it nullable (" + p.typeSpelling() + "?)", REQUIRED_PROPERTY_ADDED);
        }
        continue;
      }
      seen.add(id);
      if (!old.name().equals(p.name())) {
        s.add("rename_property", "type_kind", kind, "type_name", name, "from", old.name(), "to", p.name());
      }
      if (old.declaredDirectly() != p.declaredDirectly()) {
        s.unsupported(entity, "changing whether a property is declared directly or injected by an interface is not"
            + " supported", PROVENANCE_CHANGED);
      }
      if (!old.type().equals(p.type())) {
        if (old.type() instanceof PropertyType.EnumOf oe && p.type() instanceof PropertyType.EnumOf ne
            && ne.values().containsAll(oe.values()) && old.nullable() == p.nullable()) {
          List<String> added = new ArrayList<>(new TreeSet<>(ne.values()));
          added.removeAll(oe.values());
          s.add("extend_enum", "type_kind", kind, "type_name", name, "property_name", p.name(), "added_values", added);
        } else {
          s.unsupported(entity, "changing a property's type (" + old.typeSpelling() + " to " + p.typeSpelling()
              + ") is not supported; only widening an enum is", PROPERTY_TYPE_CHANGED);
        }
      } else if (old.nullable() != p.nullable()) {
        s.unsupported(entity, "changing a property's nullability (" + old.typeSpelling() + " to "
            + p.typeSpelling() + ") is not supported", NULLABILITY_CHANGED);
      }
      Map<String, String> om = annotations(old.annotations(), true);
      Map<String, String> nm = annotations(p.annotations(), true);
      if (!om.equals(nm)) {
        s.add("update_property_metadata", "type_kind", kind, "type_name", name, "property_name", p.name(),
            "annotations", changedNames(om, nm));
      }
      Map<String, String> oo = annotations(old.annotations(), false);
      Map<String, String> no = annotations(p.annotations(), false);
      if (!Objects.equals(oo.get(Annotation.EMBED), no.get(Annotation.EMBED))) {
        s.unsupported(entity, "changing @embed (its source property or model) is not supported", EMBED_CHANGED);
      }
      oo.remove(Annotation.EMBED);
      no.remove(Annotation.EMBED);
      if (!oo.equals(no)) {
        s.unsupported(entity, "changing annotations " + changedNames(oo, no) + " is not supported (only @description"
            + " is)", ANNOTATION_CHANGED);
      }
    }
    Set<String> dropped = new java.util.HashSet<>();
    for (Map.Entry<Long, Property> e : oldById.entrySet()) {
      if (!seen.contains(e.getKey())) {
        dropped.add(e.getValue().name());
        s.drop("drop_property", "type_kind", kind, "type_name", name, "property_name", e.getValue().name());
      }
    }
    // Constraints, by property id so renames do not look like changes.
    Map<String, Constraint> oldC = new LinkedHashMap<>();
    for (Constraint c : oldCons) {
      oldC.put(canonical(c, oldId), c);
    }
    Map<String, Constraint> newC = new LinkedHashMap<>();
    for (Constraint c : newCons) {
      newC.put(canonical(c, newId), c);
    }
    for (Map.Entry<String, Constraint> e : newC.entrySet()) {
      if (oldC.containsKey(e.getKey())) {
        continue;
      }
      Constraint c = e.getValue();
      String text = render(c);
      if (c instanceof Constraint.Index) {
        s.add("add_constraint", "type_kind", kind, "type_name", name, "constraint", text);
      } else {
        s.unsupported(kind + " " + name, "adding " + text + " is not supported: existing rows were never checked"
            + " against it (only @index can be added)", CONSTRAINT_ADDED);
      }
    }
    for (Map.Entry<String, Constraint> e : oldC.entrySet()) {
      Constraint c = e.getValue();
      boolean onDropped = !(c instanceof Constraint.Key) && c.fields().stream().anyMatch(dropped::contains);
      if (!newC.containsKey(e.getKey()) && !onDropped) {
        s.unsupported(kind + " " + oldName, "removing " + render(e.getValue()) + " is not supported",
            CONSTRAINT_REMOVED);
      }
    }
  }

  /** Annotation name → rendered arguments, either only the metadata ones or only the others. */
  private static Map<String, String> annotations(List<Annotation> list, boolean metadata) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Annotation a : list) {
      if (NOT_COMPARED.contains(a.name()) || METADATA.contains(a.name()) != metadata) {
        continue;
      }
      out.merge(a.name(), a.value().map(Object::toString).orElse("") + a.keywordArgs(), (x, y) -> x + ";" + y);
    }
    return out;
  }

  private static List<String> changedNames(Map<String, String> a, Map<String, String> b) {
    Set<String> names = new TreeSet<>();
    names.addAll(a.keySet());
    names.addAll(b.keySet());
    names.removeIf(n -> Objects.equals(a.get(n), b.get(n)));
    return names.stream().map(n -> "@" + n).toList();
  }

  private static String canonical(Constraint c, TypeIdentity id) {
    List<String> fields = c.fields().stream().map(f -> id.propertyIds().containsKey(f) ? "#" + id.propertyId(f) : f)
        .toList();
    String args = "";
    if (c instanceof Constraint.Range r) {
      args = r.min().map(Object::toString).orElse("") + ".." + r.max().map(Object::toString).orElse("");
    } else if (c instanceof Constraint.Check k) {
      args = k.pattern();
    }
    return c.name() + fields + args;
  }

  private static String render(Constraint c) {
    if (c instanceof Constraint.Range r) {
      return "@range(" + r.field() + ", " + r.min().map(Object::toString).orElse("") + ".."
          + r.max().map(Object::toString).orElse("") + ")";
    }
    if (c instanceof Constraint.Check k) {
      return "@check(" + k.field() + ", \"" + k.pattern() + "\")";
    }
    return "@" + c.name() + "(" + String.join(", ", c.fields()) + ")";
  }

  /** The steps, grouped in a fixed order of kinds. */
  private static final class Steps {
    private static final List<String> ORDER = List.of("add_type", "rename_type", "add_property", "rename_property",
        "extend_enum", "add_constraint", "update_type_metadata", "update_property_metadata", "drop_property",
        "drop_type", SchemaPlanStep.UNSUPPORTED_CHANGE);
    private final String dropMode;
    private final Map<String, List<SchemaPlanStep>> byKind = new HashMap<>();

    Steps(String dropMode) {
      this.dropMode = dropMode;
    }

    void add(String kind, Object... kv) {
      Map<String, Object> f = new LinkedHashMap<>();
      for (int i = 0; i < kv.length; i += 2) {
        f.put((String) kv[i], kv[i + 1]);
      }
      byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(new SchemaPlanStep(kind, f));
    }

    void drop(String kind, Object... kv) {
      Object[] withMode = java.util.Arrays.copyOf(kv, kv.length + 2);
      withMode[kv.length] = "mode";
      withMode[kv.length + 1] = dropMode;
      add(kind, withMode);
    }

    void unsupported(String entity, String reason, String code) {
      add(SchemaPlanStep.UNSUPPORTED_CHANGE, "entity", entity, "reason", reason, "code", code);
    }

    List<SchemaPlanStep> ordered() {
      List<SchemaPlanStep> out = new ArrayList<>();
      Set<String> kinds = new LinkedHashSet<>(ORDER);
      for (String k : kinds) {
        out.addAll(byKind.getOrDefault(k, List.of()));
      }
      return out;
    }
  }
}
