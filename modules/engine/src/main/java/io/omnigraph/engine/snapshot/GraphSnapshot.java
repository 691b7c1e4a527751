package io.omnigraph.engine.snapshot;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.TableReader;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.UniqueTuples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The graph as of one ref: one manifest state (the cut), the schema accepted at that cut, and every
 * table pinned at the version the cut publishes. Every read of a loader, a mutation or an export
 * comes from one snapshot, so it sees one consistent graph however many writers publish meanwhile.
 * Obtained from {@link SnapshotResolver#resolve}; tables are opened on first use and closed with the
 * snapshot. Not thread-safe: one snapshot serves one operation.
 *
 * <p>Lookups report storage failures as {@link io.omnigraph.api.OmnigraphException}s; they never
 * return partial answers.
 */
public final class GraphSnapshot implements AutoCloseable {
  /** The type of an edge's {@code src} and {@code dst} columns (node ids). */
  private static final PropertyType ENDPOINT = new PropertyType.Scalar(ScalarKind.STRING);
  /** At most this many values per {@code IN} filter of one scan. */
  private static final int IN_LIST_MAX = 1024;
  /** Above this many multi-column tuples a {@code @unique} probe scans the table instead of filtering. */
  private static final int UNIQUE_FILTER_TUPLES = 256;

  private final GraphRef ref;
  private final ManifestState state;
  private final CompiledSchema schema;
  private final GraphRoot root;
  private final TableReader tables;
  /** Index names per table, read once per snapshot. */
  private final Map<String, Set<String>> indexes = new HashMap<>();
  private final Map<String, TableSnapshot> open = new TreeMap<>();
  /** Whether tables come from the store's shared read datasets ({@link SnapshotResolver#resolveForRead}). */
  private final boolean readOnly;

  GraphSnapshot(GraphRef ref, ManifestState state, CompiledSchema schema, GraphRoot root, TableReader tables) {
    this(ref, state, schema, root, tables, false);
  }

  GraphSnapshot(GraphRef ref, ManifestState state, CompiledSchema schema, GraphRoot root, TableReader tables,
      boolean readOnly) {
    this.ref = ref;
    this.state = state;
    this.schema = schema;
    this.root = root;
    this.tables = tables;
    this.readOnly = readOnly;
  }

  /** @return what was resolved: a branch name or a commit id */
  public GraphRef ref() {
    return ref;
  }

  /** @return the cut: the manifest state every read of this snapshot comes from */
  public ManifestState manifest() {
    return state;
  }

  /** @return the schema accepted at this cut, read from the graph's schema files */
  public CompiledSchema schema() {
    return schema;
  }

  /**
   * @param tableKey {@code node:T} or {@code edge:E}
   * @return the table's published entry in the cut
   */
  public TableEntry entry(String tableKey) {
    return state.table(tableKey).orElseThrow(() -> new InternalErrorException(
        "table " + tableKey + " is not published at manifest version " + state.manifestVersion(), null));
  }

  /**
   * @param tableKey {@code node:T} or {@code edge:E}
   * @return the table pinned at its published version (opened once; owned by the snapshot, do not close)
   */
  public TableSnapshot table(String tableKey) {
    TableSnapshot s = open.get(tableKey);
    if (s == null) {
      TableEntry e = entry(tableKey);
      io.omnigraph.api.storage.LanceLocation at = io.omnigraph.engine.table.TableReader.branchLocation(
          root.lance(e.path()), e.branch());
      s = readOnly ? tables.openShared(at, e.version()) : tables.openAt(at, e.version());
      open.put(tableKey, s);
    }
    return s;
  }

  /**
   * The table as a writer of this snapshot's branch stages against it: on main, {@link #table};
   * on another branch, the table's own native ref named after the branch, at the published version.
   * A table the branch has not written yet has no ref of its own, and none may be created before the
   * writer's recovery sidecar names it (sidecar-before-ref, docs/branches.md "Lazy table forks"):
   * such a table is written through {@link #forkPlan}, never through this method.
   *
   * @param writer the write gateway (unused: kept for the writers' call sites)
   * @return the table on the branch's ref at the published version (owned by the snapshot, do not close)
   * @throws IllegalStateException the table is a first-touch table of this branch
   */
  public TableSnapshot tableForWrite(String tableKey, io.omnigraph.engine.table.TableWriter writer) {
    if (readOnly) {
      throw new IllegalStateException("a read-only snapshot cannot stage writes");
    }
    String branch = ref instanceof GraphRef.Branch b ? b.name() : null;
    TableEntry e = entry(tableKey);
    if (branch != null && !io.omnigraph.engine.manifest.GraphBranch.MAIN.equals(branch) && !branch.equals(e.branch())) {
      throw new IllegalStateException("table " + tableKey + " is not forked on branch " + branch + " yet: a writer"
          + " forks it only after arming its sidecar (forkPlan)");
    }
    return table(tableKey);
  }

  /**
   * The first-touch fork a writer of this snapshot's branch needs for {@code tableKey}, planned but
   * not performed: empty on main and for a table the branch already owns. The writer stages against
   * {@link #table} (the parent's ref at the same version holds the same rows) for its checks, and
   * forks and stages on the ref only after its recovery sidecar is armed
   * ({@link io.omnigraph.engine.write.GraphWrite}; docs/branches.md, "Lazy table forks").
   *
   * @param writer the write gateway that will create the fork
   */
  public java.util.Optional<io.omnigraph.engine.table.TableFork.Plan> forkPlan(String tableKey,
      io.omnigraph.engine.table.TableWriter writer) {
    if (readOnly) {
      throw new IllegalStateException("a read-only snapshot cannot stage writes");
    }
    String branch = ref instanceof GraphRef.Branch b ? b.name() : null;
    TableEntry e = entry(tableKey);
    if (branch == null || io.omnigraph.engine.manifest.GraphBranch.MAIN.equals(branch) || branch.equals(e.branch())) {
      return java.util.Optional.empty();
    }
    // No sidecar may be pending when the fork runs: the writer re-lists __recovery/ inside its effect
    // window before it arms its own, and holds the window through the fork.
    io.omnigraph.engine.table.TableFork fork = new io.omnigraph.engine.table.TableFork(tables, writer, root);
    return java.util.Optional.of(new io.omnigraph.engine.table.TableFork.Plan(fork, e.path(), tableKey, branch,
        e.branch(), e.version()));
  }

  /**
   * @param nodeType node type name
   * @param ids candidate ids
   * @return the subset of {@code ids} that exist in the node table
   */
  public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return new LinkedHashSet<>(tables.existingIds(table("node:" + nodeType), ids));
  }

  /**
   * @param tableKey {@code node:<T>} or {@code edge:<T>}
   * @param ids candidate ids
   * @return the subset of {@code ids} that exist in the table, in the order of {@code ids}
   */
  public List<String> existingIds(String tableKey, Collection<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    Set<String> found = new java.util.HashSet<>(tables.existingIds(table(tableKey), ids));
    return ids.stream().filter(found::contains).toList();
  }

  /**
   * Counts outgoing edges per source.
   *
   * @param edgeType edge type name
   * @param srcIds source node ids
   * @param ignoredEdgeIds edges with these ids are not counted (they are being replaced)
   * @return source id → count (absent = 0)
   */
  public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    Map<String, Long> counts = new HashMap<>();
    if (srcIds.isEmpty()) {
      return counts;
    }
    for (LanceFilter filter : inFilters("src", srcIds)) {
      scan("edge:" + edgeType, List.of("id", "src"), filter, batch -> {
        VarCharVector id = (VarCharVector) batch.getVector("id");
        VarCharVector src = (VarCharVector) batch.getVector("src");
        for (int i = 0; i < batch.getRowCount(); i++) {
          if (!ignoredEdgeIds.contains(text(id, i))) {
            counts.merge(text(src, i), 1L, Long::sum);
          }
        }
      });
    }
    return counts;
  }

  /**
   * Finds the rows holding {@code @unique} tuples. The scan is narrowed by a filter on the tuples'
   * values where one can be rendered (an {@code IN} list for one column, an {@code OR} of
   * conjunctions for up to {@value #UNIQUE_FILTER_TUPLES} multi-column tuples) and every scanned row
   * is then compared exactly, so the filter only saves reading rows that cannot match.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param columns the constraint's columns (properties, or {@code src}/{@code dst} on edges)
   * @param tuples candidate tuples, values in the representation of {@link io.omnigraph.engine.value.Scalars}
   *     (vectors and blobs as {@link UniqueTuples#normalize} makes them comparable)
   * @return tuple → ids of the rows holding it (absent = none); the sets are the caller's to modify
   */
  public Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns,
      Set<List<Object>> tuples) {
    Map<List<Object>, Set<String>> out = new HashMap<>();
    if (tuples.isEmpty()) {
      return out;
    }
    List<PropertyType> types = columns.stream().map(c -> columnType(tableKey, c)).toList();
    List<String> projection = new ArrayList<>();
    projection.add("id");
    projection.addAll(columns);
    scan(tableKey, projection, uniqueProbe(columns, types, tuples), batch -> {
      VarCharVector id = (VarCharVector) batch.getVector("id");
      List<FieldVector> cols = columns.stream().map(batch::getVector).toList();
      for (int i = 0; i < batch.getRowCount(); i++) {
        List<Object> tuple = new ArrayList<>(cols.size());
        for (int c = 0; c < cols.size(); c++) {
          // The value representation (e.g. DateTime as epoch millis), so tuples compare equal.
          tuple.add(UniqueTuples.normalize(ArrowValues.get(cols.get(c), types.get(c), i)));
        }
        if (tuples.contains(tuple)) {
          out.computeIfAbsent(tuple, k -> new LinkedHashSet<>()).add(text(id, i));
        }
      }
    });
    return out;
  }

  /**
   * A filter selecting the rows that may hold one of the tuples, or TRUE when it cannot be narrowed
   * (a column type a filter cannot compare, a NaN member, too many multi-column tuples).
   */
  private static RowFilter uniqueProbe(List<String> names, List<PropertyType> types, Set<List<Object>> tuples) {
    List<ColumnRef> columns = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      PropertyType t = types.get(i);
      ColumnRef c = new ColumnRef(names.get(i), t, true);
      if (c.scalarKind() == null || c.scalarKind() == ScalarKind.BLOB || t instanceof PropertyType.ListOf
          || t instanceof PropertyType.VectorOf) {
        return new RowFilter.Constant(true);
      }
      columns.add(c);
    }
    for (List<Object> tp : tuples) {
      for (Object v : tp) {
        if (v instanceof Float f && f.isNaN() || v instanceof Double d && d.isNaN()) {
          return new RowFilter.Constant(true); // NaN equals NaN here, never in a filter
        }
      }
    }
    if (columns.size() == 1) {
      List<Object> values = new ArrayList<>();
      tuples.forEach(tp -> values.add(tp.get(0)));
      return new RowFilter.In(columns.get(0), values);
    }
    if (tuples.size() > UNIQUE_FILTER_TUPLES) {
      return new RowFilter.Constant(true);
    }
    List<RowFilter> any = new ArrayList<>();
    for (List<Object> tp : tuples) {
      List<RowFilter> all = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        all.add(new RowFilter.Compare(columns.get(i), CompOp.EQ, tp.get(i)));
      }
      any.add(new RowFilter.And(all));
    }
    return new RowFilter.Or(any);
  }

  /**
   * Edges whose endpoint ({@code src} or {@code dst}) points at an id not in {@code survivingIds}:
   * the edges an overwrite of the endpoint node type would orphan.
   *
   * @param edgeType edge type name
   * @param endpointColumn {@code src} or {@code dst}
   * @param survivingIds ids of the replacing image of the endpoint node type
   * @param limit stop after this many findings
   * @return up to {@code limit} pairs {@code [edgeId, endpointId]}
   */
  public List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
    List<String[]> out = new ArrayList<>();
    scan("edge:" + edgeType, List.of("id", endpointColumn), (LanceFilter) null, batch -> {
      VarCharVector id = (VarCharVector) batch.getVector("id");
      VarCharVector end = (VarCharVector) batch.getVector(endpointColumn);
      for (int i = 0; i < batch.getRowCount() && out.size() < limit; i++) {
        String target = text(end, i);
        if (!survivingIds.contains(target)) {
          out.add(new String[] {text(id, i), target});
        }
      }
    });
    return out;
  }

  /**
   * Scans one table of the cut.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param columns the projection ({@code null}: every column)
   * @param filter the rows to keep ({@code null}: every row)
   * @param batches receives each batch (valid only during the call)
   */
  public void scan(String tableKey, List<String> columns, RowFilter filter, Consumer<VectorSchemaRoot> batches) {
    scan(tableKey, columns, filter == null ? null : LanceFilter.of(filter), batches);
  }

  /**
   * {@link #scan} with each row's address at the table's pinned version ({@link #table}) in a UInt8
   * column {@code _rowaddr}.
   */
  public void scanWithRowAddress(String tableKey, List<String> columns, RowFilter filter,
      Consumer<VectorSchemaRoot> batches) {
    tables.scanWithRowAddress(table(tableKey), columns, filter == null ? null : LanceFilter.of(filter), batches);
  }

  /**
   * {@link #scanWithRowAddress} of every column, for a {@code filter} that selects only rows whose id
   * is one of {@code ids}: reads only the fragments that may hold them
   * ({@link io.omnigraph.engine.table.TableReader#scanIdsWithRowAddress}).
   */
  public void scanIdsWithRowAddress(String tableKey, java.util.Collection<String> ids, RowFilter filter,
      Consumer<VectorSchemaRoot> batches) {
    tables.scanIdsWithRowAddress(table(tableKey), ids, LanceFilter.of(filter), batches);
  }

  private void scan(String tableKey, List<String> columns, LanceFilter filter, Consumer<VectorSchemaRoot> batches) {
    tables.scan(table(tableKey), columns, filter, batches);
  }

  /**
   * Scans one table of the cut and keeps only its first {@code limit} rows in the given order
   * (Lance sorts: see {@link io.omnigraph.engine.table.TableReader#scanTopN}).
   *
   * @param order column → ascending, in key order (nulls first ascending, last descending)
   */
  public void scanTopN(String tableKey, List<String> columns, RowFilter filter, List<Map.Entry<String, Boolean>> order,
      long limit, Consumer<VectorSchemaRoot> batches) {
    tables.scanTopN(table(tableKey), columns, filter == null ? null : LanceFilter.of(filter), order, limit, batches);
  }

  /**
   * A full-text scan of one table of the cut through Lance's inverted-index search (see {@link
   * io.omnigraph.engine.table.TableReader#fullTextScan}); only for a column that has an inverted
   * index ({@link #hasIndex}).
   */
  public void fullTextScan(String tableKey, List<String> columns, RowFilter filter, String column, String query,
      int fuzziness, int maxExpansions, Consumer<VectorSchemaRoot> batches) {
    tables.fullTextScan(table(tableKey), columns, filter == null ? null : LanceFilter.of(filter), column, query, fuzziness,
        maxExpansions, batches);
  }

  /** A k-nearest-neighbour scan of one table of the cut (see {@link io.omnigraph.engine.table.TableReader#nearestScan}). */
  public void nearestScan(String tableKey, List<String> columns, RowFilter filter, String column, float[] query, int k,
      int nprobes, Consumer<VectorSchemaRoot> batches) {
    tables.nearestScan(table(tableKey), columns, filter == null ? null : LanceFilter.of(filter), column, query, k, nprobes,
        batches);
  }

  /** @return whether the table's pinned version has an index of that name */
  public boolean hasIndex(String tableKey, String indexName) {
    return indexes.computeIfAbsent(tableKey, k -> Set.copyOf(tables.indexNames(table(k)))).contains(indexName);
  }

  /**
   * Scans every row of one table of the cut in ascending id order.
   *
   * @param tableKey {@code node:T} or {@code edge:E}
   * @param batches receives each batch (valid only during the call)
   */
  public void scanSortedById(String tableKey, Consumer<VectorSchemaRoot> batches) {
    tables.scanSortedById(table(tableKey), batches);
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (TableSnapshot s : open.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }

  /** The declared type of a {@code @unique} column of {@code node:T} or {@code edge:E}. */
  private PropertyType columnType(String tableKey, String column) {
    String typeName = tableKey.substring(tableKey.indexOf(':') + 1);
    Optional<Property> property;
    if (tableKey.startsWith("edge:")) {
      if (column.equals("src") || column.equals("dst")) {
        return ENDPOINT;
      }
      property = schema.catalog().edge(typeName).flatMap(e -> e.property(column));
    } else {
      property = schema.catalog().node(typeName).flatMap(n -> n.property(column));
    }
    return property.map(Property::type).orElseThrow(() -> new InternalErrorException(
        "@unique column " + column + " is not a property of " + tableKey, null));
  }

  private static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  /** {@code column IN (...)} filters of at most {@value #IN_LIST_MAX} values each, over a system column. */
  private static List<LanceFilter> inFilters(String column, Set<String> values) {
    List<LanceFilter> out = new ArrayList<>();
    List<String> chunk = new ArrayList<>();
    for (String v : values) {
      chunk.add(v);
      if (chunk.size() == IN_LIST_MAX) {
        out.add(LanceFilter.in(column, chunk));
        chunk = new ArrayList<>();
      }
    }
    if (!chunk.isEmpty()) {
      out.add(LanceFilter.in(column, chunk));
    }
    return out;
  }
}
