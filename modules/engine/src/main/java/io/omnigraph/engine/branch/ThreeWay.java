package io.omnigraph.engine.branch;

import java.util.Objects;
import java.util.Optional;

/**
 * The per-row three-way decision of a branch merge (docs/branches.md, "Merge: the per-row truth
 * table"): given one id's row in the merge base, the source and the target — each possibly absent,
 * absence being a value — what the merge does with it. Rows are compared with {@link
 * Objects#equals}; callers pass a value with a faithful {@code equals} ({@code BranchMerge} passes
 * each row's canonical export line).
 */
public final class ThreeWay {
  private ThreeWay() {}

  /** What the merge does with one id. */
  public sealed interface Decision {}

  /** Keep the target's row (or its absence): nothing to write. */
  public record KeepTarget() implements Decision {}

  /** Write the source's row into the target: an insert or update. */
  public record TakeSource(Object row) implements Decision {}

  /** Delete the target's row (the source deleted it, the target did not change it). */
  public record Delete() implements Decision {}

  /** Both sides changed the row differently. */
  public record Conflict(Kind kind) implements Decision {}

  /** The kinds of a row conflict. */
  public enum Kind {
    /** The base had no row; both sides inserted one, with different values. */
    DivergentInsert,
    /** One side deleted the row the other side changed. */
    DeleteVsUpdate,
    /** Both sides changed an existing row to different values. */
    DivergentUpdate
  }

  /**
   * @param base the row in the merge base (empty: absent)
   * @param source the row on the branch merged from
   * @param target the row on the branch merged into
   */
  public static Decision decide(Optional<?> base, Optional<?> source, Optional<?> target) {
    boolean sourceChanged = !base.equals(source);
    boolean targetChanged = !base.equals(target);
    if (!sourceChanged) {
      return new KeepTarget();
    }
    if (!targetChanged) {
      return source.isPresent() ? new TakeSource(source.get()) : target.isPresent() ? new Delete() : new KeepTarget();
    }
    if (source.equals(target)) {
      return new KeepTarget(); // identical changes on both sides are never a conflict
    }
    if (base.isEmpty()) {
      return new Conflict(Kind.DivergentInsert);
    }
    if (source.isEmpty() || target.isEmpty()) {
      return new Conflict(Kind.DeleteVsUpdate);
    }
    return new Conflict(Kind.DivergentUpdate);
  }
}
