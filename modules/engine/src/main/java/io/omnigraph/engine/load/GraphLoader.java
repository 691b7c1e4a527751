package io.omnigraph.engine.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.TableStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;

/**
 * Reads a strict graph-batch NDJSON stream (language.md §3.1) and validates it against a compiled
 * schema and the committed graph, producing per-table rows ready to become Arrow batches. No Lance
 * calls happen here.
 *
 * <p>Line format: {@code {"type":"T","data":{...}}} for nodes, {@code
 * {"edge":"E","from":"<src id>","to":"<dst id>","data":{...}}} for edges; blank lines are
 * skipped. The input is streamed: one line is parsed at a time (Jackson), so memory is bounded by
 * the retained rows, not the input size.
 *
 * <p>Every failure is an {@link InvalidInputException} naming the line and field, with a {@link
 * LoadRule} code; a row-limit overflow is a {@link io.omnigraph.api.ResourceLimitException}.
 * Nothing is partially applied — validation completes before the caller writes anything.
 *
 * <p>Mode semantics handled here: {@code APPEND} and {@code OVERWRITE} reject a repeated id within
 * the load; {@code MERGE} keeps the last row for an id. {@code OVERWRITE} ignores committed rows of
 * the tables it touches (they are being replaced) for referential integrity, uniqueness and
 * cardinality, and refuses to orphan committed edges of untouched edge types.
 *
 * <p>{@code @card} is checked for the sources of the edges in this load (committed + pending
 * count), as in the reference: sources that get no edge are not re-checked, and in merge mode a
 * committed edge whose id is re-loaded with a different {@code from} is not re-counted against its
 * old source.
 */
public final class GraphLoader {
  /** Default maximum bytes of one input line (32 MiB). */
  public static final int DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
  /** Default maximum JSON tokens of one input line (language.md §3.3 structural slots). */
  public static final long DEFAULT_MAX_LINE_TOKENS = 131_072;

  private static final Set<String> RESERVED =
      Set.of("_rowid", "_rowaddr", "_rowoffset", "_row_created_at_version", "_row_last_updated_at_version", "_tombstone");
  private static final Set<String> ENVELOPE = Set.of("type", "edge", "from", "to", "data");
  private static final int MAX_REPORTED_ORPHANS = 1;

  private final CompiledSchema schema;
  private final LoadMode mode;
  private final CommittedGraphView committed;
  private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
  private long maxRowsPerTable = Long.MAX_VALUE;
  private LongConsumer progress = n -> {};
  private long maxLineTokens = DEFAULT_MAX_LINE_TOKENS;
  private ObjectMapper mapper = mapper(DEFAULT_MAX_LINE_TOKENS);
  // A reader bound to JsonNode once, so each line skips the root-deserializer lookup.
  private com.fasterxml.jackson.databind.ObjectReader treeReader = mapper.readerFor(JsonNode.class);

  private static ObjectMapper mapper(long maxTokens) {
    com.fasterxml.jackson.core.JsonFactory factory = com.fasterxml.jackson.core.JsonFactory.builder()
        .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder().maxTokenCount(maxTokens).build())
        .build();
    return new ObjectMapper(factory)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  }

  /**
   * @param schema the accepted schema
   * @param mode append, merge or overwrite
   * @param committed the committed graph state the load is prepared against
   */
  public GraphLoader(CompiledSchema schema, LoadMode mode, CommittedGraphView committed) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.mode = Objects.requireNonNull(mode, "mode");
    this.committed = Objects.requireNonNull(committed, "committed");
  }

  /**
   * @param bytes maximum bytes per line (excluding the newline)
   * @return this
   */
  public GraphLoader maxLineBytes(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive");
    }
    this.maxLineBytes = bytes;
    return this;
  }

  /**
   * @param tokens maximum JSON tokens per line (field names, values, brackets)
   * @return this
   */
  public GraphLoader maxLineTokens(long tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException("maxLineTokens must be positive");
    }
    this.maxLineTokens = tokens;
    this.mapper = mapper(tokens);
    this.treeReader = mapper.readerFor(JsonNode.class);
    return this;
  }

  /**
   * Caps the rows of any one table (the engine passes 8,192 for append and merge). Exceeding it is
   * a {@link io.omnigraph.api.ResourceLimitException} reporting the full observed count; rows past
   * the cap are counted but not retained.
   *
   * @param rows the inclusive cap
   * @return this
   */
  public GraphLoader maxRowsPerTable(long rows) {
    this.maxRowsPerTable = rows;
    return this;
  }

  /**
   * @param listener called with the number of lines read so far, every 1,024 lines and at the end
   * @return this
   */
  public GraphLoader progress(LongConsumer listener) {
    this.progress = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Reads and validates the whole input.
   *
   * @param in NDJSON input (UTF-8); not closed
   * @return the validated rows
   * @throws IOException if reading {@code in} fails
   * @throws InvalidInputException on the first invalid line or cross-row violation
   * @throws io.omnigraph.api.ResourceLimitException if a table exceeds {@link #maxRowsPerTable(long)}
   */
  public ValidatedLoad load(InputStream in) throws IOException {
    Map<String, TableRows> tables = new LinkedHashMap<>();
    Map<String, Long> observed = new HashMap<>();
    LineReader lines = new LineReader(in, maxLineBytes);
    long nonBlank = 0;
    while (lines.next()) {
      if (lines.isBlank()) {
        continue;
      }
      nonBlank++;
      parseLine(lines.buffer(), lines.length(), lines.lineNumber(), tables, observed);
      if (nonBlank % 1024 == 0) {
        progress.accept(nonBlank);
      }
    }
    progress.accept(nonBlank);
    for (Map.Entry<String, Long> e : observed.entrySet()) {
      if (e.getValue() > maxRowsPerTable) {
        throw TableStore.resourceLimit("keyed entities for " + e.getKey(), maxRowsPerTable, e.getValue());
      }
    }
    List<TableRows> ordered = new ArrayList<>();
    for (TableSpec spec : schema.tables()) {
      TableRows t = tables.get(spec.tableKey());
      if (t != null) {
        ordered.add(t);
      }
    }
    validateAcrossRows(ordered);
    return new ValidatedLoad(ordered, nonBlank);
  }

  /** Splits a byte stream into lines without per-byte synchronized reads; enforces the line limit. */
  private static final class LineReader {
    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[1 << 16];
    private int chunkPos;
    private int chunkLen;
    private boolean eof;
    private byte[] line = new byte[1024];
    private int lineLen;
    private long lineNumber;

    LineReader(InputStream in, int maxLineBytes) {
      this.in = in;
      this.maxLineBytes = maxLineBytes;
    }

    /** @return false when the input is exhausted (no further line, not even an empty one) */
    boolean next() throws IOException {
      lineLen = 0;
      if (eof && chunkPos >= chunkLen) {
        return false;
      }
      lineNumber++;
      while (true) {
        if (chunkPos >= chunkLen) {
          chunkLen = in.read(chunk);
          chunkPos = 0;
          if (chunkLen <= 0) {
            chunkLen = 0;
            eof = true;
            return true; // the last line, possibly empty (blank lines are skipped)
          }
        }
        int start = chunkPos;
        int nl = -1;
        for (int i = start; i < chunkLen; i++) {
          if (chunk[i] == '\n') {
            nl = i;
            break;
          }
        }
        int end = nl < 0 ? chunkLen : nl;
        append(start, end - start);
        chunkPos = nl < 0 ? chunkLen : nl + 1;
        if (nl >= 0) {
          return true;
        }
      }
    }

    private void append(int from, int n) {
      if (lineLen + n > maxLineBytes) {
        throw LoadRule.LINE_TOO_LONG.at(lineNumber, null, "line exceeds the maximum of " + maxLineBytes + " bytes");
      }
      if (lineLen + n > line.length) {
        line = Arrays.copyOf(line, Math.max(lineLen + n, Math.min(maxLineBytes, line.length * 2)));
      }
      System.arraycopy(chunk, from, line, lineLen, n);
      lineLen += n;
    }

    boolean isBlank() {
      for (int i = 0; i < lineLen; i++) {
        byte b = line[i];
        if (b != ' ' && b != '\t' && b != '\r') {
          return false;
        }
      }
      return true;
    }

    byte[] buffer() {
      return line;
    }

    int length() {
      return lineLen;
    }

    long lineNumber() {
      return lineNumber;
    }
  }

  // ---- one line ---------------------------------------------------------------------------

  private TableRows.Row parseLine(byte[] bytes, int length, long line, Map<String, TableRows> tables, Map<String, Long> observed) {
    JsonNode root;
    try {
      root = treeReader.readValue(bytes, 0, length);
    } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
      throw LoadRule.TOO_MANY_TOKENS.at(line, null, "line has more than " + maxLineTokens + " JSON tokens");
    } catch (JsonProcessingException e) {
      throw LoadRule.INVALID_JSON.at(line, null, "invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw LoadRule.INVALID_JSON.at(line, null, "invalid JSON: " + e.getMessage());
    }
    if (!(root instanceof ObjectNode obj)) {
      throw LoadRule.INVALID_ENVELOPE.at(line, null, "each line must be one JSON object, got " + Values.describe(root));
    }
    Iterator<String> names = obj.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (RESERVED.contains(n)) {
        throw LoadRule.RESERVED_FIELD.at(line, n, "top-level field '" + n + "' is reserved physical state");
      }
      if (!ENVELOPE.contains(n)) {
        throw LoadRule.INVALID_ENVELOPE.at(line, n, "unknown top-level graph batch field '" + n + "'");
      }
    }
    boolean isNode = obj.has("type");
    boolean isEdge = obj.has("edge");
    if (isNode == isEdge) {
      throw LoadRule.INVALID_ENVELOPE.at(line, null, "a line needs exactly one of 'type' (node) or 'edge'");
    }
    JsonNode data = obj.get("data");
    if (data == null) {
      data = mapper.createObjectNode();
    } else if (!data.isObject()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, "data", "'data' must be an object, got " + Values.describe(data));
    }
    if (isNode) {
      for (String f : List.of("from", "to")) {
        if (obj.has(f)) {
          throw LoadRule.INVALID_ENVELOPE.at(line, f, "node lines do not take '" + f + "'");
        }
      }
      String typeName = requireString(obj, "type", line);
      NodeType node = schema.catalog().node(typeName)
          .orElseThrow(() -> LoadRule.UNKNOWN_NODE_TYPE.at(line, "type", "unknown node type '" + typeName + "'"));
      TableRows rows = tables.computeIfAbsent(node.tableKey(),
          k -> new TableRows(schema.table(k).orElseThrow(), node, null));
      return retain(rows, nodeRow(node, (ObjectNode) data, line), observed);
    }
    String edgeName = requireString(obj, "edge", line);
    EdgeType edge = schema.catalog().edgeIgnoreCase(edgeName)
        .orElseThrow(() -> LoadRule.UNKNOWN_EDGE_TYPE.at(line, "edge", "unknown edge type '" + edgeName + "'"));
    String from = requireString(obj, "from", line);
    String to = requireString(obj, "to", line);
    TableRows rows = tables.computeIfAbsent(edge.tableKey(),
        k -> new TableRows(schema.table(k).orElseThrow(), null, edge));
    return retain(rows, edgeRow(edge, from, to, (ObjectNode) data, line), observed);
  }

  private TableRows.Row retain(TableRows rows, TableRows.Row row, Map<String, Long> observed) {
    TableRows.Row prior = rows.byId(row.id());
    if (prior != null) {
      if (mode != LoadMode.MERGE) {
        throw LoadRule.DUPLICATE_KEY.at(row.line(), "id",
            "duplicate id '" + row.id() + "' for " + rows.spec().tableKey() + " (first at line " + prior.line() + ")");
      }
      rows.replace(row);
      return row;
    }
    long n = observed.merge(rows.spec().tableKey(), 1L, Long::sum);
    if (n > maxRowsPerTable) {
      return null;
    }
    rows.add(row);
    return row;
  }

  private static String requireString(ObjectNode obj, String field, long line) {
    JsonNode v = obj.get(field);
    if (v == null) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "edge lines need '" + field + "'");
    }
    if (!v.isTextual()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "'" + field + "' must be a string, got " + Values.describe(v));
    }
    if (v.asText().isEmpty()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "'" + field + "' must not be empty");
    }
    return v.asText();
  }

  private TableRows.Row nodeRow(NodeType node, ObjectNode data, long line) {
    String owner = node.tableKey();
    checkDataFields(owner, node.properties(), data, line, false);
    List<Object> values = values(owner, node.name(), node.properties(), data, line, node);
    String explicitId = explicitId(data, line);
    String id;
    List<String> keyOrder = keyOrderByType.computeIfAbsent(node.name(), n -> schema.keyOrder(node));
    if (!keyOrder.isEmpty()) {
      List<String> members = new ArrayList<>(keyOrder.size());
      for (String k : keyOrder) {
        int idx = indexOf(node.properties(), k);
        Property p = node.properties().get(idx);
        String rendered = NodeIds.renderMember(p.type(), values.get(idx)).orElseThrow(
            () -> LoadRule.MISSING_KEY.at(line, k, "node " + node.name() + " has a @key value that is not a valid key: '" + k + "'"));
        members.add(rendered);
      }
      id = NodeIds.fromMembers(members);
      if (explicitId != null && !explicitId.equals(id)) {
        throw LoadRule.INVALID_ID.at(line, "id", "explicit id '" + explicitId + "' does not match its canonical @key id '" + id + "'");
      }
    } else {
      id = explicitId != null ? explicitId : Ulid.generate();
    }
    return new TableRows.Row(line, id, null, null, values);
  }

  private TableRows.Row edgeRow(EdgeType edge, String from, String to, ObjectNode data, long line) {
    String owner = edge.tableKey();
    for (String f : List.of("src", "dst")) {
      if (data.has(f)) {
        throw LoadRule.RESERVED_FIELD.at(line, f, "edge data may not contain '" + f + "' (reserved structural state; use 'from'/'to')");
      }
    }
    checkDataFields(owner, edge.properties(), data, line, true);
    List<Object> values = values(owner, edge.name(), edge.properties(), data, line, null);
    String explicitId = explicitId(data, line);
    return new TableRows.Row(line, explicitId != null ? explicitId : Ulid.generate(), from, to, values);
  }

  private static String explicitId(ObjectNode data, long line) {
    JsonNode id = data.get("id");
    if (id == null || id.isNull()) {
      return null;
    }
    if (!id.isTextual() || id.asText().isEmpty()) {
      throw LoadRule.INVALID_ID.at(line, "id", "'id' must be a non-empty string, got " + Values.describe(id));
    }
    return id.asText();
  }

  private static void checkDataFields(String owner, List<Property> props, ObjectNode data, long line, boolean edge) {
    Iterator<String> names = data.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (n.equals("id")) {
        continue;
      }
      if (RESERVED.contains(n)) {
        throw LoadRule.RESERVED_FIELD.at(line, n, "data field '" + n + "' is reserved physical state");
      }
      if (indexOf(props, n) < 0) {
        throw LoadRule.UNKNOWN_FIELD.at(line, n, "unknown input field '" + n + "' for '" + owner + "'");
      }
    }
  }

  private static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private List<Object> values(String owner, String typeName, List<Property> props, ObjectNode data, long line, NodeType node) {
    Set<String> keyMembers = node == null ? Set.of() : keyMembers(node);
    Object[] out = new Object[props.size()];
    for (int i = 0; i < props.size(); i++) {
      Property p = props.get(i);
      JsonNode v = data.get(p.name());
      if (v == null || v.isNull()) {
        if (keyMembers.contains(p.name())) {
          throw LoadRule.MISSING_KEY.at(line, p.name(), "node " + typeName + " is missing a non-null @key value ('" + p.name() + "')");
        }
        if (!p.nullable()) {
          throw LoadRule.NULL_VALUE.at(line, p.name(), "non-nullable property '" + p.name() + "' has null or invalid values");
        }
        continue;
      }
      out[i] = Values.fromJson(owner, p, v, line);
    }
    if (node != null) {
      for (Constraint c : node.constraints()) {
        if (c instanceof Constraint.Range r) {
          int idx = indexOf(props, r.field());
          if (out[idx] != null) {
            String violation = Values.rangeViolation(r, props.get(idx).type(), out[idx]);
            if (violation != null) {
              throw LoadRule.RANGE_VIOLATION.at(line, r.field(), "@range violation on " + typeName + "." + r.field() + ": " + violation);
            }
          }
        } else if (c instanceof Constraint.Check ch) {
          int idx = indexOf(props, ch.field());
          if (out[idx] != null && !pattern(ch).matcher((String) out[idx]).find()) {
            throw LoadRule.CHECK_VIOLATION.at(line, ch.field(),
                "@check violation on " + typeName + "." + ch.field() + ": value '" + out[idx] + "' does not match pattern '" + ch.pattern() + "'");
          }
        }
      }
    }
    return Arrays.asList(out);
  }

  private final Map<Constraint.Check, Pattern> patterns = new HashMap<>();
  private final Map<String, Set<String>> keyMembersByType = new HashMap<>();
  private final Map<String, List<String>> keyOrderByType = new HashMap<>();

  private Set<String> keyMembers(NodeType node) {
    return keyMembersByType.computeIfAbsent(node.name(),
        n -> node.key().map(k -> (Set<String>) new HashSet<>(k.fields())).orElse(Set.of()));
  }

  private Pattern pattern(Constraint.Check c) {
    return patterns.computeIfAbsent(c, Constraint.Check::compiled);
  }

  // ---- cross-row checks -------------------------------------------------------------------

  private void validateAcrossRows(List<TableRows> tables) {
    Map<String, TableRows> byKey = new LinkedHashMap<>();
    tables.forEach(t -> byKey.put(t.spec().tableKey(), t));
    for (TableRows t : tables) {
      checkUnique(t);
    }
    for (TableRows t : tables) {
      if (t.isEdge()) {
        checkEndpoints(t, byKey);
      }
    }
    if (mode == LoadMode.OVERWRITE) {
      checkOrphans(byKey);
    }
    for (TableRows t : tables) {
      if (t.isEdge() && !t.edgeType().cardinality().isUnbounded()) {
        checkCardinality(t);
      }
    }
  }

  private boolean replacesCommitted(String tableKey, Map<String, TableRows> byKey) {
    return mode == LoadMode.OVERWRITE && byKey.containsKey(tableKey);
  }

  private void checkUnique(TableRows t) {
    List<Constraint> constraints = t.isEdge() ? t.edgeType().constraints() : t.nodeType().constraints();
    for (Constraint c : constraints) {
      if (!(c instanceof Constraint.Unique u)) {
        continue;
      }
      Map<List<Object>, TableRows.Row> holders = new HashMap<>();
      int[] columns = columnIndexes(t, u.fields());
      for (TableRows.Row row : t.rows()) {
        List<Object> tuple = tuple(row, columns);
        if (tuple == null) {
          continue;
        }
        TableRows.Row prior = holders.putIfAbsent(tuple, row);
        if (prior != null && !prior.id().equals(row.id())) {
          throw uniqueViolation(t, u, tuple, prior.id(), row);
        }
      }
      if (mode == LoadMode.OVERWRITE || holders.isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> found = committed.uniqueHolders(t.spec().tableKey(), u.fields(), holders.keySet());
      for (Map.Entry<List<Object>, Set<String>> e : found.entrySet()) {
        TableRows.Row row = holders.get(e.getKey());
        for (String holder : e.getValue()) {
          // A committed holder that this load rewrites is judged by its new values above.
          if (row != null && !holder.equals(row.id()) && !t.containsId(holder)) {
            throw uniqueViolation(t, u, e.getKey(), holder, row);
          }
        }
      }
    }
  }

  private InvalidInputException uniqueViolation(TableRows t, Constraint.Unique u, List<Object> tuple, String first, TableRows.Row row) {
    String type = t.isEdge() ? t.edgeType().name() : t.nodeType().name();
    return LoadRule.UNIQUE_VIOLATION.at(row.line(), String.join(",", u.fields()),
        "@unique violation on " + type + "." + String.join(",", u.fields()) + ": value '" + render(tuple) + "' held by '" + first + "' and '" + row.id() + "'");
  }

  private static String render(List<Object> tuple) {
    List<String> parts = new ArrayList<>();
    for (Object o : tuple) {
      parts.add(o instanceof float[] f ? Arrays.toString(f) : String.valueOf(o));
    }
    return parts.size() == 1 ? parts.get(0) : parts.toString();
  }

  /** Column positions: -1 = src, -2 = dst, otherwise the property index. */
  private static int[] columnIndexes(TableRows t, List<String> fields) {
    int[] out = new int[fields.size()];
    for (int i = 0; i < out.length; i++) {
      String f = fields.get(i);
      out[i] = t.isEdge() && f.equals("src") ? -1 : t.isEdge() && f.equals("dst") ? -2 : indexOf(t.properties(), f);
    }
    return out;
  }

  /** @return the tuple of the row's values at these columns, or null if any member is null */
  private static List<Object> tuple(TableRows.Row row, int[] columns) {
    List<Object> values = row.values();
    for (int c : columns) {
      if ((c == -1 ? row.src() : c == -2 ? row.dst() : values.get(c)) == null) {
        return null;
      }
    }
    List<Object> tuple = new ArrayList<>(columns.length);
    for (int c : columns) {
      Object v = c == -1 ? row.src() : c == -2 ? row.dst() : values.get(c);
      tuple.add(v instanceof float[] fl ? floatList(fl) : v);
    }
    return tuple;
  }

  private static List<Float> floatList(float[] f) {
    List<Float> l = new ArrayList<>(f.length);
    for (float x : f) {
      l.add(x);
    }
    return l;
  }

  private void checkEndpoints(TableRows edges, Map<String, TableRows> byKey) {
    EdgeType e = edges.edgeType();
    checkEndpoint(edges, byKey, e.fromType(), true);
    checkEndpoint(edges, byKey, e.toType(), false);
  }

  private void checkEndpoint(TableRows edges, Map<String, TableRows> byKey, String nodeType, boolean src) {
    String nodeKey = "node:" + nodeType;
    TableRows pending = byKey.get(nodeKey);
    Set<String> unresolved = new LinkedHashSet<>();
    for (TableRows.Row r : edges.rows()) {
      String id = src ? r.src() : r.dst();
      if (pending == null || !pending.containsId(id)) {
        unresolved.add(id);
      }
    }
    if (unresolved.isEmpty()) {
      return;
    }
    Set<String> existing = replacesCommitted(nodeKey, byKey) ? Set.of() : committed.existingNodeIds(nodeType, unresolved);
    for (TableRows.Row r : edges.rows()) {
      String id = src ? r.src() : r.dst();
      if (unresolved.contains(id) && !existing.contains(id)) {
        throw LoadRule.DANGLING_EDGE.at(r.line(), src ? "from" : "to",
            (src ? "src" : "dst") + " '" + id + "' not found in " + nodeType);
      }
    }
  }

  private void checkOrphans(Map<String, TableRows> byKey) {
    for (TableRows nodes : byKey.values()) {
      if (nodes.isEdge()) {
        continue;
      }
      String nodeType = nodes.nodeType().name();
      Set<String> surviving = nodes.idSet();
      for (EdgeType e : schema.catalog().edges()) {
        if (byKey.containsKey(e.tableKey())) {
          continue; // replaced in this load; its new rows were checked above
        }
        for (String column : List.of("src", "dst")) {
          String endpointType = column.equals("src") ? e.fromType() : e.toType();
          if (!endpointType.equals(nodeType)) {
            continue;
          }
          List<String[]> orphans = committed.orphanedEdges(e.name(), column, surviving, MAX_REPORTED_ORPHANS);
          if (!orphans.isEmpty()) {
            String[] o = orphans.get(0);
            throw LoadRule.DANGLING_EDGE.at(nodes.rows().isEmpty() ? 0 : nodes.rows().get(0).line(), column,
                "overwrite of " + nodes.spec().tableKey() + " would orphan committed edge " + e.name() + " '" + o[0] + "': "
                    + column + " '" + o[1] + "' not found in " + nodeType);
          }
        }
      }
    }
  }

  private void checkCardinality(TableRows edges) {
    EdgeType e = edges.edgeType();
    Map<String, Long> pendingCount = new LinkedHashMap<>();
    Map<String, Long> lastLine = new HashMap<>();
    for (TableRows.Row r : edges.rows()) {
      pendingCount.merge(r.src(), 1L, Long::sum);
      lastLine.put(r.src(), r.line());
    }
    Map<String, Long> committedCount = mode == LoadMode.OVERWRITE
        ? Map.of()
        : committed.outgoingEdgeCounts(e.name(), pendingCount.keySet(), edges.idSet());
    for (Map.Entry<String, Long> s : pendingCount.entrySet()) {
      long count = s.getValue() + committedCount.getOrDefault(s.getKey(), 0L);
      if (!e.cardinality().admits(count)) {
        String bound = count < e.cardinality().min()
            ? "min " + e.cardinality().min()
            : "max " + e.cardinality().max().getAsLong();
        throw LoadRule.CARDINALITY_VIOLATION.at(lastLine.get(s.getKey()), "from",
            "@card violation on edge " + e.name() + ": source '" + s.getKey() + "' has " + count + " edges (" + bound + ")");
      }
    }
  }
}
