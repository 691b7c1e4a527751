package io.omnigraph.engine.archfixture;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.load.LoadRule;

/**
 * Deliberately violates the "only validate builds constraint-violation errors" rule twice: it reads
 * a constraint rule's code outside validate, and it spells a constraint code as a literal. Never called.
 */
public final class RogueConstraintBuilder {
  private RogueConstraintBuilder() {}

  static InvalidInputException duplicateTitle(String field) {
    return new InvalidInputException("duplicate " + field,
        new ErrorDetail.Validation(null, null, field, LoadRule.UNIQUE_VIOLATION.code()));
  }

  static InvalidInputException tooManyEdges(String field) {
    return new InvalidInputException("too many edges",
        new ErrorDetail.Validation(null, null, field, "cardinality_violation"));
  }
}
