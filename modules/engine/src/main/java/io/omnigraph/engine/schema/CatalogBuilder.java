package io.omnigraph.engine.schema;

import io.omnigraph.engine.schema.SchemaAst.BodyConstraint;
import io.omnigraph.engine.schema.SchemaAst.ConstraintArg;
import io.omnigraph.engine.schema.SchemaAst.Decl;
import io.omnigraph.engine.schema.SchemaAst.EdgeDecl;
import io.omnigraph.engine.schema.SchemaAst.InterfaceDecl;
import io.omnigraph.engine.schema.SchemaAst.LiteralArg;
import io.omnigraph.engine.schema.SchemaAst.NameRef;
import io.omnigraph.engine.schema.SchemaAst.NodeDecl;
import io.omnigraph.engine.schema.SchemaAst.PropDecl;
import io.omnigraph.engine.schema.SchemaAst.RangeArg;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Semantic analysis: turns a parsed {@link SchemaAst.File} into a validated {@link Catalog}. */
final class CatalogBuilder {
  /** Lance virtual columns plus the loader's tombstone marker: never usable as property names. */
  static final Set<String> RESERVED_PROPERTY_NAMES =
      Set.of(
          "_rowid",
          "_rowaddr",
          "_rowoffset",
          "_row_created_at_version",
          "_row_last_updated_at_version",
          "_tombstone");

  private static final Set<String> RESERVED_TYPE_NAMES = reservedTypeNames();

  private static Set<String> reservedTypeNames() {
    Set<String> s = new HashSet<>();
    for (ScalarKind k : ScalarKind.values()) {
      s.add(k.spelling());
    }
    s.add("Vector");
    return Set.copyOf(s);
  }

  private enum Owner {
    INTERFACE("interface"),
    NODE("node"),
    EDGE("edge");

    final String label;

    Owner(String label) {
      this.label = label;
    }
  }

  private CatalogBuilder() {}

  static Catalog build(SchemaAst.File file) throws SchemaException {
    if (file.declarations().isEmpty()) {
      // An empty file (or only comments) is almost always the wrong file or a failed redirect.
      throw SchemaException.semantic(new SourcePos(1, 1), "the schema declares no types; declare at least one node type");
    }
    Map<String, Decl> byName = new LinkedHashMap<>();
    Map<String, EdgeDecl> edgeByFolded = new HashMap<>();
    for (Decl d : file.declarations()) {
      if (RESERVED_TYPE_NAMES.contains(d.name())) {
        throw SchemaException.semantic(d.pos(), "'" + d.name() + "' is a reserved type name");
      }
      Decl prior = byName.putIfAbsent(d.name(), d);
      if (prior != null) {
        String kind = kindOf(d);
        String msg =
            kind.equals(kindOf(prior))
                ? "duplicate " + kind + " type '" + d.name() + "' (first declared at " + prior.pos() + ")"
                : "type name '" + d.name() + "' is already declared as " + article(kindOf(prior)) + " at " + prior.pos();
        throw SchemaException.semantic(d.pos(), msg);
      }
      if (d instanceof EdgeDecl e) {
        EdgeDecl clash = edgeByFolded.putIfAbsent(e.name().toLowerCase(Locale.ROOT), e);
        if (clash != null) {
          throw SchemaException.semantic(
              e.pos(),
              "edge name collision after case folding: '" + e.name() + "' and '" + clash.name() + "' (at " + clash.pos() + ")");
        }
      }
    }

    Map<String, InterfaceType> interfaces = new LinkedHashMap<>();
    for (Decl d : file.declarations()) {
      if (d instanceof InterfaceDecl i) {
        interfaces.put(i.name(), buildInterface(i));
      }
    }
    List<NodeType> nodes = new ArrayList<>();
    for (Decl d : file.declarations()) {
      if (d instanceof NodeDecl n) {
        nodes.add(buildNode(n, interfaces));
      }
    }
    Set<String> nodeNames = new HashSet<>();
    nodes.forEach(n -> nodeNames.add(n.name()));
    List<EdgeType> edges = new ArrayList<>();
    for (Decl d : file.declarations()) {
      if (d instanceof EdgeDecl e) {
        edges.add(buildEdge(e, nodeNames, byName));
      }
    }
    return new Catalog(List.copyOf(interfaces.values()), nodes, edges);
  }

  private static String kindOf(Decl d) {
    if (d instanceof InterfaceDecl) {
      return "interface";
    }
    return d instanceof NodeDecl ? "node" : "edge";
  }

  private static String article(String kind) {
    return (kind.startsWith("i") || kind.startsWith("e") ? "an " : "a ") + kind;
  }

  // ---- interfaces -------------------------------------------------------------------------

  private static InterfaceType buildInterface(InterfaceDecl decl) throws SchemaException {
    List<Property> props = directProperties(decl.name(), Owner.INTERFACE, decl.properties());
    for (Property p : props) {
      checkPropertyAnnotations(decl.name(), Owner.INTERFACE, p, props);
    }
    return new InterfaceType(decl.name(), props, decl.pos());
  }

  private static List<Property> directProperties(String owner, Owner kind, List<PropDecl> decls)
      throws SchemaException {
    Map<String, Property> seen = new LinkedHashMap<>();
    for (PropDecl pd : decls) {
      checkPropertyName(owner, kind, pd.name(), pd.pos());
      Property prior = seen.get(pd.name());
      if (prior != null) {
        throw SchemaException.semantic(
            pd.pos(), "duplicate property '" + pd.name() + "' on " + kind.label + " " + owner + " (first declared at " + prior.pos() + ")");
      }
      seen.put(
          pd.name(),
          new Property(pd.name(), pd.type().type(), pd.type().nullable(), pd.annotations(), Optional.empty(), pd.pos()));
    }
    return new ArrayList<>(seen.values());
  }

  private static void checkPropertyName(String owner, Owner kind, String name, SourcePos pos)
      throws SchemaException {
    if (RESERVED_PROPERTY_NAMES.contains(name)) {
      throw SchemaException.semantic(
          pos, "property name '" + name + "' on " + owner + " is reserved (Lance/engine internal column)");
    }
    if (name.equals("id")) {
      throw SchemaException.semantic(
          pos, "property name 'id' on " + owner + " conflicts with the system column 'id'");
    }
    if (kind == Owner.EDGE && (name.equals("src") || name.equals("dst"))) {
      throw SchemaException.semantic(
          pos, "property name '" + name + "' on edge " + owner + " conflicts with the system column '" + name + "'");
    }
    if (kind == Owner.EDGE && (name.equals("from") || name.equals("to"))) {
      throw SchemaException.semantic(
          pos, "property name '" + name + "' on edge " + owner + " is reserved (edge inserts use from/to for the endpoints)");
    }
  }

  // ---- nodes ------------------------------------------------------------------------------

  private static NodeType buildNode(NodeDecl decl, Map<String, InterfaceType> interfaces)
      throws SchemaException {
    String t = decl.name();
    List<Property> props = directProperties(t, Owner.NODE, decl.properties());
    Set<String> implemented = new LinkedHashSet<>();
    List<Property> injected = new ArrayList<>();
    for (NameRef ref : decl.implementsList()) {
      InterfaceType iface = interfaces.get(ref.name());
      if (iface == null) {
        throw SchemaException.semantic(ref.pos(), "node " + t + " implements unknown interface '" + ref.name() + "'");
      }
      if (!implemented.add(ref.name())) {
        throw SchemaException.semantic(ref.pos(), "node " + t + " implements interface '" + ref.name() + "' more than once");
      }
      for (Property ip : iface.properties()) {
        Optional<Property> existing =
            props.stream().filter(p -> p.name().equals(ip.name())).findFirst()
                .or(() -> injected.stream().filter(p -> p.name().equals(ip.name())).findFirst());
        if (existing.isPresent()) {
          Property ex = existing.get();
          if (!ex.type().equals(ip.type()) || ex.nullable() != ip.nullable()) {
            SourcePos pos = ex.declaredDirectly() ? ex.pos() : ref.pos();
            throw SchemaException.semantic(
                pos,
                "node " + t + " property '" + ip.name() + "' has type " + ex.typeSpelling() + " but interface "
                    + iface.name() + " declares it as " + ip.typeSpelling());
          }
        } else {
          injected.add(new Property(ip.name(), ip.type(), ip.nullable(), ip.annotations(), Optional.of(iface.name()), ip.pos()));
        }
      }
    }
    List<Property> all = new ArrayList<>(props);
    all.addAll(injected);

    LinkedHashSet<Constraint> constraints = new LinkedHashSet<>();
    for (Property p : all) {
      checkPropertyAnnotations(t, Owner.NODE, p, all);
      for (Annotation a : p.annotations()) {
        switch (a.name()) {
          case "key" -> constraints.add(new Constraint.Key(List.of(p.name())));
          case "unique" -> constraints.add(new Constraint.Unique(List.of(p.name())));
          case "index" -> constraints.add(new Constraint.Index(List.of(p.name())));
          default -> {}
        }
      }
    }
    checkTypeAnnotations(t, Owner.NODE, decl.annotations());
    for (BodyConstraint bc : decl.constraints()) {
      constraints.add(bodyConstraint(t, Owner.NODE, bc, all));
    }
    List<Constraint> list = new ArrayList<>(constraints);
    long keys = list.stream().filter(Constraint.Key.class::isInstance).count();
    if (keys > 1) {
      // Report the second @key in source order (property-level or body).
      List<SourcePos> keyPositions = new ArrayList<>();
      all.forEach(p -> p.annotations().stream().filter(a -> a.name().equals("key")).forEach(a -> keyPositions.add(a.pos())));
      decl.constraints().stream().filter(c -> c.name().equals("key")).forEach(c -> keyPositions.add(c.pos()));
      keyPositions.sort(java.util.Comparator.comparingInt(SourcePos::line).thenComparingInt(SourcePos::column));
      SourcePos pos = keyPositions.size() > 1 ? keyPositions.get(1) : decl.pos();
      throw SchemaException.semantic(pos, "node type " + t + " has multiple @key constraints; only one is supported");
    }
    for (Constraint c : list) {
      if (c instanceof Constraint.Key k) {
        for (String f : k.fields()) {
          Property p = all.stream().filter(x -> x.name().equals(f)).findFirst().orElseThrow();
          SourcePos pos = keyPos(decl, p);
          if (p.nullable()) {
            throw SchemaException.semantic(pos, "@key property " + t + "." + f + " cannot be nullable");
          }
          String shape = shapeWord(p.type());
          if (shape != null) {
            throw SchemaException.semantic(pos, "@key is not supported on " + shape + " property " + t + "." + f);
          }
        }
      }
    }
    return new NodeType(t, decl.annotations(), List.copyOf(implemented), all, list, decl.pos());
  }

  private static SourcePos keyPos(NodeDecl decl, Property p) {
    for (Annotation a : p.annotations()) {
      if (a.name().equals("key")) {
        return a.pos();
      }
    }
    return decl.constraints().stream().filter(c -> c.name().equals("key")).map(BodyConstraint::pos).findFirst()
        .orElse(p.pos());
  }

  /** @return "list", "vector" or "blob" for types that cannot be key members, else null */
  private static String shapeWord(PropertyType type) {
    if (type instanceof PropertyType.ListOf) {
      return "list";
    }
    if (type instanceof PropertyType.VectorOf) {
      return "vector";
    }
    if (type instanceof PropertyType.Scalar s && s.kind() == ScalarKind.BLOB) {
      return "blob";
    }
    return null;
  }

  // ---- edges ------------------------------------------------------------------------------

  private static EdgeType buildEdge(EdgeDecl decl, Set<String> nodeNames, Map<String, Decl> byName)
      throws SchemaException {
    String t = decl.name();
    checkEndpoint(t, "source", decl.from(), nodeNames, byName);
    checkEndpoint(t, "target", decl.to(), nodeNames, byName);
    Cardinality card =
        decl.cardinality()
            .map(c -> new Cardinality(c.min(), c.max().map(OptionalLong::of).orElse(OptionalLong.empty())))
            .orElse(Cardinality.UNBOUNDED);
    List<Property> props = directProperties(t, Owner.EDGE, decl.properties());
    LinkedHashSet<Constraint> constraints = new LinkedHashSet<>();
    for (Property p : props) {
      checkPropertyAnnotations(t, Owner.EDGE, p, props);
      for (Annotation a : p.annotations()) {
        switch (a.name()) {
          case "unique" -> constraints.add(new Constraint.Unique(List.of(p.name())));
          case "index" -> constraints.add(new Constraint.Index(List.of(p.name())));
          default -> {}
        }
      }
    }
    checkTypeAnnotations(t, Owner.EDGE, decl.annotations());
    BodyConstraint firstKey = null;
    for (BodyConstraint bc : decl.constraints()) {
      if (bc.name().equals("key")) {
        if (firstKey != null) {
          throw SchemaException.semantic(bc.pos(), "edge type " + t + " has multiple @key constraints; only one is supported");
        }
        firstKey = bc;
        constraints.add(edgeKey(t, bc, props));
      } else {
        constraints.add(bodyConstraint(t, Owner.EDGE, bc, props));
      }
    }
    return new EdgeType(
        t, decl.from().name(), decl.to().name(), card, decl.annotations(), props, new ArrayList<>(constraints), decl.pos());
  }

  /**
   * An edge key (docs/edge-keys.md): {@code @key(src, dst[, p...])}; the members start with the two
   * endpoints in that order, further members are distinct non-nullable scalar properties.
   */
  private static Constraint.Key edgeKey(String t, BodyConstraint bc, List<Property> props) throws SchemaException {
    List<String> fields = new ArrayList<>();
    for (ConstraintArg arg : bc.args()) {
      String f = identArg("key", arg);
      if (fields.contains(f)) {
        throw SchemaException.semantic(arg.pos(), "@key on " + t + " lists '" + f + "' twice");
      }
      int i = fields.size();
      if (i < 2) {
        String want = i == 0 ? "src" : "dst";
        if (!f.equals(want)) {
          throw SchemaException.semantic(arg.pos(),
              "@key on edge " + t + " must start with the endpoints: @key(src, dst" + (bc.args().size() > 2 ? ", ..." : "")
                  + "), found '" + f + "' as member " + (i + 1));
        }
      } else {
        if (f.equals("src") || f.equals("dst")) {
          throw SchemaException.semantic(arg.pos(), "@key on edge " + t + " lists '" + f + "' twice");
        }
        Property p = findProperty(t, "key", f, arg.pos(), props);
        if (p.nullable()) {
          throw SchemaException.semantic(arg.pos(), "@key property " + t + "." + f + " cannot be nullable");
        }
        String shape = shapeWord(p.type());
        if (shape != null) {
          throw SchemaException.semantic(arg.pos(), "@key is not supported on " + shape + " property " + t + "." + f);
        }
      }
      fields.add(f);
    }
    if (fields.size() < 2) {
      throw SchemaException.semantic(bc.pos(), "@key on edge " + t + " must name both endpoints: @key(src, dst)");
    }
    return new Constraint.Key(fields);
  }

  private static void checkEndpoint(
      String edge, String role, NameRef ref, Set<String> nodeNames, Map<String, Decl> byName)
      throws SchemaException {
    if (nodeNames.contains(ref.name())) {
      return;
    }
    Decl other = byName.get(ref.name());
    String why = other == null ? "" : " ('" + ref.name() + "' is " + article(kindOf(other)) + ", not a node type)";
    throw SchemaException.semantic(
        ref.pos(), "edge " + edge + " references unknown " + role + " type '" + ref.name() + "'" + why);
  }

  // ---- annotations ------------------------------------------------------------------------

  private static void checkTypeAnnotations(String t, Owner kind, List<Annotation> annotations)
      throws SchemaException {
    Set<String> once = new HashSet<>();
    for (Annotation a : annotations) {
      switch (a.name()) {
        case "key", "unique", "index", "embed" -> {
          if (kind == Owner.NODE) {
            throw SchemaException.semantic(
                a.pos(), "@" + a.name() + " on node " + t + " is only supported on node properties or as body constraint");
          }
          throw SchemaException.semantic(a.pos(), "type-level @" + a.name() + " is not supported on edges (edge " + t + ")");
        }
        case Annotation.DESCRIPTION, Annotation.INSTRUCTION, Annotation.RENAME_FROM -> {
          checkTextAnnotation(kind.label + " " + t, a);
          if (!once.add(a.name())) {
            throw SchemaException.semantic(a.pos(), kind.label + " " + t + " declares @" + a.name() + " multiple times");
          }
        }
        default -> {}
      }
    }
  }

  private static void checkTextAnnotation(String target, Annotation a) throws SchemaException {
    if (a.stringValue().isEmpty() || a.stringValue().get().isEmpty() || !a.keywordArgs().isEmpty()) {
      throw SchemaException.semantic(
          a.pos(), "@" + a.name() + " on " + target + " requires exactly one non-empty string argument");
    }
  }

  private static void checkPropertyAnnotations(String t, Owner kind, Property p, List<Property> siblings)
      throws SchemaException {
    String target = t + "." + p.name();
    Set<String> once = new HashSet<>();
    for (Annotation a : p.annotations()) {
      String n = a.name();
      boolean structural = n.equals("key") || n.equals("unique") || n.equals("index") || n.equals("embed");
      if (structural || n.equals(Annotation.DESCRIPTION) || n.equals(Annotation.RENAME_FROM)) {
        if (!once.add(n)) {
          throw SchemaException.semantic(a.pos(), "property " + target + " declares @" + n + " multiple times");
        }
      }
      switch (n) {
        case "key", "unique", "index" -> {
          if (a.value().isPresent() || !a.keywordArgs().isEmpty()) {
            throw SchemaException.semantic(a.pos(), "@" + n + " on " + target + " does not accept a value");
          }
          if (kind == Owner.EDGE && n.equals("key")) {
            throw SchemaException.semantic(a.pos(),
                "@key on an edge property is not supported (" + target + "); declare the edge's key in its body: @key(src, dst"
                    + ", " + p.name() + ")");
          }
          checkStructuralShape(n, target, p, a);
        }
        case "embed" -> {
          if (kind == Owner.EDGE) {
            throw SchemaException.semantic(a.pos(), "@embed is not supported on edge properties (" + target + ")");
          }
          checkStructuralShape(n, target, p, a);
          if (!(p.type() instanceof PropertyType.VectorOf)) {
            throw SchemaException.semantic(
                a.pos(), "@embed on " + target + " requires a Vector property, got " + p.typeSpelling());
          }
          Optional<String> source = a.stringValue();
          if (source.isEmpty() || source.get().isEmpty()) {
            throw SchemaException.semantic(
                a.pos(), "@embed on " + target + " requires the source property name as a string, e.g. @embed(\"text\")");
          }
          for (Map.Entry<String, Literal> kw : a.keywordArgs().entrySet()) {
            if (!kw.getKey().equals("model")) {
              throw SchemaException.semantic(
                  a.pos(), "@embed on " + target + " accepts only the keyword argument 'model', found '" + kw.getKey() + "'");
            }
            if (!(kw.getValue() instanceof Literal.Str s) || s.value().isEmpty()) {
              throw SchemaException.semantic(a.pos(), "@embed model on " + target + " must be a non-empty string");
            }
          }
          // Interface properties are checked again once injected into a node, where the source
          // property can live on the node itself.
          if (kind == Owner.NODE) {
            Optional<Property> src = siblings.stream().filter(s -> s.name().equals(source.get())).findFirst();
            if (src.isEmpty()) {
              throw SchemaException.semantic(
                  a.pos(), "@embed on " + target + " references unknown source property '" + source.get() + "'");
            }
            if (!(src.get().type() instanceof PropertyType.Scalar s && s.kind() == ScalarKind.STRING)) {
              throw SchemaException.semantic(
                  a.pos(), "@embed source " + t + "." + source.get() + " must be a String property, got " + src.get().typeSpelling());
            }
          }
        }
        case Annotation.INSTRUCTION ->
            throw SchemaException.semantic(a.pos(), "@instruction is not supported on properties (" + target + ")");
        case Annotation.DESCRIPTION, Annotation.RENAME_FROM -> checkTextAnnotation("property " + target, a);
        default -> {}
      }
    }
  }

  private static void checkStructuralShape(String n, String target, Property p, Annotation a)
      throws SchemaException {
    String shape = shapeWord(p.type());
    boolean rejected =
        switch (shape == null ? "" : shape) {
          case "list", "blob" -> true;
          case "vector" -> n.equals("key") || n.equals("unique");
          default -> false;
        };
    if (rejected) {
      throw SchemaException.semantic(a.pos(), "@" + n + " is not supported on " + shape + " property " + target);
    }
  }

  // ---- body constraints -------------------------------------------------------------------

  private static Constraint bodyConstraint(String t, Owner kind, BodyConstraint bc, List<Property> props)
      throws SchemaException {
    String n = bc.name();
    if (kind == Owner.EDGE && (n.equals("range") || n.equals("check"))) {
      throw SchemaException.semantic(bc.pos(), "@" + n + " constraint is not supported on edges (edge " + t + ")");
    }
    return switch (n) {
      case "key", "unique", "index" -> {
        List<String> fields = new ArrayList<>();
        for (ConstraintArg arg : bc.args()) {
          String f = identArg(n, arg);
          if (fields.contains(f)) {
            throw SchemaException.semantic(arg.pos(), "@" + n + " on " + t + " lists property '" + f + "' twice");
          }
          boolean system = kind == Owner.EDGE && (f.equals("src") || f.equals("dst"));
          if (!system) {
            Property p = findProperty(t, n, f, arg.pos(), props);
            if (p.type() instanceof PropertyType.Scalar s && s.kind() == ScalarKind.BLOB && !n.equals("key")) {
              throw SchemaException.semantic(arg.pos(), "@" + n + " is not supported on blob property " + t + "." + f);
            }
          }
          fields.add(f);
        }
        yield switch (n) {
          case "key" -> new Constraint.Key(fields);
          case "unique" -> new Constraint.Unique(fields);
          default -> new Constraint.Index(fields);
        };
      }
      case "range" -> {
        if (bc.args().size() != 2 || !(bc.args().get(1) instanceof RangeArg range)) {
          throw SchemaException.semantic(bc.pos(), "@range takes a property and bounds, e.g. @range(year, 1400..2100)");
        }
        String f = identArg(n, bc.args().get(0));
        Property p = findProperty(t, n, f, bc.args().get(0).pos(), props);
        if (!(p.type() instanceof PropertyType.Scalar s && s.kind().isNumeric())) {
          throw SchemaException.semantic(
              bc.args().get(0).pos(), "@range on " + t + "." + f + " requires a numeric type, got " + p.typeSpelling());
        }
        if (range.min().isPresent() && range.max().isPresent() && range.min().get().compareTo(range.max().get()) > 0) {
          throw SchemaException.semantic(
              range.pos(),
              "@range on " + t + "." + f + " has minimum " + range.min().get().toPlainString() + " greater than maximum "
                  + range.max().get().toPlainString());
        }
        if (s.kind().isInteger()) {
          for (Optional<BigDecimal> b : List.of(range.min(), range.max())) {
            if (b.isPresent() && b.get().stripTrailingZeros().scale() > 0) {
              throw SchemaException.semantic(
                  range.pos(), "@range on integer property " + t + "." + f + " needs integer bounds, got " + b.get().toPlainString());
            }
          }
        }
        yield new Constraint.Range(f, range.min(), range.max());
      }
      case "check" -> {
        if (bc.args().size() != 2
            || !(bc.args().get(1) instanceof LiteralArg la && la.literal() instanceof Literal.Str pattern)) {
          throw SchemaException.semantic(bc.pos(), "@check takes a property and a regex string, e.g. @check(code, \"^[A-Z]+$\")");
        }
        String f = identArg(n, bc.args().get(0));
        Property p = findProperty(t, n, f, bc.args().get(0).pos(), props);
        boolean stringy =
            (p.type() instanceof PropertyType.Scalar s && s.kind() == ScalarKind.STRING) || p.type() instanceof PropertyType.EnumOf;
        if (!stringy) {
          throw SchemaException.semantic(
              bc.args().get(0).pos(), "@check on " + t + "." + f + " requires String type, got " + p.typeSpelling());
        }
        try {
          Pattern.compile(pattern.value());
        } catch (PatternSyntaxException e) {
          throw SchemaException.semantic(
              bc.args().get(1).pos(), "@check on " + t + "." + f + " has an invalid regular expression: " + e.getDescription());
        }
        yield new Constraint.Check(f, pattern.value());
      }
      default -> throw new IllegalStateException("parser admitted unknown constraint " + n);
    };
  }

  private static String identArg(String constraint, ConstraintArg arg) throws SchemaException {
    if (arg instanceof LiteralArg la && la.literal() instanceof Literal.Ident id) {
      return id.name();
    }
    String found = arg instanceof LiteralArg la ? la.literal().spelling() : "a range";
    throw SchemaException.semantic(arg.pos(), "@" + constraint + " expects a property name, found " + found);
  }

  private static Property findProperty(String t, String constraint, String f, SourcePos pos, List<Property> props)
      throws SchemaException {
    return props.stream().filter(p -> p.name().equals(f)).findFirst()
        .orElseThrow(() -> SchemaException.semantic(pos, "@" + constraint + " on " + t + " references unknown property '" + f + "'"));
  }
}
