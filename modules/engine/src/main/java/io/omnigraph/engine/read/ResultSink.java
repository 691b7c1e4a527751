package io.omnigraph.engine.read;

import io.omnigraph.engine.schema.ScalarKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/** Projection, aggregation, ordering and limit of a read query's binding rows (docs/queries.md, "Return", "Order"). */
final class ResultSink implements ReadExecutor.Sink {
  private final ReadPlan plan;
  private final Comparator<Object[]> order;
  private final List<Object[]> rows = new ArrayList<>();
  private final PriorityQueue<Object[]> top;
  private final Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
  private final int width;
  /** rrf: the rows of each candidate entity, in arrival order. */
  private final Map<String, List<Object[]>> byEntity = new LinkedHashMap<>();
  private int byEntityRows;
  /** The most rows (or groups) this sink held at once, measured after each piece (docs/queries.md, "Execution"). */
  private int maxHeld;

  ResultSink(ReadPlan plan) {
    this.plan = plan;
    this.width = plan.projections.size();
    this.order = plan.orderings.isEmpty() || plan.rrf != null ? null : keyComparator(plan);
    this.top = order != null && plan.limit >= 0 && !plan.aggregate ? new PriorityQueue<>(order.reversed()) : null;
  }

  @Override
  public void push(List<Row> in) {
    try {
      accept(in);
    } finally {
      maxHeld = Math.max(maxHeld, rows.size() + (top == null ? 0 : top.size()) + groups.size() + byEntityRows);
    }
  }

  /** @return the most result rows, heap entries, groups or rrf rows held at once */
  int maxHeld() {
    return maxHeld;
  }

  private void accept(List<Row> in) {
    for (Row r : in) {
      if (plan.aggregate) {
        aggregate(r.slots);
        continue;
      }
      Object[] out = new Object[width + plan.orderings.size() + plan.tieBreak.size()];
      for (int i = 0; i < width; i++) {
        out[i] = plan.projections.get(i).val().fn().apply(r.slots);
      }
      boolean candidate = true;
      for (int i = 0; i < plan.orderings.size(); i++) {
        ReadPlan.Order o = plan.orderings.get(i);
        if (o.rrf() != null) {
          continue;
        }
        out[width + i] = o.column() >= 0 ? out[o.column()] : o.val().fn().apply(r.slots);
        candidate &= !(o.candidatesOnly() && out[width + i] == null);
      }
      if (!candidate) {
        continue;
      }
      for (int i = 0; i < plan.tieBreak.size(); i++) {
        Entity e = r.slots[plan.tieBreak.get(i).slot];
        out[width + plan.orderings.size() + i] = e == null ? null : e.id();
      }
      if (plan.rrf != null) {
        byEntity.computeIfAbsent(r.slots[plan.rrf.binding.slot].id(), k -> new ArrayList<>()).add(out);
        byEntityRows++;
        continue;
      }
      if (top != null) {
        if (plan.limit == 0) {
          continue;
        }
        top.add(out);
        if (top.size() > plan.limit) {
          top.poll();
        }
      } else {
        rows.add(out);
        if (order == null && plan.limit >= 0 && rows.size() >= plan.limit) {
          throw new ReadExecutor.Stop();
        }
      }
    }
  }

  private void aggregate(Entity[] slots) {
    List<Object> key = new ArrayList<>();
    for (ReadPlan.Projection p : plan.projections) {
      if (p.agg() == null) {
        key.add(p.val().fn().apply(slots));
      }
    }
    Object[] acc = groups.computeIfAbsent(key, k -> newAccumulators());
    for (int i = 0; i < width; i++) {
      ReadPlan.Projection p = plan.projections.get(i);
      if (p.agg() == null) {
        acc[i] = p.val().fn().apply(slots);
        continue;
      }
      Object v = p.val().fn().apply(slots);
      if (v == null) {
        continue;
      }
      ScalarKind k = ReadValues.kind(p.val().type());
      switch (p.agg()) {
        case COUNT -> acc[i] = (Long) acc[i] + 1;
        case SUM, AVG -> {
          double[] s = (double[]) acc[i];
          s[0] += ReadValues.integerOrDouble(k, v);
          s[1] += 1;
        }
        case MIN -> acc[i] = acc[i] == null || ReadValues.compare(k, v, k, acc[i]) < 0 ? v : acc[i];
        case MAX -> acc[i] = acc[i] == null || ReadValues.compare(k, v, k, acc[i]) > 0 ? v : acc[i];
      }
    }
  }

  private Object[] newAccumulators() {
    Object[] acc = new Object[width];
    for (int i = 0; i < width; i++) {
      ReadPlan.Agg a = plan.projections.get(i).agg();
      if (a == ReadPlan.Agg.COUNT) {
        acc[i] = 0L;
      } else if (a == ReadPlan.Agg.SUM || a == ReadPlan.Agg.AVG) {
        acc[i] = new double[2];
      }
    }
    return acc;
  }

  private Object[] finishGroup(Object[] acc) {
    Object[] out = new Object[width + plan.orderings.size() + width];
    for (int i = 0; i < width; i++) {
      ReadPlan.Agg a = plan.projections.get(i).agg();
      Object v = acc[i];
      if (a == ReadPlan.Agg.SUM || a == ReadPlan.Agg.AVG) {
        double[] s = (double[]) v;
        v = s[1] == 0 ? null : a == ReadPlan.Agg.SUM ? s[0] : s[0] / s[1];
      }
      out[i] = v;
    }
    for (int i = 0; i < plan.orderings.size(); i++) {
      out[width + i] = out[plan.orderings.get(i).column()];
    }
    System.arraycopy(out, 0, out, width + plan.orderings.size(), width);
    return out;
  }

  /** @return the result rows (projection values only), in result order */
  List<Object[]> rows() {
    List<Object[]> all;
    if (plan.aggregate) {
      all = new ArrayList<>();
      boolean keys = plan.projections.stream().anyMatch(p -> p.agg() == null);
      if (groups.isEmpty() && !keys) {
        all.add(finishGroup(newAccumulators()));
      }
      for (Object[] acc : groups.values()) {
        all.add(finishGroup(acc));
      }
      if (order != null) {
        all.sort(order);
      }
      if (plan.limit >= 0 && all.size() > plan.limit) {
        all = new ArrayList<>(all.subList(0, (int) plan.limit));
      }
    } else if (plan.rrf != null) {
      all = fused();
    } else if (top != null) {
      all = new ArrayList<>(top);
      all.sort(order);
    } else {
      all = rows;
      if (order != null) {
        all.sort(order);
      }
      if (plan.limit >= 0 && all.size() > plan.limit) {
        all = new ArrayList<>(all.subList(0, (int) plan.limit));
      }
    }
    List<Object[]> out = new ArrayList<>(all.size());
    for (Object[] r : all) {
      out.add(java.util.Arrays.copyOf(r, width));
    }
    return out;
  }

  /**
   * Reciprocal rank fusion (docs/queries.md, "Search"): each arm's rank counts only the entities
   * that reached the result; entities by descending fused score (ties: the first arm's order, then
   * the second's), every row of a winning entity (by the id tie-break), at most {@code limit} rows.
   */
  private List<Object[]> fused() {
    ReadPlan.Rrf f = plan.rrf;
    List<String> order = new ArrayList<>();
    Map<String, Double> score = new java.util.HashMap<>();
    for (List<String> arm : f.ranked) {
      int rank = 0;
      for (String id : arm) {
        if (!byEntity.containsKey(id)) {
          continue;
        }
        if (!score.containsKey(id)) {
          order.add(id);
        }
        score.merge(id, 1.0 / (f.k + rank + 1), Double::sum);
        rank++;
      }
    }
    List<String> sorted = new ArrayList<>(order);
    sorted.sort((a, b) -> Double.compare(score.get(b), score.get(a))); // stable: ties keep arm order
    Comparator<Object[]> tie = tieComparator();
    List<Object[]> out = new ArrayList<>();
    for (String id : sorted.subList(0, (int) Math.min(sorted.size(), plan.limit))) {
      List<Object[]> rows = new ArrayList<>(byEntity.get(id));
      rows.sort(tie);
      for (Object[] r : rows) {
        if (out.size() < plan.limit) {
          out.add(r);
        }
      }
    }
    return out;
  }

  private Comparator<Object[]> tieComparator() {
    int from = width + plan.orderings.size();
    return (a, b) -> {
      for (int i = 0; i < plan.tieBreak.size(); i++) {
        int c = compareNullsFirst(ScalarKind.STRING, a[from + i], b[from + i]);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  /**
   * Orders by the written keys (nulls first ascending, last descending), then ascending by
   * every tie-break key: each named variable's id, or for aggregates every result column.
   */
  private static Comparator<Object[]> keyComparator(ReadPlan plan) {
    int width = plan.projections.size();
    int n = plan.orderings.size();
    List<ScalarKind> tieKinds = new ArrayList<>();
    if (plan.aggregate) {
      plan.projections.forEach(p -> tieKinds.add(ReadValues.kind(p.type())));
    } else {
      plan.tieBreak.forEach(b -> tieKinds.add(ScalarKind.STRING));
    }
    return (a, b) -> {
      for (int i = 0; i < n; i++) {
        ReadPlan.Order o = plan.orderings.get(i);
        int c = compareNullsFirst(o.kind(), a[width + i], b[width + i]);
        if (c != 0) {
          return o.descending() ? -c : c;
        }
      }
      for (int i = 0; i < tieKinds.size(); i++) {
        int c = compareNullsFirst(tieKinds.get(i), a[width + n + i], b[width + n + i]);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  static int compareNullsFirst(ScalarKind k, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    if (k == null) {
      return ReadValues.compareCodePoints(String.valueOf(a), String.valueOf(b));
    }
    return ReadValues.compare(k, a, k, b);
  }
}
