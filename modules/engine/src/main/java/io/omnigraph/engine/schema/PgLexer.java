package io.omnigraph.engine.schema;

/**
 * On-demand tokenizer for {@code .pg} text. Whitespace, {@code // line} and {@code /* block *}{@code
 * /} comments (non-nesting) separate tokens. The parser pulls tokens one at a time, which lets it
 * switch to the enum-value token rule ({@code [A-Za-z0-9_-]+}) inside {@code enum(...)}, where a
 * value may start with a digit or contain {@code -}.
 */
final class PgLexer {
  enum Kind {
    TYPE_NAME("type name"),
    IDENT("identifier"),
    INTEGER("integer"),
    FLOAT("number"),
    STRING("string"),
    ENUM_VALUE("enum value"),
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
    EQUALS("'='"),
    ARROW("'->'"),
    DOTDOT("'..'"),
    MINUS("'-'"),
    EOF("end of input");

    final String description;

    Kind(String description) {
      this.description = description;
    }
  }

  /**
   * @param kind token class
   * @param text raw source text (for strings: the decoded value)
   * @param pos where the token starts
   */
  record Token(Kind kind, String text, SourcePos pos) {
    String describe() {
      return switch (kind) {
        case EOF -> "end of input";
        case STRING -> "string \"" + text + "\"";
        case TYPE_NAME, IDENT, INTEGER, FLOAT, ENUM_VALUE -> "'" + text + "'";
        default -> kind.description;
      };
    }
  }

  private final String src;
  private int offset;
  private int line = 1;
  private int column = 1;

  PgLexer(String src) {
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

  private void skipTrivia() throws SchemaException {
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
          throw SchemaException.syntax(start, "unterminated block comment (expected '*/')");
        }
      } else {
        return;
      }
    }
  }

  /** @return the next token by the ordinary rules */
  Token next() throws SchemaException {
    skipTrivia();
    SourcePos pos = here();
    if (atEnd()) {
      return new Token(Kind.EOF, "", pos);
    }
    char c = peekChar(0);
    if (isAsciiLetter(c) || c == '_') {
      int start = offset;
      while (!atEnd() && (isAsciiLetter(peekChar(0)) || isDigit(peekChar(0)) || peekChar(0) == '_')) {
        advance();
      }
      String word = src.substring(start, offset);
      return new Token(c >= 'A' && c <= 'Z' ? Kind.TYPE_NAME : Kind.IDENT, word, pos);
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
      if (peekChar(0) == '.' && peekChar(1) != '.') {
        throw SchemaException.syntax(
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
      case '=' -> new Token(Kind.EQUALS, "=", pos);
      case '-' -> {
        if (peekChar(0) == '>') {
          advance();
          yield new Token(Kind.ARROW, "->", pos);
        }
        yield new Token(Kind.MINUS, "-", pos);
      }
      case '.' -> {
        if (peekChar(0) == '.') {
          advance();
          yield new Token(Kind.DOTDOT, "..", pos);
        }
        throw SchemaException.syntax(pos, "unexpected character '.' (a number needs digits before the decimal point)");
      }
      default -> throw SchemaException.syntax(pos, "unexpected character " + quoteChar(c));
    };
  }

  /** @return the next token by the enum-value rule {@code [A-Za-z0-9_-]+}, or a punctuation token */
  Token nextEnumValue() throws SchemaException {
    skipTrivia();
    SourcePos pos = here();
    int start = offset;
    while (!atEnd() && isEnumValueChar(peekChar(0))) {
      advance();
    }
    if (offset > start) {
      return new Token(Kind.ENUM_VALUE, src.substring(start, offset), pos);
    }
    return next();
  }

  private Token string(SourcePos pos) throws SchemaException {
    advance(); // opening quote
    StringBuilder value = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw SchemaException.syntax(pos, "unterminated string literal (expected closing '\"')");
      }
      char c = advance();
      if (c == '"') {
        return new Token(Kind.STRING, value.toString(), pos);
      }
      if (c == '\\') {
        if (atEnd()) {
          throw SchemaException.syntax(pos, "unterminated string literal (expected closing '\"')");
        }
        char e = advance();
        // Known escapes are decoded; any other escaped character keeps its backslash, so regular
        // expressions such as "\d+" in @check can be written without doubling.
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

  private static boolean isEnumValueChar(char c) {
    return isAsciiLetter(c) || isDigit(c) || c == '_' || c == '-';
  }
}
