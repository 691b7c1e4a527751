package io.omnigraph.engine.gq;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.SourcePos;
import java.util.Objects;

/**
 * A {@code .gq} query that cannot be run: a syntax error, a type error against the catalog, a
 * mixed constructive/destructive mutation (the D₂ rule), or parameter values that do not fit the
 * declared parameters.
 *
 * <p>Every instance carries a {@link Code} and, when the error is tied to source text, the 1-based
 * {@link #line()} and {@link #column()} of the offending token (both {@code 0} otherwise, e.g. for a
 * missing parameter value). {@link #getMessage()} is {@code "line L:C: [code] detail"} (or {@code
 * "[code] detail"} without a position). All of these are the caller's fault: {@link
 * #toInvalidInput()} gives the public HTTP-400 form. Nothing is ever read or written before such an
 * error is raised.
 */
public final class QueryException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * What went wrong. {@code T1}..{@code T24} are the type-check codes of docs/errors.md; the
   * others name errors the reference reports without a code.
   */
  public enum Code {
    /** The text does not follow the {@code .gq} grammar. */
    SYNTAX("syntax"),
    /** A query of that name is not in the file, or a name is declared twice. */
    QUERY_NAME("query_name"),
    /** A parameter declaration is invalid (reserved name, duplicate). */
    PARAM_DECL("param_decl"),
    /** D₂: a mutation mixes inserts/updates with deletes. */
    MIXED_MUTATION("mixed_mutation"),
    /** An update assigns a {@code @key} member or a system column. */
    IMMUTABLE_PROPERTY("immutable_property"),
    /** Supplied parameter values do not fit the declaration (missing, extra, mistyped, null). */
    PARAM_VALUE("param_value"),
    /** A node variable is bound to two different types, or a list literal is malformed. */
    BINDING("binding"),
    T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20,
    T21, T22, T23, T24;

    private final String rule;

    Code() {
      this.rule = name();
    }

    Code(String rule) {
      this.rule = rule;
    }

    /** @return the stable rule name used in {@link ErrorDetail.Validation#rule()}, e.g. {@code T12} */
    public String rule() {
      return rule;
    }
  }

  private final Code code;
  private final int line;
  private final int column;
  private final String detail;

  /**
   * @param code what went wrong
   * @param pos where, or {@link SourcePos#NONE} when not tied to source text
   * @param detail the message without position or code prefix
   */
  public QueryException(Code code, SourcePos pos, String detail) {
    super(prefix(pos) + "[" + Objects.requireNonNull(code, "code").rule() + "] " + Objects.requireNonNull(detail, "detail"));
    this.code = code;
    this.line = pos.line();
    this.column = pos.column();
    this.detail = detail;
  }

  private static String prefix(SourcePos pos) {
    return pos.line() > 0 ? "line " + pos.line() + ":" + pos.column() + ": " : "";
  }

  static QueryException syntax(SourcePos pos, String detail) {
    return new QueryException(Code.SYNTAX, pos, detail);
  }

  public static QueryException param(String detail) {
    return new QueryException(Code.PARAM_VALUE, SourcePos.NONE, detail);
  }

  /** @return the error class */
  public Code code() {
    return code;
  }

  /** @return 1-based line of the offending token, 0 when not tied to a position */
  public int line() {
    return line;
  }

  /** @return 1-based column of the offending token, 0 when not tied to a position */
  public int column() {
    return column;
  }

  /** @return the message without position or code prefix */
  public String detail() {
    return detail;
  }

  /**
   * The public form of this error: an {@link InvalidInputException} (HTTP 400) whose {@link
   * ErrorDetail.Validation} carries the line, column (when known) and {@link Code#rule()}.
   *
   * @return the exception to throw at the API boundary, with this one as its cause
   */
  public InvalidInputException toInvalidInput() {
    return new InvalidInputException(
        "query error: " + getMessage(),
        new ErrorDetail.Validation(
            line > 0 ? (long) line : null, line > 0 ? (long) column : null, null,
            code.rule()),
        this);
  }
}
