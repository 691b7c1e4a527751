package io.omnigraph.engine.schema;

/**
 * The character cursor both hand-written lexers ({@code .pg} schema and {@code .gq} query) stand
 * on, so the two languages agree on what they share: 1-based line:column positions in UTF-16
 * code units, whitespace and non-nesting {@code // line} / {@code /* block *}{@code /} comments,
 * words {@code [A-Za-z_][A-Za-z0-9_]*}, and string literals that decode {@code \"}, {@code \\},
 * {@code \n}, {@code \t}, {@code \r} while any other escaped character keeps its backslash (so a
 * regular expression such as {@code "\d+"} needs no doubling). Each lexer keeps its own token set
 * and number rules and reports errors with its own exception type.
 *
 * @param <E> the lexer's syntax-error exception
 */
public final class SourceScanner<E extends Exception> {
  /**
   * Makes the lexer's syntax error.
   *
   * @param <E> the exception type
   */
  @FunctionalInterface
  public interface SyntaxError<E extends Exception> {
    /**
     * @param pos where the problem is
     * @param detail what is wrong and what was expected
     * @return the exception to throw
     */
    E at(SourcePos pos, String detail);
  }

  private final String src;
  private final SyntaxError<E> error;
  private int offset;
  private int line = 1;
  private int column = 1;

  /**
   * @param src the source text
   * @param error how the lexer reports a syntax error
   */
  public SourceScanner(String src, SyntaxError<E> error) {
    this.src = src;
    this.error = error;
  }

  /** @return the position of the next character */
  public SourcePos here() {
    return new SourcePos(line, column);
  }

  /** @return the character {@code ahead} places after the cursor, or {@code '\0'} past the end */
  public char peek(int ahead) {
    int i = offset + ahead;
    return i < src.length() ? src.charAt(i) : '\0';
  }

  /** @return whether the whole text has been consumed */
  public boolean atEnd() {
    return offset >= src.length();
  }

  /** @return the cursor's offset in the text, for {@link #textFrom} */
  public int offset() {
    return offset;
  }

  /** @return the text from {@code start} to the cursor */
  public String textFrom(int start) {
    return src.substring(start, offset);
  }

  /** Consumes one character, tracking line and column. @return the character */
  public char advance() {
    char c = src.charAt(offset++);
    if (c == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
    return c;
  }

  /**
   * Skips whitespace and comments.
   *
   * @throws E for a block comment that never closes (at the comment's start)
   */
  public void skipTrivia() throws E {
    while (!atEnd()) {
      char c = peek(0);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek(0) != '\n') {
          advance();
        }
      } else if (c == '/' && peek(1) == '*') {
        SourcePos start = here();
        advance();
        advance();
        boolean closed = false;
        while (!atEnd()) {
          if (peek(0) == '*' && peek(1) == '/') {
            advance();
            advance();
            closed = true;
            break;
          }
          advance();
        }
        if (!closed) {
          throw error.at(start, "unterminated block comment (expected '*/')");
        }
      } else {
        return;
      }
    }
  }

  /** Consumes {@code [A-Za-z0-9_]*}. @return the word (empty if none) */
  public String word() {
    int start = offset;
    while (!atEnd() && (isAsciiLetter(peek(0)) || isDigit(peek(0)) || peek(0) == '_')) {
      advance();
    }
    return textFrom(start);
  }

  /** Consumes {@code [0-9]*}. @return the digits (empty if none) */
  public String digits() {
    int start = offset;
    while (!atEnd() && isDigit(peek(0))) {
      advance();
    }
    return textFrom(start);
  }

  /**
   * Consumes a string literal; the cursor is on its opening quote.
   *
   * @param pos where the literal starts (for errors)
   * @return the decoded value
   * @throws E when the literal is not closed
   */
  public String stringLiteral(SourcePos pos) throws E {
    advance(); // opening quote
    StringBuilder value = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw error.at(pos, "unterminated string literal (expected closing '\"')");
      }
      char c = advance();
      if (c == '"') {
        return value.toString();
      }
      if (c == '\\') {
        if (atEnd()) {
          throw error.at(pos, "unterminated string literal (expected closing '\"')");
        }
        char e = advance();
        switch (e) {
          case '"' -> value.append('"');
          case '\\' -> value.append('\\');
          case 'n' -> value.append('\n');
          case 't' -> value.append('\t');
          case 'r' -> value.append('\r');
          default -> value.append('\\').append(e);
        }
      } else {
        value.append(c);
      }
    }
  }

  /** @return {@code 'c'}, or {@code U+XXXX} for a control character */
  public static String quoteChar(char c) {
    if (c < 0x20 || c == 0x7f) {
      return String.format("U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  /** @return whether {@code c} is {@code [A-Za-z]} */
  public static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** @return whether {@code c} is {@code [0-9]} */
  public static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
