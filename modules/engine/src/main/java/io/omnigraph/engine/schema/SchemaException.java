package io.omnigraph.engine.schema;

import java.util.Objects;

/**
 * A {@code .pg} schema that cannot be compiled: a syntax error, a semantic error (unknown type,
 * duplicate name, reserved name, bad edge endpoint, invalid annotation argument, interface
 * conformance), or an identity-resolution error against an accepted schema.
 *
 * <p>Every instance carries the 1-based {@link #line()} and {@link #column()} of the offending
 * token (both {@code 0} when the error has no single source position, e.g. an identity error) and a
 * human-readable {@link #detail()} that says what was expected and what was found. {@link
 * #getMessage()} is {@code "line L:C: detail"}. The engine maps this exception to the public error
 * hierarchy (a bad-request / HTTP 400 class error).
 */
public final class SchemaException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong, coarsely. */
  public enum Kind {
    /** The text does not follow the grammar (including unknown type names in a type position). */
    SYNTAX,
    /** The text parses, but violates a rule of the language (names, endpoints, constraints, ...). */
    SEMANTIC,
    /** The schema cannot be resolved against the accepted identity-bearing IR. */
    IDENTITY
  }

  private final Kind kind;
  private final int line;
  private final int column;
  private final String detail;

  /**
   * @param kind what went wrong
   * @param line 1-based line, or 0 if the error has no source position
   * @param column 1-based column, or 0 if the error has no source position
   * @param detail the message without position prefix
   */
  public SchemaException(Kind kind, int line, int column, String detail) {
    super(line > 0 ? "line " + line + ":" + column + ": " + detail : detail);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.line = line;
    this.column = column;
    this.detail = Objects.requireNonNull(detail, "detail");
  }

  static SchemaException syntax(SourcePos pos, String detail) {
    return new SchemaException(Kind.SYNTAX, pos.line(), pos.column(), detail);
  }

  static SchemaException semantic(SourcePos pos, String detail) {
    return new SchemaException(Kind.SEMANTIC, pos.line(), pos.column(), detail);
  }

  static SchemaException identity(String detail) {
    return new SchemaException(Kind.IDENTITY, 0, 0, detail);
  }

  /** @return the error class */
  public Kind kind() {
    return kind;
  }

  /** @return 1-based line of the offending token, 0 when not tied to a position */
  public int line() {
    return line;
  }

  /** @return 1-based column of the offending token, 0 when not tied to a position */
  public int column() {
    return column;
  }

  /**
   * The public form of this error: an {@link io.omnigraph.api.InvalidInputException} (HTTP 400)
   * whose {@link io.omnigraph.api.ErrorDetail.Validation} carries the line, column and the rule
   * {@code schema_syntax}, {@code schema_semantic} or {@code schema_identity}.
   *
   * @return the exception to throw at the API boundary (this one as its cause)
   */
  public io.omnigraph.api.InvalidInputException toInvalidInput() {
    return new io.omnigraph.api.InvalidInputException(
        "schema error: " + getMessage(),
        new io.omnigraph.api.ErrorDetail.Validation(
            line > 0 ? (long) line : null, line > 0 ? (long) column : null, null,
            "schema_" + kind.name().toLowerCase(java.util.Locale.ROOT)),
        this);
  }

  /** @return the message without the {@code line L:C:} prefix */
  public String detail() {
    return detail;
  }
}
