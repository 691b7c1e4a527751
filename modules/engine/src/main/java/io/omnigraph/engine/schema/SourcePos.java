package io.omnigraph.engine.schema;

/**
 * A 1-based position in {@code .pg} source text.
 *
 * @param line 1-based line
 * @param column 1-based column (in UTF-16 code units)
 */
public record SourcePos(int line, int column) {
  /** Position used for values that did not come from source text. */
  public static final SourcePos NONE = new SourcePos(0, 0);

  @Override
  public String toString() {
    return line + ":" + column;
  }
}
