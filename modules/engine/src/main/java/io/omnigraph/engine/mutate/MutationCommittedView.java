package io.omnigraph.engine.mutate;

import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.validate.CommittedGraphView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The committed side of one mutation as the graph rules see it: the attempt's {@link
 * io.omnigraph.engine.snapshot.GraphSnapshot} minus the rows the mutation deleted and the rows its
 * pending rows shadow (those are judged by their pending values).
 */
final class MutationCommittedView implements CommittedGraphView {
  /** Above this many multi-column tuples a {@code @unique} probe scans the table instead of filtering. */
  private static final int UNIQUE_FILTER_TUPLES = 256;

  private final MutationStaging staging;

  MutationCommittedView(MutationStaging staging) {
    this.staging = staging;
  }

  @Override
  public Set<String> existingNodeIds(String nodeType, Set<String> ids) {
    Set<String> out = new LinkedHashSet<>(staging.committed().existingNodeIds(nodeType, ids));
    out.removeAll(staging.deletedIds("node:" + nodeType));
    return out;
  }

  @Override
  public Map<String, Long> outgoingEdgeCounts(String edgeType, Set<String> srcIds, Set<String> ignoredEdgeIds) {
    String key = "edge:" + edgeType;
    Set<String> ignored = new HashSet<>(ignoredEdgeIds);
    ignored.addAll(staging.deletedIds(key));
    PendingTable p = staging.pendingOrNull(key);
    if (p != null) {
      ignored.addAll(p.ids());
    }
    return staging.committed().outgoingEdgeCounts(edgeType, srcIds, ignored);
  }

  @Override
  public Map<List<Object>, Set<String>> uniqueHolders(String tableKey, List<String> columns, Set<List<Object>> tuples) {
    PendingTable t = staging.pendingOrNull(tableKey);
    return staging.committedHolders(t, uniqueProbe(t, columns, tuples), columns, tuples);
  }

  /** Never asked: a mutation deletes the edges of the nodes it deletes instead of refusing. */
  @Override
  public List<String[]> orphanedEdges(String edgeType, String endpointColumn, Set<String> survivingIds, int limit) {
    throw new UnsupportedOperationException("a mutation never replaces a committed table");
  }

  /** A filter selecting the committed rows that may hold one of the tuples (TRUE when it cannot be narrowed). */
  private static RowFilter uniqueProbe(PendingTable t, List<String> fields, Set<List<Object>> tuples) {
    List<ColumnRef> columns = new ArrayList<>();
    for (String f : fields) {
      ColumnRef c = column(t, f);
      if (c.scalarKind() == null || c.scalarKind() == ScalarKind.BLOB || c.type() instanceof PropertyType.ListOf
          || c.type() instanceof PropertyType.VectorOf) {
        return new RowFilter.Constant(true);
      }
      columns.add(c);
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

  private static ColumnRef column(PendingTable t, String field) {
    if (t.edgeType() != null && (field.equals("src") || field.equals("dst"))) {
      return ColumnRef.system(field);
    }
    return ColumnRef.of(t.properties().get(PendingRowsView.indexOf(t.properties(), field)));
  }
}
