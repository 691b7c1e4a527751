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

  /** Aggregating: the group key columns and the aggregate columns, by projection index. */
  private final int[] keys;
  private final int[] aggregated;
  /**
   * Aggregating: the slot of the one variable every group key reads (then a row's group is found
   * by that entity's identity first: the same entity instance always has the same key values), or -1.
   */
  private final int keySlot;
  /** Entity → its group (identity), at most {@value #GROUP_MEMO_MAX} entries, then forgotten. */
  private final Map<Entity, Object[]> groupOf = new java.util.IdentityHashMap<>();
  static final int GROUP_MEMO_MAX = 1 << 16;

  ResultSink(ReadPlan plan) {
    this.plan = plan;
    this.width = plan.projections.size();
    List<Integer> k = new ArrayList<>();
    List<Integer> a = new ArrayList<>();
    java.util.Set<Binding> keyVars = new java.util.HashSet<>();
    for (int i = 0; i < width; i++) {
      ReadPlan.Projection p = plan.projections.get(i);
      (p.agg() == null ? k : a).add(i);
      if (p.agg() == null) {
        keyVars.addAll(p.val().vars());
      }
    }
    this.keys = k.stream().mapToInt(Integer::intValue).toArray();
    this.aggregated = a.stream().mapToInt(Integer::intValue).toArray();
    this.keySlot = keyVars.size() == 1 ? keyVars.iterator().next().slot : -1;
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

  /**
   * Whether the rows reaching this sink from a one-hop expansion to {@code to} can be given as
   * (destination, pair count) instead (docs/queries.md, "Traversal strategies"): aggregating (no
   * rrf), every group key reads only {@code to}, and every aggregate is a {@code count} of a value
   * of {@code to} or of a variable (never null on a row), or a {@code min}/{@code max} of a value
   * of {@code to}. Then a destination adds its count to its group's counts and its value once to
   * the minimum and maximum; {@code sum} and {@code avg} take the rows.
   */
  boolean takesPairCounts(Binding to) {
    if (!plan.aggregate || plan.rrf != null) {
      return false;
    }
    for (ReadPlan.Projection p : plan.projections) {
      boolean onlyTo = p.val().vars().stream().allMatch(b -> b == to);
      if (p.agg() == null || p.agg() == ReadPlan.Agg.MIN || p.agg() == ReadPlan.Agg.MAX) {
        if (!onlyTo) {
          return false;
        }
      } else if (p.agg() == ReadPlan.Agg.COUNT) {
        if (!onlyTo && !p.val().nodeVar()) {
          return false;
        }
      } else {
        return false; // sum/avg: a value times a count is not always the same double as the count's sum
      }
    }
    return true;
  }

  /** Adds {@code n} identical rows {@code slots} to their group ({@link #takesPairCounts}). */
  void addPairs(Entity[] slots, long n) {
    aggregate(slots, n);
  }

  /** Records the rows held now (after each piece of pair counts). */
  void measure() {
    maxHeld = Math.max(maxHeld, groups.size());
  }

  private void aggregate(Entity[] slots) {
    aggregate(slots, 1);
  }

  private void aggregate(Entity[] slots, long n) {
    Object[] acc;
    Entity g = keySlot >= 0 ? slots[keySlot] : null;
    if (g != null) {
      acc = groupOf.get(g);
      if (acc == null) {
        acc = group(slots);
        if (groupOf.size() >= GROUP_MEMO_MAX) {
          groupOf.clear(); // bounded: forgotten entities find their group by key again
        }
        groupOf.put(g, acc);
      }
    } else {
      acc = group(slots);
    }
    for (int i : aggregated) {
      ReadPlan.Projection p = plan.projections.get(i);
      Object v = p.val().fn().apply(slots);
      if (v == null) {
        continue;
      }
      ScalarKind k = ReadValues.kind(p.val().type());
      switch (p.agg()) {
        case COUNT -> ((long[]) acc[i])[0] += n;
        case SUM, AVG -> {
          double[] s = (double[]) acc[i];
          s[0] += ReadValues.integerOrDouble(k, v); // n is 1: sum and avg never take pair counts
          s[1] += 1;
        }
        case MIN -> acc[i] = acc[i] == null || ReadValues.compare(k, v, k, acc[i]) < 0 ? v : acc[i];
        case MAX -> acc[i] = acc[i] == null || ReadValues.compare(k, v, k, acc[i]) > 0 ? v : acc[i];
      }
    }
  }

  /** The group of this row's key values (computed), made with the key values on first sight. */
  private Object[] group(Entity[] slots) {
    if (keys.length == 0 && !groups.isEmpty()) {
      return groups.values().iterator().next(); // no group key: the one group
    }
    List<Object> key = new ArrayList<>(keys.length);
    for (int i : keys) {
      key.add(plan.projections.get(i).val().fn().apply(slots));
    }
    Object[] acc = groups.get(key);
    if (acc == null) {
      acc = newAccumulators();
      for (int j = 0; j < keys.length; j++) {
        acc[keys[j]] = key.get(j);
      }
      groups.put(key, acc);
    }
    return acc;
  }

  private Object[] newAccumulators() {
    Object[] acc = new Object[width];
    for (int i = 0; i < width; i++) {
      ReadPlan.Agg a = plan.projections.get(i).agg();
      if (a == ReadPlan.Agg.COUNT) {
        acc[i] = new long[1];
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
      if (a == ReadPlan.Agg.COUNT) {
        v = ((long[]) v)[0];
      } else if (a == ReadPlan.Agg.SUM || a == ReadPlan.Agg.AVG) {
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
      if (groups.isEmpty() && keys.length == 0) {
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
