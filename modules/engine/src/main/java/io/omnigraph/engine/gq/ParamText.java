package io.omnigraph.engine.gq;

import java.util.Objects;

/**
 * A parameter value given as text, as on a command line ({@code --param k=v}): it is parsed
 * according to the parameter's declared type when bound (a String is taken verbatim; numbers,
 * {@code true}/{@code false}, dates as {@code YYYY-MM-DD}, date-times as RFC 3339, Blobs as {@code
 * base64:<data>}, lists and vectors as a JSON array).
 *
 * @param text the raw text after {@code =}
 */
public record ParamText(String text) {
  public ParamText {
    Objects.requireNonNull(text, "text");
  }
}
