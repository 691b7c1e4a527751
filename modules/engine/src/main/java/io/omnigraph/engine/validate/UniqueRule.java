package io.omnigraph.engine.validate;

import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.Constraint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code @unique}: no two live rows of a type hold the same tuple (rows with a null member are
 * exempt). Pending rows are checked among themselves in row order (the second holder is
 * reported), then against committed holders that the pending rows do not rewrite.
 */
final class UniqueRule {
  private UniqueRule() {}

  /**
   * @param t the pending rows of one table
   * @param committed the committed graph, or null when the table's committed rows are being replaced
   */
  static void check(PendingRows t, Committed committed) {
    List<Constraint.Unique> uniques = t.uniques();
    for (int c = 0; c < uniques.size(); c++) {
      Constraint.Unique u = uniques.get(c);
      Map<List<Object>, Integer> holders = new LinkedHashMap<>(); // tuple -> row k
      for (int k = 0; k < t.size(); k++) {
        List<Object> tuple = t.uniqueTuple(c, k);
        if (tuple == null) {
          continue;
        }
        Integer prior = holders.putIfAbsent(tuple, k);
        if (prior != null && prior != k) {
          throw violation(t, u, tuple, t.id(prior), k);
        }
      }
      if (committed == null || holders.isEmpty()) {
        continue;
      }
      Map<List<Object>, Set<String>> found = committed.uniqueHolders(t.tableKey(), u.fields(), holders.keySet());
      for (Map.Entry<List<Object>, Set<String>> e : found.entrySet()) {
        Integer k = holders.get(e.getKey());
        for (String holder : e.getValue()) {
          // A committed holder that the pending rows rewrite is judged by its new values above.
          if (k != null && !holder.equals(t.id(k)) && !t.containsId(holder)) {
            throw violation(t, u, e.getKey(), holder, k);
          }
        }
      }
    }
  }

  private static InvalidInputException violation(PendingRows t, Constraint.Unique u, List<Object> tuple, String first,
      int k) {
    String cols = String.join(",", u.fields());
    return Violations.of(ConstraintRule.UNIQUE_VIOLATION, t.site(k), cols, "@unique violation on " + t.typeName() + "."
        + cols + ": value '" + render(tuple) + "' held by '" + first + "' and '" + t.id(k) + "'");
  }

  private static String render(List<Object> tuple) {
    List<String> parts = new ArrayList<>();
    for (Object o : tuple) {
      parts.add(o instanceof float[] f ? Arrays.toString(f) : String.valueOf(o));
    }
    return parts.size() == 1 ? parts.get(0) : parts.toString();
  }
}
