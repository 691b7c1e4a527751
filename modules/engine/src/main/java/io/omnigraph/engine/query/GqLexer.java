package io.omnigraph.engine.query;

import io.omnigraph.engine.schema.SourcePos;

/**
 * On-demand tokenizer for {@code .gq} text (language.md §2.1). Whitespace, {@code // line} and
 * {@code /* block *}{@code /} comments (non-nesting) separate tokens.
 *
 * <p>Separate from the schema lexer because the token sets differ ({@code $variables}, {@code .},
 * the comparison operators, no enum-value rule), but it follows the same conventions: positions
 * are 1-based line:column in UTF-16 code units, and string literals decode {@code \"}, {@code \\},
 * {@code \n}, {@code \t}, {@code \r} while any other escaped character keeps its backslash, so the
 * two languages read the same string the same way.
 */
final class GqLexer {
  enum Kind {
    TYPE_NAME("type name"),
    IDENT("identifier"),
    VARIABLE("variable"),
    INTEGER("integer"),
    FLOAT("number"),
    STRING("string"),
    LBRACE("'{'"),
    RBRACE("'}'"),
    LPAREN("'('"),
    RPAREN("')'"),
    LBRACKET("'['"),
    RBRACKET("']'"),
    COLON("':'"),
    COMMA("','"),
    QUESTION("'?'"),
    AT("'@'"),
    DOT("'.'"),
    EQ("'='"),
    NE("'!='"),
    LT("'<'"),
    LE("'<='"),
    GT("'>'"),
    GE("'>='"),
    EOF("end of input");

    final String description;

    Kind(String description) {
      this.description = description;
    }
  }

  /**
   * @param kind token class
   * @param text raw source text; for strings the decoded value, for variables the name without
   *     {@code $}
   * @param pos where the token starts
   */
  record Token(Kind kind, String text, SourcePos pos) {
    String describe() {
      return switch (kind) {
        case EOF -> "end of input";
        case STRING -> "string \"" + text + "\"";
        case VARIABLE -> "'$" + text + "'";
        case TYPE_NAME, IDENT, INTEGER, FLOAT -> "'" + text + "'";
        default -> kind.description;
      };
    }

    boolean isWord(String word) {
      return (kind == Kind.IDENT || kind == Kind.TYPE_NAME) && text.equals(word);
    }
  }

  private final String src;
  private int offset;
  private int line = 1;
  private int column = 1;

  GqLexer(String src) {
    this.src = src;
  }

  private SourcePos here() {
    return new SourcePos(line, column);
  }

  private char peekChar(int ahead) {
    int i = offset + ahead;
    return i < src.length() ? src.charAt(i) : '\0';
  }

  private boolean atEnd() {
    return offset >= src.length();
  }

  private char advance() {
    char c = src.charAt(offset++);
    if (c == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
    return c;
  }

  private void skipTrivia() throws QueryException {
    while (!atEnd()) {
      char c = peekChar(0);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        advance();
      } else if (c == '/' && peekChar(1) == '/') {
        while (!atEnd() && peekChar(0) != '\n') {
          advance();
        }
      } else if (c == '/' && peekChar(1) == '*') {
        SourcePos start = here();
        advance();
        advance();
        boolean closed = false;
        while (!atEnd()) {
          if (peekChar(0) == '*' && peekChar(1) == '/') {
            advance();
            advance();
            closed = true;
            break;
          }
          advance();
        }
        if (!closed) {
          throw QueryException.syntax(start, "unterminated block comment (expected '*/')");
        }
      } else {
        return;
      }
    }
  }

  /** @return the next token */
  Token next() throws QueryException {
    skipTrivia();
    SourcePos pos = here();
    if (atEnd()) {
      return new Token(Kind.EOF, "", pos);
    }
    char c = peekChar(0);
    if (isAsciiLetter(c) || c == '_') {
      String word = word();
      return new Token(c >= 'A' && c <= 'Z' ? Kind.TYPE_NAME : Kind.IDENT, word, pos);
    }
    if (c == '$') {
      advance();
      char first = peekChar(0);
      if (!(first >= 'a' && first <= 'z') && first != '_') {
        throw QueryException.syntax(
            pos, "expected a variable name after '$' (starting with a lowercase letter or '_'), found "
                + (atEnd() ? "end of input" : quoteChar(first)));
      }
      return new Token(Kind.VARIABLE, word(), pos);
    }
    if (isDigit(c)) {
      int start = offset;
      while (!atEnd() && isDigit(peekChar(0))) {
        advance();
      }
      if (peekChar(0) == '.' && isDigit(peekChar(1))) {
        advance();
        while (!atEnd() && isDigit(peekChar(0))) {
          advance();
        }
        return new Token(Kind.FLOAT, src.substring(start, offset), pos);
      }
      if (peekChar(0) == '.' && !isAsciiLetter(peekChar(1)) && peekChar(1) != '_') {
        throw QueryException.syntax(
            here(), "a number needs digits after the decimal point (write '" + src.substring(start, offset) + ".0')");
      }
      return new Token(Kind.INTEGER, src.substring(start, offset), pos);
    }
    if (c == '"') {
      return string(pos);
    }
    advance();
    return switch (c) {
      case '{' -> new Token(Kind.LBRACE, "{", pos);
      case '}' -> new Token(Kind.RBRACE, "}", pos);
      case '(' -> new Token(Kind.LPAREN, "(", pos);
      case ')' -> new Token(Kind.RPAREN, ")", pos);
      case '[' -> new Token(Kind.LBRACKET, "[", pos);
      case ']' -> new Token(Kind.RBRACKET, "]", pos);
      case ':' -> new Token(Kind.COLON, ":", pos);
      case ',' -> new Token(Kind.COMMA, ",", pos);
      case '?' -> new Token(Kind.QUESTION, "?", pos);
      case '@' -> new Token(Kind.AT, "@", pos);
      case '.' -> new Token(Kind.DOT, ".", pos);
      case '=' -> new Token(Kind.EQ, "=", pos);
      case '!' -> {
        if (peekChar(0) == '=') {
          advance();
          yield new Token(Kind.NE, "!=", pos);
        }
        throw QueryException.syntax(pos, "unexpected character '!' (did you mean '!='?)");
      }
      case '<' -> {
        if (peekChar(0) == '=') {
          advance();
          yield new Token(Kind.LE, "<=", pos);
        }
        yield new Token(Kind.LT, "<", pos);
      }
      case '>' -> {
        if (peekChar(0) == '=') {
          advance();
          yield new Token(Kind.GE, ">=", pos);
        }
        yield new Token(Kind.GT, ">", pos);
      }
      case '-' -> throw QueryException.syntax(
          pos, isDigit(peekChar(0))
              ? "negative literals are not supported in .gq; pass the value as a parameter"
              : "unexpected character '-'");
      default -> throw QueryException.syntax(pos, "unexpected character " + quoteChar(c));
    };
  }

  private String word() {
    int start = offset;
    while (!atEnd() && (isAsciiLetter(peekChar(0)) || isDigit(peekChar(0)) || peekChar(0) == '_')) {
      advance();
    }
    return src.substring(start, offset);
  }

  private Token string(SourcePos pos) throws QueryException {
    advance(); // opening quote
    StringBuilder value = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw QueryException.syntax(pos, "unterminated string literal (expected closing '\"')");
      }
      char c = advance();
      if (c == '"') {
        return new Token(Kind.STRING, value.toString(), pos);
      }
      if (c == '\\') {
        if (atEnd()) {
          throw QueryException.syntax(pos, "unterminated string literal (expected closing '\"')");
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

  private static String quoteChar(char c) {
    if (c < 0x20 || c == 0x7f) {
      return String.format("U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
