package io.omnigraph.engine.validate;

import io.omnigraph.api.InvalidInputException;

/** The one builder of constraint-violation errors: a typed {@link InvalidInputException} naming the rule and the site. */
final class Violations {
  private Violations() {}

  static InvalidInputException of(ConstraintRule rule, Site site, String field, String message) {
    return new InvalidInputException(site.prefix() + message, site.detail(field, rule.code()));
  }
}
