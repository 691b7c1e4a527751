package io.omnigraph.engine.archfixture;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.load.LoadRule;
import io.omnigraph.engine.validate.ConstraintRule;

/**
 * Deliberately violates the "only validate builds constraint-violation errors" rule: it reads graph-rule
 * codes outside validate (from LoadRule and from ConstraintRule), and it spells one as a literal. Never called.
 */
public final class RogueConstraintBuilder {
  private RogueConstraintBuilder() {}

  static InvalidInputException duplicateTitle(String field) {
    return new InvalidInputException("duplicate " + field,
        new ErrorDetail.Validation(null, null, field, LoadRule.UNIQUE_VIOLATION.code()));
  }

  static InvalidInputException danglingEdge(String field) {
    return new InvalidInputException("no such node",
        new ErrorDetail.Validation(null, null, field, ConstraintRule.DANGLING_EDGE.code()));
  }

  static InvalidInputException tooManyEdges(String field) {
    return new InvalidInputException("too many edges",
        new ErrorDetail.Validation(null, null, field, "cardinality_violation"));
  }
}
