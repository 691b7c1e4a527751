package io.omnigraph.engine.mutate;

import io.omnigraph.engine.plan.ArrowRowValues;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.SourcePos;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.table.ArrowBatches;
import io.omnigraph.engine.value.ArrowValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The pending (written, not yet committed) rows of one table in one mutation: a growing Arrow
 * batch with the table's exact schema. Writing a row whose id is already pending supersedes the
 * earlier row (which stays in the batch, unreachable), so at most one live row exists per id and it shadows the committed row with that
 * id. Filters are evaluated over the live rows with {@link ArrowRowValues}, exactly as their Lance
 * rendering is evaluated over committed rows.
 *
 * <p>Not thread-safe; owned by one {@link MutationStaging}.
 */
final class PendingTable implements AutoCloseable {
  private final TableSpec spec;
  private final NodeType node;
  private final EdgeType edge;
  private final List<Property> props;
  private final VectorSchemaRoot rows;
  private final List<SourcePos> origin = new ArrayList<>();
  /** id → index of its live row, in first-write order. */
  private final Map<String, Integer> live = new LinkedHashMap<>();
  private int count;

  PendingTable(TableSpec spec, NodeType node, EdgeType edge, BufferAllocator allocator) {
    this.spec = spec;
    this.node = node;
    this.edge = edge;
    this.props = node != null ? node.properties() : edge.properties();
    this.rows = VectorSchemaRoot.create(spec.arrowSchema(), allocator);
    rows.allocateNew();
  }

  TableSpec spec() {
    return spec;
  }

  /** @return the node type, or null for an edge table */
  NodeType nodeType() {
    return node;
  }

  /** @return the edge type, or null for a node table */
  EdgeType edgeType() {
    return edge;
  }

  List<Property> properties() {
    return props;
  }

  /** @return number of live rows (distinct ids) */
  int size() {
    return live.size();
  }

  boolean contains(String id) {
    return live.containsKey(id);
  }

  /** @return the live ids in first-write order (a live view) */
  Collection<String> ids() {
    return live.keySet();
  }

  /**
   * Writes one row; a live row with the same id is superseded.
   *
   * @param values one value per property in table order
   * @param pos the statement that wrote it (for error positions)
   */
  void put(String id, String src, String dst, List<Object> values, SourcePos pos) {
    int i = count;
    int col = 0;
    ((VarCharVector) rows.getVector(col++)).setSafe(i, id.getBytes(StandardCharsets.UTF_8));
    if (edge != null) {
      ((VarCharVector) rows.getVector(col++)).setSafe(i, src.getBytes(StandardCharsets.UTF_8));
      ((VarCharVector) rows.getVector(col++)).setSafe(i, dst.getBytes(StandardCharsets.UTF_8));
    }
    for (int p = 0; p < props.size(); p++) {
      ArrowValues.set(rows.getVector(col + p), props.get(p).type(), i, values.get(p));
    }
    count++;
    rows.setRowCount(count);
    origin.add(pos);
    // A LinkedHashMap keeps an id's first-write position when its row is superseded.
    live.put(id, i);
  }

  /** @return the live row's property values, in table order, or null if {@code id} is not pending */
  List<Object> values(String id) {
    Integer i = live.get(id);
    if (i == null) {
      return null;
    }
    int col = edge != null ? 3 : 1;
    List<Object> out = new ArrayList<>(props.size());
    for (int p = 0; p < props.size(); p++) {
      out.add(ArrowValues.get(rows.getVector(col + p), props.get(p).type(), i));
    }
    return out;
  }

  /** @return the live row's {@code src} (edges only) */
  String src(String id) {
    return text(1, live.get(id));
  }

  /** @return the live row's {@code dst} (edges only) */
  String dst(String id) {
    return text(2, live.get(id));
  }

  /** @return where the live row with this id was written */
  SourcePos origin(String id) {
    Integer i = live.get(id);
    return i == null ? SourcePos.NONE : origin.get(i);
  }

  /** @return the ids of the live rows {@code filter} selects, in first-write order */
  List<String> matching(RowFilter filter) {
    List<String> out = new ArrayList<>();
    if (count == 0) {
      return out;
    }
    ArrowRowValues cursor = new ArrowRowValues(rows);
    for (Map.Entry<String, Integer> e : live.entrySet()) {
      if (filter.matches(cursor.at(e.getValue()))) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** Calls {@code action} with the batch index of every live row, in first-write order. */
  void forEachLive(IntConsumer action) {
    live.values().forEach(action::accept);
  }

  /**
   * @return a new batch (owned by the caller) holding the live rows in first-write order: what the
   *     table's one staged transaction writes
   */
  VectorSchemaRoot compact(BufferAllocator allocator) {
    return ArrowBatches.select(rows, new ArrayList<>(live.values()), allocator);
  }

  private String text(int column, Integer i) {
    if (i == null) {
      return null;
    }
    return new String(((VarCharVector) rows.getVector(column)).get(i), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    rows.close();
  }
}
