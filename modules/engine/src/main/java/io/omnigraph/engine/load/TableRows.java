package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.TableSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The validated rows of one table from one load, in input order (a merge-mode row that repeats an
 * id replaces the earlier row in place). Values are in {@link Values}' representation, one per
 * property in catalog order.
 */
public final class TableRows {
  /**
   * One validated row.
   *
   * @param line 1-based input line it came from
   * @param id the physical id
   * @param src edge source id, null for nodes
   * @param dst edge target id, null for nodes
   * @param values one value per property, in the table's property order ({@code null} = null)
   */
  public record Row(long line, String id, String src, String dst, List<Object> values) {
    public Row {
      Objects.requireNonNull(id, "id");
      values = Collections.unmodifiableList(new ArrayList<>(values));
    }
  }

  private final TableSpec spec;
  private final NodeType node;
  private final EdgeType edge;
  private final List<Row> rows = new ArrayList<>();
  private final Map<String, Integer> indexById = new LinkedHashMap<>();

  TableRows(TableSpec spec, NodeType node, EdgeType edge) {
    this.spec = spec;
    this.node = node;
    this.edge = edge;
  }

  /** @return the table's key, path and Arrow schema */
  public TableSpec spec() {
    return spec;
  }

  /** @return true for an edge table */
  public boolean isEdge() {
    return edge != null;
  }

  /** @return the node type, or null for an edge table */
  public NodeType nodeType() {
    return node;
  }

  /** @return the edge type, or null for a node table */
  public EdgeType edgeType() {
    return edge;
  }

  /** @return the properties, in the order of {@link Row#values()} */
  public List<Property> properties() {
    return node != null ? node.properties() : edge.properties();
  }

  /** @return the rows, unmodifiable */
  public List<Row> rows() {
    return Collections.unmodifiableList(rows);
  }

  /** @return number of rows */
  public int size() {
    return rows.size();
  }

  /** @return the ids of the rows, in row order */
  public List<String> ids() {
    return List.copyOf(indexById.keySet());
  }

  /** @return the ids of the rows as an unmodifiable live set view, in row order */
  public java.util.Set<String> idSet() {
    return Collections.unmodifiableSet(indexById.keySet());
  }

  /**
   * @param id a row id
   * @return true if this load has a row with that id
   */
  public boolean containsId(String id) {
    return indexById.containsKey(id);
  }

  /** @return the earlier row with this id, or null */
  Row byId(String id) {
    Integer i = indexById.get(id);
    return i == null ? null : rows.get(i);
  }

  void add(Row row) {
    indexById.put(row.id(), rows.size());
    rows.add(row);
  }

  void replace(Row row) {
    rows.set(indexById.get(row.id()), row);
  }
}
