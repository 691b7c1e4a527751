package io.omnigraph.engine.read;

import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.PropertyType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One variable of a read plan: a node or edge variable with its table, the columns the query
 * reads from it, and the single-variable filters applied where it is introduced (pushed into the
 * Lance scan when expressible there, otherwise evaluated on each scanned row before it joins).
 */
final class Binding {
  /** The internal name: the written name, {@code _#n} for an anonymous {@code $_}, {@code x#n} for a name local to a negation. */
  final String name;
  /** The name as written, without {@code $}. */
  final String written;
  final boolean edge;
  final String typeName;
  final int slot;
  /** Needed property columns (never id/src/dst), in first-use order, with their types. */
  final Map<String, PropertyType> columns = new LinkedHashMap<>();
  final List<RowFilter> pushed = new ArrayList<>();
  final List<Predicate<Entity>> residual = new ArrayList<>();
  final List<String> residualText = new ArrayList<>();

  Binding(String name, String written, boolean edge, String typeName, int slot) {
    this.name = name;
    this.written = written;
    this.edge = edge;
    this.typeName = typeName;
    this.slot = slot;
  }

  String tableKey() {
    return (edge ? "edge:" : "node:") + typeName;
  }

  boolean anonymous() {
    return written.equals("_");
  }

  /** A property column some expression reads: its type, how many in-memory uses, its index in {@link Entity#vals()}. */
  static final class Col {
    final PropertyType type;
    int refs;
    int index = -1;

    Col(PropertyType type) {
      this.type = type;
    }
  }

  private final Map<String, Col> cols = new LinkedHashMap<>();

  /** @return the column {@code property}, counting one more in-memory use of it */
  Col column(String property, PropertyType type) {
    Col c = cols.computeIfAbsent(property, k -> new Col(type));
    c.refs++;
    return c;
  }

  /** One use of {@code property} went to the Lance scan instead of memory. */
  void release(String property) {
    Col c = cols.get(property);
    if (c != null) {
      c.refs--;
    }
  }

  /** Fixes {@link #columns} (the projection read from Lance) once planning is done. */
  void finish() {
    columns.clear();
    int i = 0;
    for (Map.Entry<String, Col> e : cols.entrySet()) {
      if (e.getValue().refs > 0) {
        e.getValue().index = i++;
        columns.put(e.getKey(), e.getValue().type);
      }
    }
  }

  boolean hasFilters() {
    return !pushed.isEmpty() || !residual.isEmpty();
  }

  /** Whether introducing this variable needs its row (columns or filters), not just its id. */
  boolean needsRow() {
    return !columns.isEmpty() || hasFilters();
  }

  RowFilter pushedFilter() {
    return pushed.isEmpty() ? null : pushed.size() == 1 ? pushed.get(0) : new RowFilter.And(pushed);
  }

  boolean acceptsResidual(Entity e) {
    for (Predicate<Entity> p : residual) {
      if (!p.test(e)) {
        return false;
      }
    }
    return true;
  }

  String describe() {
    return "$" + written + (name.equals(written) ? "" : " (" + name + ")") + ": " + typeName;
  }
}
