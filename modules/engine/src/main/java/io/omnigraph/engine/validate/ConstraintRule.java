package io.omnigraph.engine.validate;

/**
 * The graph rules whose violations {@code validate} reports, with the stable rule name each error
 * carries in {@link io.omnigraph.api.ErrorDetail.Validation#rule()} (the same name whether a load or
 * a mutation broke the rule).
 */
public enum ConstraintRule {
  /** A value violates {@code @range}. */
  RANGE_VIOLATION("range_violation"),
  /** A value does not match {@code @check}. */
  CHECK_VIOLATION("check_violation"),
  /** A {@code @unique} tuple is held by two entities. */
  UNIQUE_VIOLATION("unique_violation"),
  /** An edge endpoint does not exist in its node type. */
  DANGLING_EDGE("dangling_edge"),
  /** A source node has too few or too many outgoing edges of a type with {@code @card}. */
  CARDINALITY_VIOLATION("cardinality_violation");

  private final String code;

  ConstraintRule(String code) {
    this.code = code;
  }

  /** @return the stable snake_case name written to {@code validation.rule} */
  public String code() {
    return code;
  }
}
