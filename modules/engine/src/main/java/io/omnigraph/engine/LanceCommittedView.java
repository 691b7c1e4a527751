package io.omnigraph.engine;

import io.omnigraph.engine.load.CommittedGraphView;
import io.omnigraph.engine.table.TableStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;

/** The loader's view of committed rows, answered by scans of the pinned tables of one manifest cut. */
final class LanceCommittedView implements CommittedGraphView {
  private final TableStore tables;
  private final CommittedTables committed;

  LanceCommittedView(TableStore tables, CommittedTables committed) {
    this.tables = tables;
    this.committed = committed;
  }

  @Override
  public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    if (ids.isEmpty()) {
      return Set.of();
    }
    return new LinkedHashSet<>(tables.existingIds(committed.snapshot("node:" + nodeType), ids));
  }

  @Override
  public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    Map<String, Long> counts = new HashMap<>();
    if (srcIds.isEmpty()) {
      return counts;
    }
    for (String filter : inFilters("src", srcIds)) {
      tables.scan(committed.snapshot("edge:" + edgeType), List.of("id", "src"), filter, root -> {
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
    List<String> projection = new ArrayList<>();
    projection.add("id");
    projection.addAll(columns);
    tables.scan(committed.snapshot(tableKey), projection, null, root -> {
      VarCharVector id = (VarCharVector) root.getVector("id");
      List<FieldVector> cols = columns.stream().map(root::getVector).toList();
      for (int i = 0; i < root.getRowCount(); i++) {
        List<Object> tuple = new ArrayList<>(cols.size());
        for (FieldVector c : cols) {
          tuple.add(loaderValue(c, i));
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
    tables.scan(committed.snapshot("edge:" + edgeType), List.of("id", endpointColumn), null, root -> {
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

  /** Arrow cell to the loader's value representation (see {@code load.Values}). */
  static Object loaderValue(FieldVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (v instanceof VarCharVector s) {
      return text(s, i);
    }
    if (v instanceof UInt4Vector u) {
      return Integer.toUnsignedLong(u.get(i));
    }
    if (v instanceof TimeStampVector t) {
      return t.get(i);
    }
    if (v instanceof BitVector b) {
      return b.get(i) == 1;
    }
    return v.getObject(i);
  }

  private static String text(VarCharVector v, int i) {
    return new String(v.get(i), StandardCharsets.UTF_8);
  }

  /** {@code column IN (...)} filters of at most 1,024 quoted values each. */
  private static List<String> inFilters(String column, Set<String> values) {
    List<String> out = new ArrayList<>();
    StringBuilder b = null;
    int n = 0;
    for (String v : values) {
      if (b == null) {
        b = new StringBuilder(column).append(" IN (");
      } else {
        b.append(", ");
      }
      b.append('\'').append(v.replace("'", "''")).append('\'');
      if (++n == 1024) {
        out.add(b.append(')').toString());
        b = null;
        n = 0;
      }
    }
    if (b != null) {
      out.add(b.append(')').toString());
    }
    return out;
  }
}
