package io.omnigraph.api;

/**
 * How {@link Graph#applySchema} applies a plan.
 *
 * @param allowDataLoss turn every drop into a hard drop: the dropped table's or column's data is
 *     removed from the current version and its older versions become unreachable for time travel
 *     once {@code cleanup} runs; without it drops are soft (the data stays readable at older commits)
 * @param actor who applies (recorded in the graph commit), or {@code null}
 * @param message the commit message, or {@code null} for {@code schema apply}
 */
public record SchemaApplyOptions(boolean allowDataLoss, String actor, String message) {
  /** @return soft drops, no actor, the default message */
  public static SchemaApplyOptions defaults() {
    return new SchemaApplyOptions(false, null, null);
  }

  /** @return these options with {@code allowDataLoss} set */
  public SchemaApplyOptions withAllowDataLoss(boolean allow) {
    return new SchemaApplyOptions(allow, actor, message);
  }

  /** @return these options with the actor set */
  public SchemaApplyOptions withActor(String who) {
    return new SchemaApplyOptions(allowDataLoss, who, message);
  }
}
