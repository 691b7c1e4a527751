package io.omnigraph.engine.load;

import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.write.WriteErrors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Table row building for one load: the {@link TableRows} of every table the input touches, created
 * on first use, and the one place a decoded row is kept under its id (mode-aware duplicate-id
 * handling and the per-table row cap). Both line decoders write through it.
 */
final class LoadTables {
  private final CompiledSchema schema;
  private final LoadMode mode;
  private final long maxRowsPerTable;
  private final BufferAllocator alloc;
  private final BatchSink sink;
  private final int sinkRows;
  private final Map<String, TableRows> tables = new HashMap<>();

  LoadTables(CompiledSchema schema, LoadMode mode, long maxRowsPerTable, BufferAllocator alloc, BatchSink sink,
      int sinkRows) {
    this.schema = schema;
    this.mode = mode;
    this.maxRowsPerTable = maxRowsPerTable;
    this.alloc = alloc;
    this.sink = sink;
    this.sinkRows = sinkRows;
  }

  /** @return the rows of {@code tableKey}, created on first use */
  TableRows table(String tableKey, NodeType node, EdgeType edge) {
    TableRows t = tables.get(tableKey);
    if (t == null) {
      t = new TableRows(schema.table(tableKey).orElseThrow(), node, edge, alloc, sink, sinkRows);
      tables.put(tableKey, t);
    }
    return t;
  }

  /** Writes a row decoded by the exact path into the table's vectors and keeps it. */
  void write(TableRows t, TableRows.Row row) {
    int slot = t.slot();
    List<Property> props = t.properties();
    for (int p = 0; p < props.size(); p++) {
      ArrowValues.set(t.column(p), props.get(p).type(), slot, row.values().get(p));
    }
    commit(t, row.line(), row.id(), row.src(), row.dst());
  }

  /**
   * Keeps the row written at {@link TableRows#slot()} under {@code id}.
   *
   * @throws io.omnigraph.api.InvalidInputException DUPLICATE_KEY for a repeated id outside merge mode
   */
  void commit(TableRows t, long line, String id, String src, String dst) {
    t.commit(line, id, src, dst, mode, maxRowsPerTable);
  }

  /**
   * Ends reading: checks the row cap of every table, then finishes each touched table.
   *
   * @return the touched tables in schema order (nodes first, then edges)
   * @throws io.omnigraph.api.ResourceLimitException a table exceeds the row cap
   */
  List<TableRows> finishReading() {
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
    return ordered;
  }

  /** Releases the Arrow memory of every table (a failed load). */
  void closeAll() {
    tables.values().forEach(TableRows::close);
  }
}
