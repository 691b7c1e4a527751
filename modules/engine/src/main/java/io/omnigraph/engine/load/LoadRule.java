package io.omnigraph.engine.load;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.validate.ConstraintRule;

/**
 * The stable rule names a load validation failure carries in {@link
 * ErrorDetail.Validation#rule()}. Every loader error is an {@link InvalidInputException} whose
 * message starts with {@code line N: } and whose detail names the line, the field (property, key
 * or envelope member) where there is one, and one of these rules. The graph-rule violations ({@code
 * @range}, {@code @check}, {@code @unique}, endpoints, {@code @card}) are built by {@code validate}
 * ({@link ConstraintRule}); their constants here carry the same codes.
 */
public enum LoadRule {
  /** The line is not one JSON object (or has a duplicate key, or trailing content). */
  INVALID_JSON("invalid_json"),
  /** A line is longer than the per-line byte limit. */
  LINE_TOO_LONG("line_too_long"),
  /** A line has more JSON tokens than the per-line limit (131,072 by default). */
  TOO_MANY_TOKENS("too_many_tokens"),
  /** The envelope is malformed: not exactly one of type/edge, a non-string member, unknown member. */
  INVALID_ENVELOPE("invalid_envelope"),
  /** A reserved physical name was used as an envelope or data field. */
  RESERVED_FIELD("reserved_field"),
  /** The node type is not in the schema. */
  UNKNOWN_NODE_TYPE("unknown_node_type"),
  /** The edge type is not in the schema (looked up case-insensitively). */
  UNKNOWN_EDGE_TYPE("unknown_edge_type"),
  /** A data field is not a property of the type. */
  UNKNOWN_FIELD("unknown_field"),
  /** A value has the wrong JSON type for its property. */
  TYPE_MISMATCH("type_mismatch"),
  /** An integer does not fit its property's width or signedness, or a float is not finite after narrowing. */
  OUT_OF_RANGE("out_of_range"),
  /** A non-nullable property is null or missing. */
  NULL_VALUE("null_value"),
  /** A list property contains a null item. */
  LIST_NULL_ITEM("list_null_item"),
  /** A vector has the wrong number of elements. */
  VECTOR_LENGTH("vector_length"),
  /** A value is not in its enum's value set. */
  ENUM_VALUE("enum_value"),
  /** A value violates {@code @range}. */
  RANGE_VIOLATION(ConstraintRule.RANGE_VIOLATION.code()),
  /** A value does not match {@code @check}. */
  CHECK_VIOLATION(ConstraintRule.CHECK_VIOLATION.code()),
  /** A keyed node lacks a non-null key value. */
  MISSING_KEY("missing_key"),
  /** An explicit {@code data.id} is not a non-empty string or differs from the canonical key id. */
  INVALID_ID("invalid_id"),
  /** The same id occurs twice in one append or overwrite load. */
  DUPLICATE_KEY("duplicate_key"),
  /** A {@code @unique} tuple is held by two entities. */
  UNIQUE_VIOLATION(ConstraintRule.UNIQUE_VIOLATION.code()),
  /** An edge endpoint does not exist in its node type (committed or in this load). */
  DANGLING_EDGE(ConstraintRule.DANGLING_EDGE.code()),
  /** A source node has too few or too many outgoing edges of a type with {@code @card}. */
  CARDINALITY_VIOLATION(ConstraintRule.CARDINALITY_VIOLATION.code()),
  /** A Blob value is not managed {@code base64:} data (external URIs are refused) or is not valid base64. */
  INVALID_BLOB("invalid_blob");

  private final String code;

  LoadRule(String code) {
    this.code = code;
  }

  /** @return the stable snake_case name written to {@code validation.rule} */
  public String code() {
    return code;
  }

  InvalidInputException at(long line, String field, String message) {
    return new InvalidInputException(
        "line " + line + ": " + message, new ErrorDetail.Validation(line, null, field, code));
  }
}
