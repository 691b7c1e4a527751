package io.omnigraph.engine.gq;

import static io.omnigraph.engine.gq.GqTestSupport.assertParseError;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.GqLexer.Kind;
import io.omnigraph.engine.gq.GqLexer.Token;
import io.omnigraph.engine.gq.QueryException.Code;
import io.omnigraph.engine.schema.SourcePos;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GqLexerTest {
  static List<Token> tokens(String src) throws QueryException {
    GqLexer lexer = new GqLexer(src);
    List<Token> out = new ArrayList<>();
    for (Token t = lexer.next(); t.kind() != Kind.EOF; t = lexer.next()) {
      out.add(t);
    }
    return out;
  }

  @Test
  void positionsCountLinesAndUtf16ColumnsAcrossCrLfTabsAndComments() throws Exception {
    List<Token> ts = tokens("// c\r\n\t$x /* a\nb */ >= 1.5 != \"é\\n\" <\n$_");
    assertThat(ts).extracting(Token::kind).containsExactly(Kind.VARIABLE, Kind.GE, Kind.FLOAT, Kind.NE, Kind.STRING, Kind.LT, Kind.VARIABLE);
    assertThat(ts).extracting(Token::pos).containsExactly(
        new SourcePos(2, 2), new SourcePos(3, 6), new SourcePos(3, 9), new SourcePos(3, 13), new SourcePos(3, 16),
        new SourcePos(3, 22), new SourcePos(4, 1));
    assertThat(ts.get(0).text()).isEqualTo("x");
    assertThat(ts.get(4).text()).isEqualTo("é\n");
    assertThat(ts.get(6).text()).isEqualTo("_");
  }

  @Test
  void unknownEscapesKeepTheirBackslashLikeTheSchemaLanguage() throws Exception {
    assertThat(tokens("\"a\\d\\\"\\\\\"").get(0).text()).isEqualTo("a\\d\"\\");
  }

  @Test
  void badCharacters() {
    assertParseError("query q() { delete Note where text = $X }", Code.SYNTAX, 1, 38, "expected a variable name after '$'");
    assertParseError("query q() { delete Note where text ! 1 }", Code.SYNTAX, 1, 36, "did you mean '!='");
    assertParseError("query q() { delete Note where text = #1 }", Code.SYNTAX, 1, 38, "unexpected character '#'");
    assertParseError("query q() { delete Note where text = \u0001 }", Code.SYNTAX, 1, 38, "U+0001");
  }
}
