package io.omnigraph.engine;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.engine.load.ArrowRows;
import io.omnigraph.engine.validate.CommittedGraphView;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.TableStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/** The loader's view of committed rows, answered by scans of the pinned tables of one manifest cut. */
final class LanceCommittedView implements CommittedGraphView {
  /** The type of an edge's {@code src} and {@code dst} columns (node ids). */
  private static final PropertyType ENDPOINT = new PropertyType.Scalar(ScalarKind.STRING);

  private final Catalog catalog;
  private final TableStore tables;
  private final CommittedTables committed;

  LanceCommittedView(Catalog catalog, TableStore tables, CommittedTables committed) {
    this.catalog = catalog;
    this.tables = tables;
    this.committed = committed;
  }

  @Override
  public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return new LinkedHashSet<>(tables.reader().existingIds(committed.snapshot("node:" + nodeType), ids));
  }

  @Override
  public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    Map<String, Long> counts = new HashMap<>();
    if (srcIds.isEmpty()) {
      return counts;
    }
    for (LanceFilter filter : inFilters("src", srcIds)) {
      tables.reader().scan(committed.snapshot("edge:" + edgeType), List.of("id", "src"), filter, root -> {
        VarCharVector id = (VarCharVector) root.getVector("id");
        VarCharVector src = (VarCharVector) root.getVector("src");
        for (int i = 0; i < root.getRowCount(); i++) {
          if (!ignoredEdgeIds.contains(text(id, i))) {
            counts.merge(text(src, i), 1L, Long::sum);
          }
        }
      });
    }
    return counts;
  }

  @Override
  public Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns, Set<List<Object>> tuples) {
    Map<List<Object>, Set<String>> out = new HashMap<>();
    if (tuples.isEmpty()) {
      return out;
    }
    List<PropertyType> types = columns.stream().map(c -> columnType(tableKey, c)).toList();
    List<String> projection = new ArrayList<>();
    projection.add("id");
    projection.addAll(columns);
    tables.reader().scan(committed.snapshot(tableKey), projection, null, root -> {
      VarCharVector id = (VarCharVector) root.getVector("id");
      List<FieldVector> cols = columns.stream().map(root::getVector).toList();
      for (int i = 0; i < root.getRowCount(); i++) {
        List<Object> tuple = new ArrayList<>(cols.size());
        for (int c = 0; c < cols.size(); c++) {
          // The loader's representation (e.g. DateTime as epoch millis), so tuples compare equal.
          tuple.add(ArrowRows.value(cols.get(c), types.get(c), i));
        }
        if (tuples.contains(tuple)) {
          out.computeIfAbsent(tuple, k -> new HashSet<>()).add(text(id, i));
        }
      }
    });
    return out;
  }

  @Override
  public List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
    List<String[]> out = new ArrayList<>();
    tables.reader().scan(committed.snapshot("edge:" + edgeType), List.of("id", endpointColumn), null, root -> {
      VarCharVector id = (VarCharVector) root.getVector("id");
      VarCharVector end = (VarCharVector) root.getVector(endpointColumn);
      for (int i = 0; i < root.getRowCount() && out.size() < limit; i++) {
        String target = text(end, i);
        if (!survivingIds.contains(target)) {
          out.add(new String[] {text(id, i), target});
        }
      }
    });
    return out;
  }

  /** The declared type of a {@code @unique} column of {@code node:T} or {@code edge:E}. */
  private PropertyType columnType(String tableKey, String column) {
    String typeName = tableKey.substring(tableKey.indexOf(':') + 1);
    Optional<Property> property;
    if (tableKey.startsWith("edge:")) {
      if (column.equals("src") || column.equals("dst")) {
        return ENDPOINT;
      }
      property = catalog.edge(typeName).flatMap(e -> e.property(column));
    } else {
      property = catalog.node(typeName).flatMap(n -> n.property(column));
    }
    return property.map(Property::type).orElseThrow(() -> new InternalErrorException(
        "@unique column " + column + " is not a property of " + tableKey, null));
  }

  private static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  /** {@code column IN (...)} filters of at most 1,024 values each. */
  private static List<LanceFilter> inFilters(String column, Set<String> values) {
    List<LanceFilter> out = new ArrayList<>();
    List<String> chunk = new ArrayList<>();
    for (String v : values) {
      chunk.add(v);
      if (chunk.size() == 1024) {
        out.add(LanceFilter.in(column, chunk));
        chunk.clear();
      }
    }
    if (!chunk.isEmpty()) {
      out.add(LanceFilter.in(column, chunk));
    }
    return out;
  }
}
