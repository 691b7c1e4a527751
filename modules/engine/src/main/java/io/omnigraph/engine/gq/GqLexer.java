package io.omnigraph.engine.gq;

import static io.omnigraph.engine.schema.SourceScanner.isAsciiLetter;
import static io.omnigraph.engine.schema.SourceScanner.isDigit;
import static io.omnigraph.engine.schema.SourceScanner.quoteChar;

import io.omnigraph.engine.schema.SourcePos;
import io.omnigraph.engine.schema.SourceScanner;

/**
 * On-demand tokenizer for {@code .gq} text. Whitespace,
 * {@code // line} and
 * {@code /* block *}{@code /} comments (non-nesting) separate tokens.
 *
 * <p>Its own token set ({@code $variables}, {@code .}, the comparison operators, no enum-value
 * rule) on the same {@link SourceScanner} as the schema lexer, so positions, comments, words and
 * string literals are read the same way in both languages.
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

  private final SourceScanner<QueryException> s;

  GqLexer(String src) {
    this.s = new SourceScanner<>(src, QueryException::syntax);
  }

  /** @return the next token */
  Token next() throws QueryException {
    s.skipTrivia();
    SourcePos pos = s.here();
    if (s.atEnd()) {
      return new Token(Kind.EOF, "", pos);
    }
    char c = s.peek(0);
    if (isAsciiLetter(c) || c == '_') {
      return new Token(c >= 'A' && c <= 'Z' ? Kind.TYPE_NAME : Kind.IDENT, s.word(), pos);
    }
    if (c == '$') {
      s.advance();
      char first = s.peek(0);
      if (!(first >= 'a' && first <= 'z') && first != '_') {
        throw QueryException.syntax(
            pos, "expected a variable name after '$' (starting with a lowercase letter or '_'), found "
                + (s.atEnd() ? "end of input" : quoteChar(first)));
      }
      return new Token(Kind.VARIABLE, s.word(), pos);
    }
    if (isDigit(c)) {
      int start = s.offset();
      s.digits();
      if (s.peek(0) == '.' && isDigit(s.peek(1))) {
        s.advance();
        s.digits();
        return new Token(Kind.FLOAT, s.textFrom(start), pos);
      }
      if (s.peek(0) == '.' && !isAsciiLetter(s.peek(1)) && s.peek(1) != '_') {
        throw QueryException.syntax(
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
      case '.' -> new Token(Kind.DOT, ".", pos);
      case '=' -> new Token(Kind.EQ, "=", pos);
      case '!' -> {
        if (s.peek(0) == '=') {
          s.advance();
          yield new Token(Kind.NE, "!=", pos);
        }
        throw QueryException.syntax(pos, "unexpected character '!' (did you mean '!='?)");
      }
      case '<' -> {
        if (s.peek(0) == '=') {
          s.advance();
          yield new Token(Kind.LE, "<=", pos);
        }
        yield new Token(Kind.LT, "<", pos);
      }
      case '>' -> {
        if (s.peek(0) == '=') {
          s.advance();
          yield new Token(Kind.GE, ">=", pos);
        }
        yield new Token(Kind.GT, ">", pos);
      }
      case '-' -> throw QueryException.syntax(
          pos, isDigit(s.peek(0))
              ? "negative literals are not supported in .gq; pass the value as a parameter"
              : "unexpected character '-'");
      default -> throw QueryException.syntax(pos, "unexpected character " + quoteChar(c));
    };
  }
}
