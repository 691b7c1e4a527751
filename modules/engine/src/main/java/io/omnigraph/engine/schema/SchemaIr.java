package io.omnigraph.engine.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The accepted, identity-bearing form of a schema ({@code _schema.ir.json}, IR version 2).
 *
 * <p>It binds every interface, node and edge type to a stable type id, every node and edge table to
 * a table incarnation id, and every property to a stable property id. The three id kinds share one
 * monotonically increasing, never-reused, non-zero sequence whose high-water mark is {@link
 * #nextIdentityId()}; all ids live in the namespace {@link #identityDomain()} (a canonical
 * uppercase ULID minted at init). Besides identity, the IR carries the complete shape of the
 * schema (types, nullability, annotations, constraints), so two IRs describe the same schema
 * exactly when their {@link #shapeHash()}es are equal.
 *
 * <p>Identity: {@link #hash()} is {@code "sha256:" + hex(SHA-256(canonical JSON))}, where the
 * canonical JSON is the IR tree written compactly with object keys sorted; it is independent of
 * whitespace and comments in the source and of the pretty-printed file layout. {@link
 * #shapeHash()} is the same over the tree with every identity field removed.
 *
 * <p>Instances are immutable. Create one with {@link #initialize(Catalog, String)} (a new graph),
 * {@link #resolve(SchemaIr, Catalog)} (evolution against an accepted IR) or {@link #parse(String)}
 * (reading {@code _schema.ir.json}).
 */
public final class SchemaIr {
  /** The IR format version written and accepted by this implementation. */
  public static final int IR_VERSION = 2;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectMapper CANONICAL =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final Set<String> IDENTITY_FIELDS =
      Set.of("schema_identity_domain", "next_identity_id", "type_id", "table_incarnation_id", "property_id");

  /** What a declaration is. */
  public enum DeclKind {
    INTERFACE("interface", "interfaces"),
    NODE("node", "nodes"),
    EDGE("edge", "edges");

    private final String label;
    private final String section;

    DeclKind(String label, String section) {
      this.label = label;
      this.section = section;
    }

    /** @return {@code interface}, {@code node} or {@code edge} */
    public String label() {
      return label;
    }
  }

  /**
   * Identity of one declaration.
   *
   * @param kind interface, node or edge
   * @param name type name
   * @param typeId stable type id (non-zero); for nodes and edges also the stable table id
   * @param tableIncarnationId table incarnation id (non-zero) for nodes and edges, 0 for interfaces
   * @param propertyIds property name → stable property id, in declaration order
   */
  public record TypeIdentity(
      DeclKind kind, String name, long typeId, long tableIncarnationId, Map<String, Long> propertyIds) {
    public TypeIdentity {
      propertyIds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(propertyIds));
    }

    /**
     * @param property property name
     * @return its stable id
     * @throws IllegalArgumentException if the type has no such property
     */
    public long propertyId(String property) {
      Long id = propertyIds.get(property);
      if (id == null) {
        throw new IllegalArgumentException(kind.label + " " + name + " has no property '" + property + "'");
      }
      return id;
    }
  }

  private final String identityDomain;
  private final long nextIdentityId;
  private final List<TypeIdentity> types;
  private final ObjectNode tree;
  /** Memo of {@link #canonical(JsonNode)} of {@link #tree}: the tree never changes after construction. */
  private volatile String canonicalJson;
  /** Memo of {@link #hash()}. */
  private volatile String hash;

  private SchemaIr(String identityDomain, long nextIdentityId, List<TypeIdentity> types, ObjectNode tree) {
    this.identityDomain = identityDomain;
    this.nextIdentityId = nextIdentityId;
    this.types = List.copyOf(types);
    this.tree = tree;
  }

  /** @return the identity namespace (canonical uppercase ULID) */
  public String identityDomain() {
    return identityDomain;
  }

  /** @return the next id the sequence would hand out (ids below it may be retired, never reused) */
  public long nextIdentityId() {
    return nextIdentityId;
  }

  /** @return identities of all declarations: interfaces, then nodes, then edges, in source order */
  public List<TypeIdentity> types() {
    return types;
  }

  /**
   * @param kind declaration kind
   * @param name exact type name
   * @return the identity of that declaration
   */
  public Optional<TypeIdentity> type(DeclKind kind, String name) {
    return types.stream().filter(t -> t.kind() == kind && t.name().equals(name)).findFirst();
  }

  /** @return the pretty-printed JSON written to {@code _schema.ir.json} (deterministic) */
  public String toJson() {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an in-memory JSON tree always serializes", e);
    }
  }

  /** @return {@code "sha256:<hex>"} over the canonical JSON of the whole IR */
  public String hash() {
    String h = hash;
    if (h == null) {
      h = sha256(canonicalJson());
      hash = h;
    }
    return h;
  }

  private String canonicalJson() {
    String c = canonicalJson;
    if (c == null) {
      c = canonical(tree);
      canonicalJson = c;
    }
    return c;
  }

  /** @return {@code "sha256:<hex>"} over the canonical JSON of the IR without identity fields */
  public String shapeHash() {
    return sha256(canonical(stripIdentity(tree)));
  }

  /**
   * The identity-free shape hash a catalog would have in any IR; equal to {@link #shapeHash()} of
   * every IR built from an equal schema. The engine compares it with the accepted IR on open.
   *
   * @param catalog a compiled catalog
   * @return {@code "sha256:<hex>"}
   */
  public static String shapeHash(Catalog catalog) {
    return initializeUnchecked(catalog, "00000000000000000000000000").shapeHash();
  }

  // ---- construction -----------------------------------------------------------------------

  /**
   * Mints identities for a brand-new graph: ids 1, 2, 3, ... in declaration order. Rename hints
   * have no effect here (there is nothing to rename from).
   *
   * @param catalog the compiled schema
   * @param identityDomain a canonical uppercase ULID, normally {@link Ulid#generate()}
   * @return the IR
   * @throws IllegalArgumentException if the domain is not a canonical ULID
   */
  public static SchemaIr initialize(Catalog catalog, String identityDomain) {
    if (!Ulid.isCanonical(identityDomain)) {
      throw new IllegalArgumentException("schema identity domain '" + identityDomain + "' is not a canonical uppercase ULID");
    }
    return initializeUnchecked(catalog, identityDomain);
  }

  private static SchemaIr initializeUnchecked(Catalog catalog, String domain) {
    long[] next = {1};
    List<TypeIdentity> ids = new ArrayList<>();
    for (InterfaceType i : catalog.interfaces()) {
      ids.add(fresh(DeclKind.INTERFACE, i.name(), names(i.properties()), next));
    }
    for (NodeType n : catalog.nodes()) {
      ids.add(fresh(DeclKind.NODE, n.name(), names(n.properties()), next));
    }
    for (EdgeType e : catalog.edges()) {
      ids.add(fresh(DeclKind.EDGE, e.name(), names(e.properties()), next));
    }
    return build(catalog, domain, next[0], ids);
  }

  private static TypeIdentity fresh(DeclKind kind, String name, List<String> props, long[] next) {
    long typeId = next[0]++;
    long inc = kind == DeclKind.INTERFACE ? 0 : next[0]++;
    Map<String, Long> p = new LinkedHashMap<>();
    for (String prop : props) {
      p.put(prop, next[0]++);
    }
    return new TypeIdentity(kind, name, typeId, inc, p);
  }

  private static List<String> names(List<Property> props) {
    return props.stream().map(Property::name).toList();
  }

  /**
   * Resolves a desired schema against the accepted IR (schema evolution): a declaration with the
   * same kind and name keeps its ids; otherwise {@code @rename_from("Old")} claims the accepted
   * declaration of the same kind named {@code Old}; everything else gets freshly allocated ids
   * above the accepted high-water mark. Properties resolve the same way within their owner.
   *
   * @param accepted the accepted IR
   * @param desired the compiled desired schema
   * @return the resolved IR (same domain)
   * @throws SchemaException (kind IDENTITY) when a rename hint names nothing accepted, crosses
   *     declaration kinds, or claims an accepted declaration that is also claimed otherwise
   */
  public static SchemaIr resolve(SchemaIr accepted, Catalog desired) throws SchemaException {
    long[] next = {accepted.nextIdentityId};
    List<TypeIdentity> out = new ArrayList<>();
    Set<Long> consumedTypes = new HashSet<>();
    record Desired(DeclKind kind, String name, List<Property> props, List<Annotation> annotations) {}
    List<Desired> desiredTypes = new ArrayList<>();
    desired.interfaces().forEach(i -> desiredTypes.add(new Desired(DeclKind.INTERFACE, i.name(), i.properties(), List.of())));
    desired.nodes().forEach(n -> desiredTypes.add(new Desired(DeclKind.NODE, n.name(), n.properties(), n.annotations())));
    desired.edges().forEach(e -> desiredTypes.add(new Desired(DeclKind.EDGE, e.name(), e.properties(), e.annotations())));

    // First pass: exact matches claim their accepted declaration, so a rename hint that points
    // at a still-present name is reported as a double claim rather than silently winning.
    Map<Desired, TypeIdentity> matched = new HashMap<>();
    for (Desired d : desiredTypes) {
      accepted.type(d.kind(), d.name()).ifPresent(t -> {
        matched.put(d, t);
        consumedTypes.add(t.typeId());
      });
    }
    for (Desired d : desiredTypes) {
      if (matched.containsKey(d)) {
        continue;
      }
      Optional<String> hint = renameHint(d.annotations());
      if (hint.isEmpty()) {
        continue;
      }
      List<TypeIdentity> byName = accepted.types.stream().filter(t -> t.name().equals(hint.get())).toList();
      if (byName.isEmpty()) {
        throw SchemaException.identity(
            d.kind().label + " '" + d.name() + "' declares @rename_from(\"" + hint.get() + "\") but no accepted declaration has that name");
      }
      Optional<TypeIdentity> sameKind = byName.stream().filter(t -> t.kind() == d.kind()).findFirst();
      if (sameKind.isEmpty()) {
        throw SchemaException.identity(
            d.kind().label + " '" + d.name() + "' cannot rename accepted '" + hint.get() + "' across declaration kinds");
      }
      if (!consumedTypes.add(sameKind.get().typeId())) {
        throw SchemaException.identity(
            "accepted " + d.kind().label + " '" + hint.get() + "' is claimed by more than one desired declaration");
      }
      matched.put(d, sameKind.get());
    }
    for (Desired d : desiredTypes) {
      TypeIdentity prior = matched.get(d);
      if (prior == null) {
        out.add(fresh(d.kind(), d.name(), names(d.props()), next));
        continue;
      }
      Map<String, Long> props = new LinkedHashMap<>();
      Set<Long> consumedProps = new HashSet<>();
      for (Property p : d.props()) {
        if (prior.propertyIds().containsKey(p.name())) {
          consumedProps.add(prior.propertyIds().get(p.name()));
        }
      }
      for (Property p : d.props()) {
        Long id = prior.propertyIds().get(p.name());
        if (id == null) {
          Optional<String> hint = p.annotation(Annotation.RENAME_FROM).flatMap(Annotation::stringValue);
          if (hint.isPresent()) {
            id = prior.propertyIds().get(hint.get());
            if (id == null) {
              throw SchemaException.identity(
                  "property " + d.name() + "." + p.name() + " declares @rename_from(\"" + hint.get()
                      + "\") but accepted " + d.kind().label + " " + prior.name() + " has no property of that name");
            }
            if (!consumedProps.add(id)) {
              throw SchemaException.identity(
                  "accepted property " + prior.name() + "." + hint.get() + " is claimed by more than one desired property");
            }
          } else {
            id = next[0]++;
          }
        }
        props.put(p.name(), id);
      }
      out.add(new TypeIdentity(d.kind(), d.name(), prior.typeId(), prior.tableIncarnationId(), props));
    }
    return build(desired, accepted.identityDomain, next[0], out);
  }

  private static Optional<String> renameHint(List<Annotation> annotations) {
    return annotations.stream().filter(a -> a.name().equals(Annotation.RENAME_FROM)).findFirst()
        .flatMap(Annotation::stringValue);
  }

  // ---- JSON tree --------------------------------------------------------------------------

  private static SchemaIr build(Catalog catalog, String domain, long next, List<TypeIdentity> ids) {
    Map<String, TypeIdentity> byKey = new HashMap<>();
    ids.forEach(t -> byKey.put(t.kind() + ":" + t.name(), t));
    ObjectNode root = F.objectNode();
    root.put("ir_version", IR_VERSION);
    root.put("schema_identity_domain", domain);
    root.put("next_identity_id", next);
    ArrayNode interfaces = root.putArray("interfaces");
    for (InterfaceType i : catalog.interfaces()) {
      TypeIdentity id = byKey.get(DeclKind.INTERFACE + ":" + i.name());
      ObjectNode o = interfaces.addObject();
      o.put("name", i.name());
      o.put("type_id", id.typeId());
      o.set("properties", properties(i.properties(), id));
    }
    ArrayNode nodes = root.putArray("nodes");
    for (NodeType n : catalog.nodes()) {
      TypeIdentity id = byKey.get(DeclKind.NODE + ":" + n.name());
      ObjectNode o = nodes.addObject();
      o.put("name", n.name());
      o.put("type_id", id.typeId());
      o.put("table_incarnation_id", id.tableIncarnationId());
      o.set("annotations", annotations(n.annotations()));
      ArrayNode impl = o.putArray("implements");
      for (String iname : n.implementsList()) {
        ObjectNode r = impl.addObject();
        r.put("type_id", byKey.get(DeclKind.INTERFACE + ":" + iname).typeId());
        r.put("type_name", iname);
      }
      o.set("properties", properties(n.properties(), id));
      o.set("constraints", constraints(n.constraints(), id));
    }
    ArrayNode edges = root.putArray("edges");
    for (EdgeType e : catalog.edges()) {
      TypeIdentity id = byKey.get(DeclKind.EDGE + ":" + e.name());
      ObjectNode o = edges.addObject();
      o.put("name", e.name());
      o.put("type_id", id.typeId());
      o.put("table_incarnation_id", id.tableIncarnationId());
      o.set("from_type", typeRef(byKey.get(DeclKind.NODE + ":" + e.fromType())));
      o.set("to_type", typeRef(byKey.get(DeclKind.NODE + ":" + e.toType())));
      ObjectNode card = o.putObject("cardinality");
      card.put("min", e.cardinality().min());
      if (e.cardinality().max().isPresent()) {
        card.put("max", e.cardinality().max().getAsLong());
      } else {
        card.putNull("max");
      }
      o.set("annotations", annotations(e.annotations()));
      o.set("properties", properties(e.properties(), id));
      o.set("constraints", constraints(e.constraints(), id));
    }
    return new SchemaIr(domain, next, ids, root);
  }

  private static ObjectNode typeRef(TypeIdentity t) {
    ObjectNode r = F.objectNode();
    r.put("type_id", t.typeId());
    r.put("type_name", t.name());
    return r;
  }

  private static ArrayNode properties(List<Property> props, TypeIdentity id) {
    ArrayNode a = F.arrayNode();
    for (Property p : props) {
      ObjectNode o = a.addObject();
      o.put("name", p.name());
      o.put("property_id", id.propertyId(p.name()));
      o.set("prop_type", propType(p.type()));
      o.put("nullable", p.nullable());
      o.set("annotations", annotations(p.annotations()));
      o.put("declared_directly", p.declaredDirectly());
      if (p.fromInterface().isPresent()) {
        o.put("from_interface", p.fromInterface().get());
      } else {
        o.putNull("from_interface");
      }
    }
    return a;
  }

  private static ObjectNode propType(PropertyType t) {
    ObjectNode o = F.objectNode();
    if (t instanceof PropertyType.Scalar s) {
      o.put("kind", "scalar");
      o.put("scalar", s.kind().spelling());
    } else if (t instanceof PropertyType.ListOf l) {
      o.put("kind", "list");
      o.put("item", l.item().spelling());
    } else if (t instanceof PropertyType.EnumOf e) {
      o.put("kind", "enum");
      ArrayNode v = o.putArray("values");
      e.values().forEach(v::add);
    } else if (t instanceof PropertyType.VectorOf v) {
      o.put("kind", "vector");
      o.put("dimension", v.dimension());
    }
    return o;
  }

  private static ArrayNode annotations(List<Annotation> annotations) {
    ArrayNode a = F.arrayNode();
    for (Annotation an : annotations) {
      ObjectNode o = a.addObject();
      o.put("name", an.name());
      if (an.value().isPresent()) {
        o.set("value", literal(an.value().get()));
      } else {
        o.putNull("value");
      }
      ObjectNode kw = o.putObject("kwargs");
      an.keywordArgs().forEach((k, v) -> kw.set(k, literal(v)));
    }
    return a;
  }

  private static ObjectNode literal(Literal l) {
    ObjectNode o = F.objectNode();
    if (l instanceof Literal.Str s) {
      o.put("kind", "string");
      o.put("value", s.value());
    } else if (l instanceof Literal.Int i) {
      o.put("kind", "integer");
      o.put("value", i.value().toString());
    } else if (l instanceof Literal.Decimal d) {
      o.put("kind", "decimal");
      o.put("value", d.value().toPlainString());
    } else if (l instanceof Literal.Bool b) {
      o.put("kind", "bool");
      o.put("value", b.value());
    } else if (l instanceof Literal.Ident id) {
      o.put("kind", "ident");
      o.put("value", id.name());
    }
    return o;
  }

  private static ArrayNode constraints(List<Constraint> constraints, TypeIdentity id) {
    ArrayNode a = F.arrayNode();
    for (Constraint c : constraints) {
      ObjectNode o = a.addObject();
      o.put("kind", c.name());
      if (c instanceof Constraint.Range r) {
        o.set("field", fieldRef(r.field(), id));
        o.put("min", r.min().map(java.math.BigDecimal::toPlainString).orElse(null));
        o.put("max", r.max().map(java.math.BigDecimal::toPlainString).orElse(null));
      } else if (c instanceof Constraint.Check ch) {
        o.set("field", fieldRef(ch.field(), id));
        o.put("pattern", ch.pattern());
      } else {
        ArrayNode fields = o.putArray("fields");
        c.fields().forEach(f -> fields.add(fieldRef(f, id)));
      }
    }
    return a;
  }

  private static ObjectNode fieldRef(String field, TypeIdentity id) {
    ObjectNode o = F.objectNode();
    if (id.kind() == DeclKind.EDGE && (field.equals("src") || field.equals("dst"))) {
      o.put("kind", "system");
      o.put("role", field);
    } else {
      o.put("kind", "property");
      o.put("property_id", id.propertyId(field));
      o.put("property_name", field);
    }
    return o;
  }

  // ---- parsing ----------------------------------------------------------------------------

  /**
   * Reads {@code _schema.ir.json}.
   *
   * @param json the file content
   * @return the IR
   * @throws SchemaException (kind IDENTITY) if the text is not JSON, has another {@code
   *     ir_version}, lacks identity fields, has a zero, duplicate or out-of-sequence id, or a
   *     non-canonical domain
   */
  public static SchemaIr parse(String json) throws SchemaException {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw SchemaException.identity("_schema.ir.json is not valid JSON: " + e.getOriginalMessage());
    }
    if (!(root instanceof ObjectNode obj)) {
      throw SchemaException.identity("_schema.ir.json must contain a JSON object");
    }
    int version = requireInt(obj, "ir_version", "the IR");
    if (version != IR_VERSION) {
      throw SchemaException.identity("unsupported schema IR version " + version + " (expected " + IR_VERSION + ")");
    }
    String domain = requireText(obj, "schema_identity_domain", "the IR");
    if (!Ulid.isCanonical(domain)) {
      throw SchemaException.identity("schema_identity_domain '" + domain + "' is not a canonical uppercase ULID");
    }
    long next = requireLong(obj, "next_identity_id", "the IR");
    List<TypeIdentity> types = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (DeclKind kind : DeclKind.values()) {
      JsonNode section = obj.get(kind.section);
      if (section == null || !section.isArray()) {
        throw SchemaException.identity("_schema.ir.json lacks the '" + kind.section + "' array");
      }
      for (JsonNode t : section) {
        String name = requireText(t, "name", kind.label);
        String what = kind.label + " " + name;
        long typeId = checkId(requireLong(t, "type_id", what), what + " type_id", next, seen);
        long inc = kind == DeclKind.INTERFACE ? 0 : checkId(requireLong(t, "table_incarnation_id", what), what + " table_incarnation_id", next, seen);
        Map<String, Long> props = new LinkedHashMap<>();
        JsonNode ps = t.get("properties");
        if (ps == null || !ps.isArray()) {
          throw SchemaException.identity(what + " lacks a 'properties' array");
        }
        for (JsonNode p : ps) {
          String pname = requireText(p, "name", what + " property");
          props.put(pname, checkId(requireLong(p, "property_id", what + "." + pname), what + "." + pname + " property_id", next, seen));
        }
        types.add(new TypeIdentity(kind, name, typeId, inc, props));
      }
    }
    return new SchemaIr(domain, next, types, obj.deepCopy());
  }

  private static long checkId(long id, String what, long next, Set<Long> seen) throws SchemaException {
    if (id <= 0) {
      throw SchemaException.identity(what + " must be a non-zero id, got " + id);
    }
    if (id >= next) {
      throw SchemaException.identity(what + " " + id + " is not below next_identity_id " + next);
    }
    if (!seen.add(id)) {
      throw SchemaException.identity(what + " " + id + " reuses an id already assigned in this IR");
    }
    return id;
  }

  private static String requireText(JsonNode n, String field, String what) throws SchemaException {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw SchemaException.identity(what + " lacks the string field '" + field + "'");
    }
    return v.asText();
  }

  private static long requireLong(JsonNode n, String field, String what) throws SchemaException {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
      throw SchemaException.identity(what + " lacks the integer field '" + field + "'");
    }
    return v.asLong();
  }

  private static int requireInt(JsonNode n, String field, String what) throws SchemaException {
    long v = requireLong(n, field, what);
    return (int) v;
  }

  // ---- canonical form ---------------------------------------------------------------------

  private static JsonNode stripIdentity(JsonNode n) {
    if (n instanceof ObjectNode o) {
      ObjectNode out = F.objectNode();
      Iterator<Map.Entry<String, JsonNode>> it = o.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!IDENTITY_FIELDS.contains(e.getKey())) {
          out.set(e.getKey(), stripIdentity(e.getValue()));
        }
      }
      return out;
    }
    if (n instanceof ArrayNode a) {
      ArrayNode out = F.arrayNode();
      a.forEach(x -> out.add(stripIdentity(x)));
      return out;
    }
    return n;
  }

  private static String canonical(JsonNode n) {
    try {
      return CANONICAL.writeValueAsString(sortKeys(n));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an in-memory JSON tree always serializes", e);
    }
  }

  private static JsonNode sortKeys(JsonNode n) {
    if (n instanceof ObjectNode o) {
      TreeMap<String, JsonNode> sorted = new TreeMap<>();
      o.fields().forEachRemaining(e -> sorted.put(e.getKey(), sortKeys(e.getValue())));
      ObjectNode out = F.objectNode();
      sorted.forEach(out::set);
      return out;
    }
    if (n instanceof ArrayNode a) {
      ArrayNode out = F.arrayNode();
      a.forEach(x -> out.add(sortKeys(x)));
      return out;
    }
    return n;
  }

  private static String sha256(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return "sha256:" + HexFormat.of().formatHex(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SchemaIr other && canonicalJson().equals(other.canonicalJson());
  }

  @Override
  public int hashCode() {
    return canonicalJson().hashCode();
  }

  @Override
  public String toString() {
    return "SchemaIr[" + identityDomain + ", " + hash() + "]";
  }
}
