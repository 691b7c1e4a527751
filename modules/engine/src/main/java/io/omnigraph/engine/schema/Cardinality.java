package io.omnigraph.engine.schema;

import java.util.OptionalLong;

/**
 * Allowed number of outgoing edges of one edge type per source node ({@code @card(min..max)}).
 *
 * @param min inclusive minimum (default 0)
 * @param max inclusive maximum, empty = unbounded
 */
public record Cardinality(long min, OptionalLong max) {
  /** The default {@code 0..} (unbounded). */
  public static final Cardinality UNBOUNDED = new Cardinality(0, OptionalLong.empty());

  public Cardinality {
    if (min < 0) {
      throw new IllegalArgumentException("cardinality minimum must be >= 0");
    }
    if (max.isPresent() && max.getAsLong() < min) {
      throw new IllegalArgumentException("cardinality minimum " + min + " exceeds maximum " + max.getAsLong());
    }
  }

  /** @return true if this is the default {@code 0..} */
  public boolean isUnbounded() {
    return min == 0 && max.isEmpty();
  }

  /**
   * @param count number of outgoing edges of a source node
   * @return true if {@code min <= count <= max}
   */
  public boolean admits(long count) {
    return count >= min && (max.isEmpty() || count <= max.getAsLong());
  }

  @Override
  public String toString() {
    return "@card(" + min + ".." + (max.isPresent() ? Long.toString(max.getAsLong()) : "") + ")";
  }
}
