package io.omnigraph.engine.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
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
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.WriteErrors;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
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
import java.util.Optional;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Reads a strict graph-batch NDJSON stream (language.md §3.1) and validates it against a compiled
 * schema and the committed graph, writing the rows straight into per-table Arrow vectors ({@link
 * TableRows}). No Lance calls happen here; with a {@link BatchSink} (overwrite only) full batches are
 * handed out while reading so memory stays bounded.
 *
 * <p>Line format: {@code {"type":"T","data":{...}}} for nodes, {@code
 * {"edge":"E","from":"<src id>","to":"<dst id>","data":{...}}} for edges; blank lines are
 * skipped. Each line is read with Jackson's streaming parser and its values are checked as they
 * are written into the vectors; a line that does not pass this fast path (any error, or a rare
 * shape such as {@code data} before {@code type}) is re-read by the exact tree path, which
 * reports the same error, with the same precedence, as a whole-line check would, or writes the
 * row if it is valid after all. No per-row maps or boxed rows are kept: ids, lines and edge
 * endpoints are held in compact arenas for the cross-row checks.
 *
 * <p>Every failure is an {@link InvalidInputException} naming the line and field, with a {@link
 * LoadRule} code; a row-limit overflow is a {@link io.omnigraph.api.ResourceLimitException}.
 * Nothing is published by the loader: validation completes before the caller commits anything.
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
  private BufferAllocator allocator;
  private BatchSink sink;
  private int sinkRows;
  private final Map<String, TableRows> tables = new HashMap<>();
  private final Map<String, FastShape> nodeShapes = new HashMap<>();
  private final Map<String, FastShape> edgeShapes = new HashMap<>();
  private boolean exactOnly;
  private long exactLines;
  // The fast path's parser: one non-blocking parser fed line by line, so a line costs no parser
  // creation. It counts tokens without a limit (the per-line limit is checked per line) and is
  // replaced whenever a line leaves it mid-document (declined, malformed or incomplete).
  private static final JsonFactory FAST_FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxTokenCount(Long.MAX_VALUE).build())
      .build();
  private JsonParser lineParser;
  private ByteArrayFeeder lineFeeder;
  private long lineParserFed; // bytes fed to lineParser before the current line

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
   * @param allocator where the tables' Arrow vectors are allocated (default: an allocator owned by
   *     the returned {@link ValidatedLoad})
   * @return this
   */
  public GraphLoader allocator(BufferAllocator allocator) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    return this;
  }

  /**
   * Streams full batches of {@code rowsPerBatch} rows (or 16 MiB) to {@code sink} while reading,
   * and the last partial batch of each table after every check has passed; the tables of the
   * result then hold ids and lines only. Only for {@code OVERWRITE} loads, whose rows are never
   * replaced within the load.
   *
   * @param sink receives each batch synchronously
   * @param rowsPerBatch rows per streamed batch (at least 1)
   * @return this
   */
  public GraphLoader batchSink(BatchSink sink, int rowsPerBatch) {
    if (mode != LoadMode.OVERWRITE) {
      throw new IllegalStateException("only overwrite loads stream batches, not " + mode);
    }
    if (rowsPerBatch < 1) {
      throw new IllegalArgumentException("rowsPerBatch must be positive");
    }
    this.sink = Objects.requireNonNull(sink, "sink");
    this.sinkRows = rowsPerBatch;
    return this;
  }

  /** Test hook: read every line with the exact (tree) path, to compare it with the fast path. */
  GraphLoader exactOnly() {
    this.exactOnly = true;
    return this;
  }

  /** @return lines the last {@link #load} read with the exact path (declined by the fast path) */
  long exactLines() {
    return exactLines;
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
    BufferAllocator owned = allocator == null ? new RootAllocator() : null;
    BufferAllocator alloc = allocator == null ? owned : allocator;
    try {
      LineReader lines = new LineReader(in, maxLineBytes);
      long nonBlank = 0;
      while (lines.next()) {
        if (lines.isBlank()) {
          continue;
        }
        nonBlank++;
        if (exactOnly || !fastLine(lines.buffer(), lines.length(), lines.lineNumber(), alloc)) {
          exactLines++;
          exactLine(lines.buffer(), lines.length(), lines.lineNumber(), alloc);
        }
        if (nonBlank % 1024 == 0) {
          progress.accept(nonBlank);
        }
      }
      progress.accept(nonBlank);
      Map<String, Long> observed = new HashMap<>();
      for (Map.Entry<String, TableRows> e : tables.entrySet()) {
        observed.put(e.getKey(), e.getValue().observed());
      }
      for (Map.Entry<String, Long> e : observed.entrySet()) {
        if (e.getValue() > maxRowsPerTable) {
          throw WriteErrors.resourceLimit("keyed entities for " + e.getKey(), maxRowsPerTable, e.getValue());
        }
      }
      List<TableRows> ordered = new ArrayList<>();
      for (TableSpec spec : schema.tables()) {
        TableRows t = tables.get(spec.tableKey());
        if (t != null) {
          t.finishReading();
          ordered.add(t);
        }
      }
      validateAcrossRows(ordered);
      for (TableRows t : ordered) {
        t.flushRest();
      }
      return new ValidatedLoad(ordered, nonBlank, owned);
    } catch (RuntimeException | IOException | Error e) {
      tables.values().forEach(TableRows::close);
      if (owned != null) {
        owned.close();
      }
      throw e;
    } finally {
      tables.clear();
      dropLineParser();
    }
  }

  private JsonParser lineParser() throws IOException {
    if (lineParser == null) {
      lineParser = FAST_FACTORY.createNonBlockingByteArrayParser();
      lineFeeder = (ByteArrayFeeder) lineParser.getNonBlockingInputFeeder();
      lineParserFed = 0;
    }
    return lineParser;
  }

  private void dropLineParser() {
    if (lineParser != null) {
      try {
        lineParser.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("closing the line parser of a byte array failed", e);
      }
      lineParser = null;
      lineFeeder = null;
    }
  }

  /**
   * After the root object's closing brace: consumes the rest of the line if it is only JSON
   * whitespace, leaving the parser between documents for the next line.
   *
   * @return false if anything else follows the object on the line (the parser is then unusable)
   */
  private boolean restIsWhitespace(JsonParser p, byte[] bytes, int length) throws IOException {
    long end = p.currentLocation().getByteOffset() - lineParserFed;
    if (end < 0 || end > length) {
      return false;
    }
    for (int i = (int) end; i < length; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return p.nextToken() == JsonToken.NOT_AVAILABLE;
  }

  private TableRows table(String tableKey, NodeType node, EdgeType edge, BufferAllocator alloc) {
    TableRows t = tables.get(tableKey);
    if (t == null) {
      t = new TableRows(schema.table(tableKey).orElseThrow(), node, edge, alloc, sink, sinkRows);
      tables.put(tableKey, t);
    }
    return t;
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

  /**
   * The exact path: parses the whole line into a tree and checks it in the documented order, so a
   * line with several problems reports the first one. Used for every line the fast path declines.
   */
  private void exactLine(byte[] bytes, int length, long line, BufferAllocator alloc) {
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
      TableRows.Row row = nodeRow(node, (ObjectNode) data, line);
      write(table(node.tableKey(), node, null, alloc), row);
      return;
    }
    String edgeName = requireString(obj, "edge", line);
    EdgeType edge = schema.catalog().edgeIgnoreCase(edgeName)
        .orElseThrow(() -> LoadRule.UNKNOWN_EDGE_TYPE.at(line, "edge", "unknown edge type '" + edgeName + "'"));
    String from = requireString(obj, "from", line);
    String to = requireString(obj, "to", line);
    TableRows.Row row = edgeRow(edge, from, to, (ObjectNode) data, line);
    write(table(edge.tableKey(), null, edge, alloc), row);
  }

  private void write(TableRows t, TableRows.Row row) {
    int slot = t.slot();
    List<Property> props = t.properties();
    for (int p = 0; p < props.size(); p++) {
      ArrowRows.setValue(t.column(p), props.get(p).type(), slot, row.values().get(p));
    }
    t.commit(row.line(), row.id(), row.src(), row.dst(), mode, maxRowsPerTable);
  }

  // ---- the fast path ----------------------------------------------------------------------

  /** What the fast path needs to know about one node or edge type, computed once per load. */
  private final class FastShape {
    final NodeType node;
    final EdgeType edge;
    final String tableKey;
    final List<Property> props;
    final PropertyType[] types;
    final ScalarKind[] kinds; // scalar kind, list item kind, F32 for vectors, STRING for enums
    final Set<String>[] enumValues;
    final Map<String, Integer> index = new HashMap<>();
    final boolean[] keyMember;
    final boolean[] keep;
    final int[] keyOrder; // property indexes in key order; empty without @key
    final List<Constraint> rowChecks = new ArrayList<>(); // @range and @check, in declaration order
    final int[] rowCheckIndex;
    final boolean eligible; // false: a property name the envelope treats specially; use the exact path
    // per-row state
    final boolean[] seen;
    final Object[] kept;
    String explicitId;
    boolean explicitIdSeen;

    @SuppressWarnings("unchecked")
    FastShape(NodeType node, EdgeType edge) {
      this.node = node;
      this.edge = edge;
      this.tableKey = node != null ? node.tableKey() : edge.tableKey();
      this.props = node != null ? node.properties() : edge.properties();
      int n = props.size();
      types = new PropertyType[n];
      kinds = new ScalarKind[n];
      enumValues = new Set[n];
      keyMember = new boolean[n];
      keep = new boolean[n];
      seen = new boolean[n];
      kept = new Object[n];
      boolean ok = true;
      Set<String> members = node == null ? Set.of() : keyMembers(node);
      for (int i = 0; i < n; i++) {
        Property p = props.get(i);
        String name = p.name();
        if (name.equals("id") || RESERVED.contains(name) || (edge != null && (name.equals("src") || name.equals("dst")))) {
          ok = false;
        }
        index.put(name, i);
        types[i] = p.type();
        if (p.type() instanceof PropertyType.Scalar sc) {
          kinds[i] = sc.kind();
        } else if (p.type() instanceof PropertyType.ListOf l) {
          kinds[i] = l.item();
        } else if (p.type() instanceof PropertyType.VectorOf) {
          kinds[i] = ScalarKind.F32;
        } else {
          kinds[i] = ScalarKind.STRING;
          enumValues[i] = new HashSet<>(((PropertyType.EnumOf) p.type()).values());
        }
        if (members.contains(name)) {
          keyMember[i] = true;
          keep[i] = true;
        }
      }
      List<String> order = node == null ? List.of() : keyOrderByType.computeIfAbsent(node.name(), x -> schema.keyOrder(node));
      keyOrder = new int[order.size()];
      for (int i = 0; i < keyOrder.length; i++) {
        keyOrder[i] = index.get(order.get(i));
      }
      List<Integer> checkIdx = new ArrayList<>();
      if (node != null) {
        for (Constraint c : node.constraints()) {
          String field = c instanceof Constraint.Range r ? r.field() : c instanceof Constraint.Check ch ? ch.field() : null;
          if (field != null) {
            int idx = indexOf(props, field);
            rowChecks.add(c);
            checkIdx.add(idx);
            keep[idx] = true;
          }
        }
      }
      rowCheckIndex = checkIdx.stream().mapToInt(Integer::intValue).toArray();
      eligible = ok;
    }

    void beginRow() {
      Arrays.fill(seen, false);
      Arrays.fill(kept, null);
      explicitId = null;
      explicitIdSeen = false;
    }
  }

  private FastShape nodeShape(String typeName) {
    FastShape s = nodeShapes.get(typeName);
    if (s == null) {
      Optional<NodeType> node = schema.catalog().node(typeName);
      if (node.isEmpty()) {
        return null;
      }
      s = new FastShape(node.get(), null);
      nodeShapes.put(typeName, s);
    }
    return s.eligible ? s : null;
  }

  private FastShape edgeShape(String edgeName) {
    FastShape s = edgeShapes.get(edgeName);
    if (s == null) {
      Optional<EdgeType> edge = schema.catalog().edgeIgnoreCase(edgeName);
      if (edge.isEmpty()) {
        return null;
      }
      s = new FastShape(null, edge.get());
      edgeShapes.put(edgeName, s);
    }
    return s.eligible ? s : null;
  }

  private static final int SEEN_TYPE = 1;
  private static final int SEEN_EDGE = 2;
  private static final int SEEN_FROM = 4;
  private static final int SEEN_TO = 8;
  private static final int SEEN_DATA = 16;

  /**
   * Streams one line straight into its table's vectors. Throws nothing for a bad line: it returns
   * false (the row slot is left unkept) and the exact path reports the error. The only failure it
   * raises itself is a cross-row one (duplicate id), after the line has fully passed.
   *
   * @return true if the line was valid and kept (or counted past the row cap)
   */
  private boolean fastLine(byte[] bytes, int length, long line, BufferAllocator alloc) throws IOException {
    JsonParser p = lineParser();
    lineFeeder.feedInput(bytes, 0, length);
    long tokensBefore = p.currentTokenCount();
    boolean betweenDocuments = false; // true once the whole line is consumed and the parser reusable
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      FastShape shape = null;
      TableRows t = null;
      String from = null;
      String to = null;
      int seen = 0;
      JsonToken tok;
      while ((tok = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        int bit;
        switch (name) {
          case "type" -> {
            bit = SEEN_TYPE;
            if (p.nextToken() != JsonToken.VALUE_STRING || (shape = nodeShape(p.getText())) == null) {
              return false;
            }
          }
          case "edge" -> {
            bit = SEEN_EDGE;
            if (p.nextToken() != JsonToken.VALUE_STRING || (shape = edgeShape(p.getText())) == null) {
              return false;
            }
          }
          case "from" -> {
            bit = SEEN_FROM;
            if (p.nextToken() != JsonToken.VALUE_STRING || (from = p.getText()).isEmpty()) {
              return false;
            }
          }
          case "to" -> {
            bit = SEEN_TO;
            if (p.nextToken() != JsonToken.VALUE_STRING || (to = p.getText()).isEmpty()) {
              return false;
            }
          }
          case "data" -> {
            bit = SEEN_DATA;
            if (shape == null || (seen & SEEN_DATA) != 0 || p.nextToken() != JsonToken.START_OBJECT) {
              return false;
            }
            t = table(shape.tableKey, shape.node, shape.edge, alloc);
            shape.beginRow();
            if (!fastData(p, shape, t, t.slot())) {
              return false;
            }
          }
          default -> {
            return false;
          }
        }
        if ((seen & bit) != 0) {
          return false;
        }
        seen |= bit;
      }
      if (tok != JsonToken.END_OBJECT || !restIsWhitespace(p, bytes, length)) {
        return false;
      }
      betweenDocuments = true;
      lineParserFed += length;
      if (p.currentTokenCount() - tokensBefore > maxLineTokens) {
        return false; // the exact path reports too_many_tokens
      }
      boolean isNode = (seen & SEEN_TYPE) != 0;
      boolean isEdge = (seen & SEEN_EDGE) != 0;
      if (isNode == isEdge) {
        return false;
      }
      if (isNode ? (seen & (SEEN_FROM | SEEN_TO)) != 0 : (seen & (SEEN_FROM | SEEN_TO)) != (SEEN_FROM | SEEN_TO)) {
        return false;
      }
      if (shape.edge != null != isEdge) {
        return false;
      }
      if (t == null || !shape.tableKey.equals(t.spec().tableKey())) {
        if ((seen & SEEN_DATA) != 0) {
          return false; // data was read for another type than the one that finally applies
        }
        t = table(shape.tableKey, shape.node, shape.edge, alloc);
        shape.beginRow();
        t.slot();
      }
      return finishRow(shape, t, t.slot(), line, from, to);
    } catch (JsonProcessingException e) {
      return false;
    } finally {
      if (!betweenDocuments) {
        dropLineParser();
      }
    }
  }

  private boolean fastData(JsonParser p, FastShape s, TableRows t, int slot) throws IOException {
    JsonToken tok;
    while ((tok = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      Integer idx = s.index.get(name);
      if (idx == null) {
        if (!name.equals("id") || s.explicitIdSeen) {
          return false;
        }
        s.explicitIdSeen = true;
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_STRING) {
          String id = p.getText();
          if (id.isEmpty()) {
            return false;
          }
          s.explicitId = id;
        } else if (v != JsonToken.VALUE_NULL) {
          return false;
        }
        continue;
      }
      int i = idx;
      if (s.seen[i]) {
        return false;
      }
      s.seen[i] = true;
      if (!fastValue(p, p.nextToken(), s, i, t.column(i), slot)) {
        return false;
      }
    }
    return tok == JsonToken.END_OBJECT;
  }

  /** Converts and writes one property value; false when the exact path must decide. */
  private boolean fastValue(JsonParser p, JsonToken tok, FastShape s, int i, FieldVector v, int slot) throws IOException {
    if (tok == JsonToken.VALUE_NULL) {
      if (s.keyMember[i] || !s.props.get(i).nullable()) {
        return false;
      }
      ArrowRows.setNullCell(v, slot);
      return true;
    }
    PropertyType type = s.types[i];
    if (type instanceof PropertyType.VectorOf vec) {
      if (tok != JsonToken.START_ARRAY) {
        return false;
      }
      FixedSizeListVector f = (FixedSizeListVector) v;
      Float4Vector data = (Float4Vector) f.getDataVector();
      int start = f.startNewValue(slot);
      int k = 0;
      float[] keptVec = s.keep[i] ? new float[vec.dimension()] : null;
      for (JsonToken item = p.nextToken(); item != JsonToken.END_ARRAY; item = p.nextToken()) {
        if (k >= vec.dimension() || !number(p, item, ScalarKind.F32)) {
          return false;
        }
        data.setSafe(start + k, numF);
        if (keptVec != null) {
          keptVec[k] = numF;
        }
        k++;
      }
      if (k != vec.dimension()) {
        return false;
      }
      s.kept[i] = keptVec;
      return true;
    }
    if (type instanceof PropertyType.ListOf) {
      if (tok != JsonToken.START_ARRAY) {
        return false;
      }
      ListVector l = (ListVector) v;
      FieldVector data = l.getDataVector();
      int start = l.startNewValue(slot);
      int k = 0;
      for (JsonToken item = p.nextToken(); item != JsonToken.END_ARRAY; item = p.nextToken()) {
        if (!scalar(p, item, s.kinds[i], data, start + k)) {
          return false;
        }
        k++;
      }
      l.endValue(slot, k);
      return true; // list members are never keys or row-checked
    }
    if (s.enumValues[i] != null) {
      if (tok != JsonToken.VALUE_STRING) {
        return false;
      }
      String text = p.getText();
      if (!s.enumValues[i].contains(text)) {
        return false;
      }
      ((VarCharVector) v).setSafe(slot, text.getBytes(StandardCharsets.UTF_8));
      if (s.keep[i]) {
        s.kept[i] = text;
      }
      return true;
    }
    keepNext = s.keep[i];
    boolean ok = scalar(p, tok, s.kinds[i], v, slot);
    keepNext = true;
    if (!ok) {
      return false;
    }
    if (s.keep[i]) {
      s.kept[i] = keptScalar;
    }
    return true;
  }

  // Results of number() / scalar(), to avoid boxing on the hot path.
  private float numF;
  private double numD;
  private Object keptScalar;
  private boolean keepNext = true; // false: scalar() need not produce keptScalar for STRING
  private byte[] utf8 = new byte[256];

  /**
   * Encodes chars as String.getBytes(UTF_8) does (an unpaired surrogate becomes '?') into {@link #utf8}.
   *
   * @return the byte length
   */
  private int utf8(char[] c, int off, int len) {
    if (utf8.length < len * 3) {
      utf8 = new byte[Math.max(len * 3, utf8.length * 2)];
    }
    byte[] out = utf8;
    int o = 0;
    int end = off + len;
    for (int i = off; i < end; i++) {
      char ch = c[i];
      if (ch < 0x80) {
        out[o++] = (byte) ch;
      } else if (ch < 0x800) {
        out[o++] = (byte) (0xc0 | (ch >> 6));
        out[o++] = (byte) (0x80 | (ch & 0x3f));
      } else if (Character.isSurrogate(ch)) {
        if (Character.isHighSurrogate(ch) && i + 1 < end && Character.isLowSurrogate(c[i + 1])) {
          int cp = Character.toCodePoint(ch, c[++i]);
          out[o++] = (byte) (0xf0 | (cp >> 18));
          out[o++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          out[o++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          out[o++] = (byte) (0x80 | (cp & 0x3f));
        } else {
          out[o++] = (byte) '?';
        }
      } else {
        out[o++] = (byte) (0xe0 | (ch >> 12));
        out[o++] = (byte) (0x80 | ((ch >> 6) & 0x3f));
        out[o++] = (byte) (0x80 | (ch & 0x3f));
      }
    }
    return o;
  }

  /**
   * Reads a float value the way the exact path does (decimal text rounded once to the stored width,
   * integers through double, the NaN/Infinity strings), refusing non-finite results of numbers.
   */
  private boolean number(JsonParser p, JsonToken tok, ScalarKind k) throws IOException {
    double d;
    float f;
    if (tok == JsonToken.VALUE_NUMBER_FLOAT) {
      if (shortDecimal(p.getTextCharacters(), p.getTextOffset(), p.getTextLength())) {
        // Exact operands and one rounding: the correctly rounded value, as BigDecimal gives it.
        d = decimalMantissa / DOUBLE_POW10[decimalScale];
        if (k != ScalarKind.F32) {
          f = (float) d; // unused
        } else if (decimalMantissa < (1L << 22) && decimalScale < FLOAT_POW10.length) {
          f = (float) decimalMantissa / FLOAT_POW10[decimalScale];
        } else {
          f = Math.abs(new BigDecimal(p.getText()).floatValue());
        }
        if (decimalNegative) {
          d = -d;
          f = -f;
        }
        if (decimalMantissa == 0) {
          d = 0.0; // BigDecimal has no negative zero
          f = 0.0f;
        }
      } else {
        BigDecimal b = new BigDecimal(p.getText());
        d = b.doubleValue();
        f = k == ScalarKind.F32 ? b.floatValue() : (float) d;
      }
      if (Double.isInfinite(d) || (k == ScalarKind.F32 && Float.isInfinite(f))) {
        return false;
      }
    } else if (tok == JsonToken.VALUE_NUMBER_INT) {
      JsonParser.NumberType nt = p.getNumberType();
      d = nt == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue().doubleValue() : (double) p.getLongValue();
      f = (float) d;
      if (Double.isInfinite(d) || (k == ScalarKind.F32 && Float.isInfinite(f))) {
        return false;
      }
    } else if (tok == JsonToken.VALUE_STRING) {
      String text = p.getText();
      if (!text.equals("NaN") && !text.equals("Infinity") && !text.equals("-Infinity")) {
        return false;
      }
      d = Double.parseDouble(text);
      f = (float) d;
    } else {
      return false;
    }
    numD = d;
    numF = f;
    return true;
  }

  private static final double[] DOUBLE_POW10 = {
      1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
      1e20, 1e21, 1e22};
  private static final float[] FLOAT_POW10 = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
  private long decimalMantissa;
  private int decimalScale;
  private boolean decimalNegative;

  /**
   * Parses a JSON number without exponent whose digits fit 2^53 and whose scale is at most 22 (so
   * mantissa and power of ten are exact doubles); anything else is left to BigDecimal.
   */
  private boolean shortDecimal(char[] c, int off, int len) {
    int i = off;
    int end = off + len;
    boolean neg = false;
    if (i < end && c[i] == '-') {
      neg = true;
      i++;
    }
    long m = 0;
    int scale = -1;
    int digits = 0;
    for (; i < end; i++) {
      char ch = c[i];
      if (ch >= '0' && ch <= '9') {
        if (m != 0 || ch != '0') {
          digits++;
        }
        if (digits > 15) {
          return false;
        }
        m = m * 10 + (ch - '0');
        if (scale >= 0) {
          scale++;
        }
      } else if (ch == '.' && scale < 0) {
        scale = 0;
      } else {
        return false; // exponent
      }
    }
    if (scale < 0) {
      scale = 0;
    }
    if (scale >= DOUBLE_POW10.length) {
      return false;
    }
    decimalMantissa = m;
    decimalScale = scale;
    decimalNegative = neg;
    return true;
  }

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  /** Converts one scalar token of kind {@code k} and writes it at {@code slot}; false to decline. */
  private boolean scalar(JsonParser p, JsonToken tok, ScalarKind k, FieldVector v, int slot) throws IOException {
    switch (k) {
      case STRING -> {
        if (tok != JsonToken.VALUE_STRING) {
          return false;
        }
        if (keepNext) {
          String text = p.getText();
          ((VarCharVector) v).setSafe(slot, text.getBytes(StandardCharsets.UTF_8));
          keptScalar = text;
        } else {
          int n = utf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
          ((VarCharVector) v).setSafe(slot, utf8, 0, n);
        }
        return true;
      }
      case BOOL -> {
        if (tok != JsonToken.VALUE_TRUE && tok != JsonToken.VALUE_FALSE) {
          return false;
        }
        boolean b = tok == JsonToken.VALUE_TRUE;
        ((BitVector) v).setSafe(slot, b ? 1 : 0);
        keptScalar = b;
        return true;
      }
      case I32, I64, U32, U64 -> {
        if (tok != JsonToken.VALUE_NUMBER_INT) {
          return false;
        }
        long x;
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          BigInteger b = p.getBigIntegerValue();
          if (k != ScalarKind.U64 || b.signum() < 0 || b.compareTo(U64_MAX) > 0) {
            return false;
          }
          x = b.longValue();
        } else {
          x = p.getLongValue();
          boolean fits = switch (k) {
            case I32 -> x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE;
            case U32 -> x >= 0 && x <= 0xffff_ffffL;
            case U64 -> x >= 0;
            default -> true;
          };
          if (!fits) {
            return false;
          }
        }
        switch (k) {
          case I32 -> {
            ((IntVector) v).setSafe(slot, (int) x);
            keptScalar = (int) x;
          }
          case I64 -> {
            ((BigIntVector) v).setSafe(slot, x);
            keptScalar = x;
          }
          case U32 -> {
            ((UInt4Vector) v).setSafe(slot, (int) x);
            keptScalar = x;
          }
          default -> {
            ((UInt8Vector) v).setSafe(slot, x);
            keptScalar = x;
          }
        }
        return true;
      }
      case F32 -> {
        if (!number(p, tok, k)) {
          return false;
        }
        ((Float4Vector) v).setSafe(slot, numF);
        keptScalar = numF;
        return true;
      }
      case F64 -> {
        if (!number(p, tok, k)) {
          return false;
        }
        ((Float8Vector) v).setSafe(slot, numD);
        keptScalar = numD;
        return true;
      }
      case DATE -> {
        int day;
        if (tok == JsonToken.VALUE_NUMBER_INT) {
          if (p.getNumberType() != JsonParser.NumberType.INT) {
            return false;
          }
          day = p.getIntValue();
        } else if (tok == JsonToken.VALUE_STRING) {
          try {
            day = Math.toIntExact(java.time.LocalDate.parse(p.getText()).toEpochDay());
          } catch (java.time.format.DateTimeParseException | ArithmeticException e) {
            return false;
          }
        } else {
          return false;
        }
        ((DateDayVector) v).setSafe(slot, day);
        keptScalar = day;
        return true;
      }
      case DATE_TIME -> {
        long ms;
        if (tok == JsonToken.VALUE_NUMBER_INT) {
          if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return false;
          }
          ms = p.getLongValue();
        } else if (tok == JsonToken.VALUE_STRING) {
          Long parsed = Values.parseDateTime(p.getText());
          if (parsed == null) {
            return false;
          }
          ms = parsed;
        } else {
          return false;
        }
        ((DateMilliVector) v).setSafe(slot, ms);
        keptScalar = ms;
        return true;
      }
      case BLOB -> {
        if (tok != JsonToken.VALUE_STRING) {
          return false;
        }
        String text = p.getText();
        if (!text.startsWith("base64:")) {
          return false;
        }
        byte[] b;
        try {
          b = java.util.Base64.getDecoder().decode(text.substring("base64:".length()));
        } catch (IllegalArgumentException e) {
          return false;
        }
        ((LargeVarBinaryVector) v).setSafe(slot, b);
        keptScalar = b;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** Nulls for absent properties, row checks, id derivation, then keeps the row. */
  private boolean finishRow(FastShape s, TableRows t, int slot, long line, String from, String to) {
    for (int i = 0; i < s.seen.length; i++) {
      if (!s.seen[i]) {
        if (s.keyMember[i] || !s.props.get(i).nullable()) {
          return false;
        }
        ArrowRows.setNullCell(t.column(i), slot);
      }
    }
    for (int c = 0; c < s.rowCheckIndex.length; c++) {
      int idx = s.rowCheckIndex[c];
      Object value = s.kept[idx];
      if (value == null) {
        continue;
      }
      if (s.rowChecks.get(c) instanceof Constraint.Range r) {
        if (Values.rangeViolation(r, s.types[idx], value) != null) {
          return false;
        }
      } else if (!pattern((Constraint.Check) s.rowChecks.get(c)).matcher((String) value).find()) {
        return false;
      }
    }
    String id;
    if (s.keyOrder.length > 0) {
      if (s.keyOrder.length == 1) {
        Optional<String> one = NodeIds.renderMember(s.types[s.keyOrder[0]], s.kept[s.keyOrder[0]]);
        if (one.isEmpty()) {
          return false;
        }
        id = one.get();
      } else {
        List<String> members = new ArrayList<>(s.keyOrder.length);
        for (int idx : s.keyOrder) {
          Optional<String> m = NodeIds.renderMember(s.types[idx], s.kept[idx]);
          if (m.isEmpty()) {
            return false;
          }
          members.add(m.get());
        }
        id = NodeIds.fromMembers(members);
      }
      if (s.explicitId != null && !s.explicitId.equals(id)) {
        return false;
      }
    } else {
      id = s.explicitId != null ? s.explicitId : Ulid.generate();
    }
    t.commit(line, id, from, to, mode, maxRowsPerTable);
    return true;
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
    for (int c = 0; c < t.uniques.size(); c++) {
      Constraint.Unique u = t.uniques.get(c);
      Map<List<Object>, Integer> holders = new HashMap<>(); // tuple -> row number k
      for (int k = 0; k < t.size(); k++) {
        List<Object> tuple = t.tupleAt(c, t.rowOf(k));
        if (tuple == null) {
          continue;
        }
        Integer prior = holders.putIfAbsent(tuple, k);
        if (prior != null && prior != k) {
          throw uniqueViolation(t, u, tuple, t.idAt(prior), t.line(t.rowOf(k)), t.idAt(k));
        }
      }
      if (mode == LoadMode.OVERWRITE || holders.isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> found = committed.uniqueHolders(t.spec().tableKey(), u.fields(), holders.keySet());
      for (Map.Entry<List<Object>, Set<String>> e : found.entrySet()) {
        Integer k = holders.get(e.getKey());
        for (String holder : e.getValue()) {
          // A committed holder that this load rewrites is judged by its new values above.
          if (k != null && !holder.equals(t.idAt(k)) && !t.containsId(holder)) {
            throw uniqueViolation(t, u, e.getKey(), holder, t.line(t.rowOf(k)), t.idAt(k));
          }
        }
      }
    }
  }

  private InvalidInputException uniqueViolation(TableRows t, Constraint.Unique u, List<Object> tuple, String first,
      long line, String id) {
    String type = t.isEdge() ? t.edgeType().name() : t.nodeType().name();
    return LoadRule.UNIQUE_VIOLATION.at(line, String.join(",", u.fields()),
        "@unique violation on " + type + "." + String.join(",", u.fields()) + ": value '" + render(tuple) + "' held by '" + first + "' and '" + id + "'");
  }

  private static String render(List<Object> tuple) {
    List<String> parts = new ArrayList<>();
    for (Object o : tuple) {
      parts.add(o instanceof float[] f ? Arrays.toString(f) : String.valueOf(o));
    }
    return parts.size() == 1 ? parts.get(0) : parts.toString();
  }

  private void checkEndpoints(TableRows edges, Map<String, TableRows> byKey) {
    EdgeType e = edges.edgeType();
    checkEndpoint(edges, byKey, e.fromType(), true);
    checkEndpoint(edges, byKey, e.toType(), false);
  }

  private void checkEndpoint(TableRows edges, Map<String, TableRows> byKey, String nodeType, boolean src) {
    String nodeKey = "node:" + nodeType;
    TableRows pending = byKey.get(nodeKey);
    Utf8Column ends = edges.endpoints(src);
    byte[] arena = ends.arena();
    Set<String> unresolved = new LinkedHashSet<>();
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      if (pending == null || !pending.containsIdBytes(arena, ends.start(r), ends.length(r))) {
        unresolved.add(ends.get(r));
      }
    }
    if (unresolved.isEmpty()) {
      return;
    }
    Set<String> existing = replacesCommitted(nodeKey, byKey) ? Set.of() : committed.existingNodeIds(nodeType, unresolved);
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      if (pending != null && pending.containsIdBytes(arena, ends.start(r), ends.length(r))) {
        continue;
      }
      String id = ends.get(r);
      if (!existing.contains(id)) {
        throw LoadRule.DANGLING_EDGE.at(edges.line(r), src ? "from" : "to",
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
            throw LoadRule.DANGLING_EDGE.at(nodes.size() == 0 ? 0 : nodes.line(nodes.rowOf(0)), column,
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
    Utf8Column srcs = edges.endpoints(true);
    for (int k = 0; k < edges.size(); k++) {
      int r = edges.rowOf(k);
      String src = srcs.get(r);
      pendingCount.merge(src, 1L, Long::sum);
      lastLine.put(src, edges.line(r));
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
