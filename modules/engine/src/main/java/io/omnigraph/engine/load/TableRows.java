package io.omnigraph.engine.load;

import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.validate.PendingRows;
import io.omnigraph.engine.validate.Site;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.UniqueTuples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The validated rows of one table from one load, held column-wise in Arrow vectors with the table's
 * exact schema (column order {@code id}[, {@code src}, {@code dst}], then
 * properties) plus compact side structures for the cross-row checks: an {@link IdIndex} of the ids,
 * the input line of each row, and (edges) the endpoints as UTF-8 arenas. As {@link PendingRows} it is
 * what the graph rules check (row {@code k} is the {@code k}-th surviving row; its site is its line).
 *
 * <p>Row order is input order; a merge-mode row that repeats an id replaces the earlier row in
 * place (the table keeps the first position and the last values). In a streamed {@code OVERWRITE}
 * load the batches go to a {@link BatchSink} as they fill, and {@link #rows()} / {@link #batches()}
 * are no longer available; ids, lines and endpoints stay available for the cross-row checks.
 *
 * <p>Instances own Arrow memory: {@link #close()} (or {@link ValidatedLoad#close()}) releases it.
 */
public final class TableRows implements AutoCloseable, PendingRows {
  /**
   * One validated row, materialized on request (tests, small reads); the load itself never builds
   * these.
   *
   * @param line 1-based input line it came from
   * @param id the physical id
   * @param src edge source id, null for nodes
   * @param dst edge target id, null for nodes
   * @param values one value per property, in the table's property order ({@code null} = null), in
   *     {@link Values}' representation
   */
  public record Row(long line, String id, String src, String dst, List<Object> values) {
    public Row {
      Objects.requireNonNull(id, "id");
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  private static final long FLUSH_BYTES = 16L * 1024 * 1024;
  private static final int RETAINED_INITIAL_ROWS = 1024;

  private final TableSpec spec;
  private final NodeType node;
  private final EdgeType edge;
  private final List<Property> props;
  private final String tableKey;
  private final BufferAllocator allocator;
  private final BatchSink sink;
  private final int flushRows;

  private VectorSchemaRoot batch;
  private FieldVector[] cols;
  private VarCharVector idCol;
  private VarCharVector srcCol;
  private VarCharVector dstCol;
  private int n; // rows in the current batch
  private int physical; // rows kept so far over all batches (row numbers are 0 .. physical-1)
  private boolean streamed;
  private boolean finished;

  private final IdIndex ids = new IdIndex();
  private long[] lines = new long[256];
  private Utf8Column srcs;
  private Utf8Column dsts;
  private long observed;

  /** {@code @unique} constraints of the table, their column positions (-1 src, -2 dst) and tuples per row. */
  final List<Constraint.Unique> uniques = new ArrayList<>();
  private int[][] uniqueColumns = new int[0][];
  private List<List<List<Object>>> tuples = new ArrayList<>();

  /** An empty table with no Arrow memory (a table the load did not touch). */
  TableRows(TableSpec spec, NodeType node, EdgeType edge) {
    this(spec, node, edge, null, null, 0);
  }

  TableRows(TableSpec spec, NodeType node, EdgeType edge, BufferAllocator allocator, BatchSink sink, int flushRows) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.node = node;
    this.edge = edge;
    this.props = node != null ? node.properties() : edge.properties();
    this.tableKey = spec.tableKey();
    this.allocator = allocator;
    this.sink = sink;
    this.flushRows = flushRows;
    if (edge != null) {
      srcs = new Utf8Column();
      dsts = new Utf8Column();
    }
    List<Constraint> constraints = node != null ? node.constraints() : edge.constraints();
    for (Constraint c : constraints) {
      if (c instanceof Constraint.Unique u) {
        uniques.add(u);
      }
    }
    uniqueColumns = new int[uniques.size()][];
    for (int i = 0; i < uniques.size(); i++) {
      List<String> fields = uniques.get(i).fields();
      int[] cs = new int[fields.size()];
      for (int j = 0; j < cs.length; j++) {
        String f = fields.get(j);
        cs[j] = edge != null && f.equals("src") ? -1 : edge != null && f.equals("dst") ? -2 : indexOf(props, f);
      }
      uniqueColumns[i] = cs;
      tuples.add(new ArrayList<>());
    }
  }

  static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** @return the table's key, path and Arrow schema */
  public TableSpec spec() {
    return spec;
  }

  /** @return {@code node:T} or {@code edge:E} */
  @Override
  public String tableKey() {
    return tableKey;
  }

  /** @return true for an edge table */
  public boolean isEdge() {
    return edge != null;
  }

  /** @return the node type, or null for an edge table */
  @Override
  public NodeType nodeType() {
    return node;
  }

  /** @return the edge type, or null for a node table */
  @Override
  public EdgeType edgeType() {
    return edge;
  }

  /** @return the properties, in the order of {@link Row#values()} */
  public List<Property> properties() {
    return props;
  }

  /** @return number of rows (distinct ids) */
  @Override
  public int size() {
    return ids.size();
  }

  /** @return the ids of the rows, in row order */
  public List<String> ids() {
    return List.copyOf(ids.asSet());
  }

  /** @return the ids of the rows as an unmodifiable live set view, in row order */
  @Override
  public Set<String> idSet() {
    return ids.asSet();
  }

  /**
   * @param id a row id
   * @return true if this load has a row with that id
   */
  @Override
  public boolean containsId(String id) {
    return ids.contains(id);
  }

  /** @return true if the rows went to a {@link BatchSink} instead of being retained */
  public boolean streamed() {
    return streamed;
  }

  /**
   * The retained batches (one per table after a non-streamed load), owned by this object: do not
   * close them, close this.
   *
   * @return the batches in row order; empty for a table without rows
   * @throws IllegalStateException when the rows were streamed to a {@link BatchSink}
   */
  public List<VectorSchemaRoot> batches() {
    requireRetained();
    return batch == null ? List.of() : List.of(batch);
  }

  /**
   * Materializes the rows as {@link Row} objects (for tests and small tables).
   *
   * @return the rows in row order
   * @throws IllegalStateException when the rows were streamed to a {@link BatchSink}
   */
  public List<Row> rows() {
    requireRetained();
    List<Row> out = new ArrayList<>(ids.size());
    for (int k = 0; k < ids.size(); k++) {
      int r = ids.row(k);
      List<Object> values = new ArrayList<>(props.size());
      for (int p = 0; p < props.size(); p++) {
        values.add(ArrowValues.get(cols[p], props.get(p).type(), r));
      }
      out.add(new Row(lines[r], ids.id(k), isEdge() ? srcs.get(r) : null, isEdge() ? dsts.get(r) : null, values));
    }
    return Collections.unmodifiableList(out);
  }

  private void requireRetained() {
    if (streamed) {
      throw new IllegalStateException("the rows of " + tableKey + " were streamed to storage, not retained");
    }
  }

  @Override
  public void close() {
    if (batch != null) {
      batch.close();
      batch = null;
    }
  }

  // ---- writing (the loader) ---------------------------------------------------------------

  /** @return the index, in the current batch, of the row being written (creating the batch if needed) */
  int slot() {
    if (batch == null) {
      batch = VectorSchemaRoot.create(spec.arrowSchema(), allocator);
      int capacity = sink != null ? flushRows : RETAINED_INITIAL_ROWS;
      try {
        for (FieldVector v : batch.getFieldVectors()) {
          v.setInitialCapacity(capacity);
          v.allocateNew();
        }
      } catch (RuntimeException e) {
        batch.close();
        batch = null;
        throw e;
      }
      int c = 0;
      idCol = (VarCharVector) batch.getVector(c++);
      if (edge != null) {
        srcCol = (VarCharVector) batch.getVector(c++);
        dstCol = (VarCharVector) batch.getVector(c++);
      }
      cols = new FieldVector[props.size()];
      for (int p = 0; p < cols.length; p++) {
        cols[p] = batch.getVector(c + p);
      }
    }
    return n;
  }

  /** @return the vector of property {@code p} in the current batch (after {@link #slot()}) */
  FieldVector column(int p) {
    return cols[p];
  }

  /**
   * Keeps the row written at {@link #slot()} under {@code id}, or refuses it.
   *
   * @throws io.omnigraph.api.InvalidInputException DUPLICATE_KEY for a repeated id outside merge mode
   */
  void commit(long line, String id, String src, String dst, LoadMode mode, long maxRows) {
    byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
    int hash = IdIndex.hash(idBytes, 0, idBytes.length);
    int k = ids.find(idBytes, 0, idBytes.length, hash);
    if (k >= 0) {
      if (mode != LoadMode.MERGE) {
        throw LoadRule.DUPLICATE_KEY.at(line, "id",
            "duplicate id '" + id + "' for " + tableKey + " (first at line " + lines[ids.row(k)] + ")");
      }
      ids.setRow(k, keep(line, idBytes, src, dst));
      return;
    }
    if (++observed > maxRows) {
      return; // counted, not retained: the loader reports the limit after reading everything
    }
    ids.add(idBytes, 0, idBytes.length, hash, keep(line, idBytes, src, dst));
  }

  /** @return rows seen with distinct ids (including those past the row cap) */
  long observed() {
    return observed;
  }

  private int keep(long line, byte[] idBytes, String src, String dst) {
    idCol.setSafe(n, idBytes);
    if (edge != null) {
      byte[] s = src.getBytes(StandardCharsets.UTF_8);
      byte[] d = dst.getBytes(StandardCharsets.UTF_8);
      srcCol.setSafe(n, s);
      dstCol.setSafe(n, d);
      srcs.add(s, 0, s.length);
      dsts.add(d, 0, d.length);
    }
    int r = physical;
    if (r == lines.length) {
      lines = Arrays.copyOf(lines, r * 2);
    }
    lines[r] = line;
    for (int i = 0; i < uniqueColumns.length; i++) {
      tuples.get(i).add(tuple(uniqueColumns[i], src, dst));
    }
    physical++;
    n++;
    if (sink != null && (n >= flushRows || ((n & 1023) == 0 && ArrowBatches.memorySize(batch) >= FLUSH_BYTES))) {
      flush();
    }
    return r;
  }

  /** @return the tuple of the current row's values at these columns, or null if any member is null */
  private List<Object> tuple(int[] columns, String src, String dst) {
    List<Object> tuple = new ArrayList<>(columns.length);
    for (int c : columns) {
      Object v = c == -1 ? src : c == -2 ? dst : ArrowValues.get(cols[c], props.get(c).type(), n);
      if (v == null) {
        return null;
      }
      tuple.add(UniqueTuples.normalize(v));
    }
    return tuple;
  }

  private void flush() {
    batch.setRowCount(n);
    VectorSchemaRoot full = batch;
    batch = null;
    n = 0;
    streamed = true;
    try {
      sink.write(spec, full);
    } finally {
      full.close();
    }
  }

  /**
   * Ends reading: sets the row count of a retained batch and, in merge mode, drops replaced rows so
   * that each id keeps its first position with its last values.
   */
  void finishReading() {
    if (finished) {
      return;
    }
    finished = true;
    if (sink != null || batch == null) {
      return;
    }
    batch.setRowCount(n);
    if (physical == ids.size()) {
      return;
    }
    int size = ids.size();
    int[] order = new int[size];
    List<Integer> select = new ArrayList<>(size);
    for (int k = 0; k < size; k++) {
      order[k] = ids.row(k);
      select.add(order[k]);
    }
    VectorSchemaRoot compact = ArrowBatches.select(batch, select, allocator);
    batch.close();
    batch = compact;
    int c = 0;
    idCol = (VarCharVector) batch.getVector(c++);
    if (edge != null) {
      srcCol = (VarCharVector) batch.getVector(c++);
      dstCol = (VarCharVector) batch.getVector(c++);
      srcs = srcs.select(order, size);
      dsts = dsts.select(order, size);
    }
    for (int p = 0; p < cols.length; p++) {
      cols[p] = batch.getVector(c + p);
    }
    long[] newLines = new long[Math.max(size, 1)];
    for (int k = 0; k < size; k++) {
      newLines[k] = lines[order[k]];
    }
    lines = newLines;
    for (int i = 0; i < tuples.size(); i++) {
      List<List<Object>> old = tuples.get(i);
      List<List<Object>> now = new ArrayList<>(size);
      for (int k = 0; k < size; k++) {
        now.add(old.get(order[k]));
      }
      tuples.set(i, now);
    }
    for (int k = 0; k < size; k++) {
      ids.setRow(k, k);
    }
    physical = size;
    n = size;
  }

  /** Streams the last, partly filled batch to the sink (streamed loads, after validation passed). */
  void flushRest() {
    if (sink != null && batch != null && n > 0) {
      flush();
    }
  }

  // ---- reading (the cross-row checks) -----------------------------------------------------

  /** @return the physical row of the {@code k}-th surviving row */
  int rowOf(int k) {
    return ids.row(k);
  }

  /** @return the id of the {@code k}-th surviving row */
  String idAt(int k) {
    return ids.id(k);
  }

  /** @return the input line of physical row {@code r} */
  long line(int r) {
    return lines[r];
  }

  /** @return the {@code @unique} tuple of constraint {@code c} at physical row {@code r}, null if a member is null */
  List<Object> tupleAt(int c, int r) {
    return tuples.get(c).get(r);
  }

  /** @return the source ({@code src}) or target endpoints of an edge table */
  Utf8Column endpoints(boolean src) {
    return src ? srcs : dsts;
  }

  // ---- the graph rules' view (validate.PendingRows) -----------------------------------------

  @Override
  public String id(int k) {
    return idAt(k);
  }

  @Override
  public Site site(int k) {
    return new Site.Line(line(rowOf(k)));
  }

  @Override
  public String endpoint(int k, boolean src) {
    return endpoints(src).get(rowOf(k));
  }

  /** Compares the endpoint's UTF-8 bytes with the node table's id index, without making a String. */
  @Override
  public boolean endpointIn(int k, boolean src, PendingRows nodes) {
    if (!(nodes instanceof TableRows t)) {
      return PendingRows.super.endpointIn(k, src, nodes);
    }
    Utf8Column ends = endpoints(src);
    int r = rowOf(k);
    return t.containsIdBytes(ends.arena(), ends.start(r), ends.length(r));
  }

  @Override
  public List<Object> uniqueTuple(int c, int k) {
    return tupleAt(c, rowOf(k));
  }

  /** @return true if the UTF-8 id at {@code b[off..off+len]} is a row of this table */
  boolean containsIdBytes(byte[] b, int off, int len) {
    return ids.containsBytes(b, off, len);
  }
}
