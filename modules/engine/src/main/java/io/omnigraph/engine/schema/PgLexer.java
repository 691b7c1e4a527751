package io.omnigraph.engine.schema;

import static io.omnigraph.engine.schema.SourceScanner.isAsciiLetter;
import static io.omnigraph.engine.schema.SourceScanner.isDigit;
import static io.omnigraph.engine.schema.SourceScanner.quoteChar;

/**
 * On-demand tokenizer for {@code .pg} text, on a {@link SourceScanner} (positions, comments,
 * words and string literals as in {@code .gq}). The parser pulls tokens one at a time, which lets it
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

  private final SourceScanner<SchemaException> s;

  PgLexer(String src) {
    this.s = new SourceScanner<>(src, SchemaException::syntax);
  }

  /** @return the next token by the ordinary rules */
  Token next() throws SchemaException {
    s.skipTrivia();
    SourcePos pos = s.here();
    if (s.atEnd()) {
      return new Token(Kind.EOF, "", pos);
    }
    char c = s.peek(0);
    if (isAsciiLetter(c) || c == '_') {
      return new Token(c >= 'A' && c <= 'Z' ? Kind.TYPE_NAME : Kind.IDENT, s.word(), pos);
    }
    if (isDigit(c)) {
      int start = s.offset();
      s.digits();
      if (s.peek(0) == '.' && isDigit(s.peek(1))) {
        s.advance();
        s.digits();
        return new Token(Kind.FLOAT, s.textFrom(start), pos);
      }
      if (s.peek(0) == '.' && s.peek(1) != '.') {
        throw SchemaException.syntax(
            s.here(), "a number needs digits after the decimal point (write '" + s.textFrom(start) + ".0')");
      }
      return new Token(Kind.INTEGER, s.textFrom(start), pos);
    }
    if (c == '"') {
      return new Token(Kind.STRING, s.stringLiteral(pos), pos);
    }
    s.advance();
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
        if (s.peek(0) == '>') {
          s.advance();
          yield new Token(Kind.ARROW, "->", pos);
        }
        yield new Token(Kind.MINUS, "-", pos);
      }
      case '.' -> {
        if (s.peek(0) == '.') {
          s.advance();
          yield new Token(Kind.DOTDOT, "..", pos);
        }
        throw SchemaException.syntax(pos, "unexpected character '.' (a number needs digits before the decimal point)");
      }
      default -> throw SchemaException.syntax(pos, "unexpected character " + quoteChar(c));
    };
  }

  /** @return the next token by the enum-value rule {@code [A-Za-z0-9_-]+}, or a punctuation token */
  Token nextEnumValue() throws SchemaException {
    s.skipTrivia();
    SourcePos pos = s.here();
    int start = s.offset();
    while (!s.atEnd() && isEnumValueChar(s.peek(0))) {
      s.advance();
    }
    if (s.offset() > start) {
      return new Token(Kind.ENUM_VALUE, s.textFrom(start), pos);
    }
    return next();
  }

  private static boolean isEnumValueChar(char c) {
    return isAsciiLetter(c) || isDigit(c) || c == '_' || c == '-';
  }
}
