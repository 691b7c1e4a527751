package io.omnigraph.engine.validate;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.engine.schema.SourcePos;
import java.util.Objects;

/**
 * Where a pending row came from, so that a violation names it: an input line of a load, or a
 * statement of a mutation. Decides the error message prefix and the position in the error detail.
 */
public sealed interface Site permits Site.Line, Site.Statement {

  /** @return the message prefix, ending in {@code ": "} */
  String prefix();

  /**
   * @param field the property, key or envelope member at fault (null if none)
   * @param rule the stable rule name
   * @return the error detail naming this site
   */
  ErrorDetail.Validation detail(String field, String rule);

  /**
   * A 1-based input line of an NDJSON load: {@code "line N: ..."}.
   *
   * @param line the line number (0 when no row can be named)
   */
  record Line(long line) implements Site {
    @Override
    public String prefix() {
      return "line " + line + ": ";
    }

    @Override
    public ErrorDetail.Validation detail(String field, String rule) {
      return new ErrorDetail.Validation(line, null, field, rule);
    }
  }

  /**
   * A statement of a named mutation: {@code "mutation 'q' line L:C: ..."}, or {@code "mutation 'q': ..."}
   * when the position is unknown ({@link SourcePos#NONE}).
   *
   * @param query the mutation's name
   * @param pos the statement's position
   */
  record Statement(String query, SourcePos pos) implements Site {
    public Statement {
      Objects.requireNonNull(query, "query");
      Objects.requireNonNull(pos, "pos");
    }

    @Override
    public String prefix() {
      return "mutation '" + query + "'" + (pos.line() > 0 ? " line " + pos.line() + ":" + pos.column() : "") + ": ";
    }

    @Override
    public ErrorDetail.Validation detail(String field, String rule) {
      return new ErrorDetail.Validation(pos.line() > 0 ? (long) pos.line() : null,
          pos.line() > 0 ? (long) pos.column() : null, field, rule);
    }
  }
}
