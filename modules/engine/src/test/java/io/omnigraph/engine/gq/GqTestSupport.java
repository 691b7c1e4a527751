package io.omnigraph.engine.gq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.engine.gq.CheckedMutation;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.SchemaCompiler;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

final class GqTestSupport {
  static final String SCHEMA =
      """
      interface Titled {
        title: String
      }
      node Author {
        handle: String @key
        full_name: String
        born: Date?
        tags: [String]?
        active: Bool?
        score: F32?
      }
      node Book implements Titled {
        isbn: String @key
        year: I32
        rating: F64?
        status: enum(draft, in_print, out_of_print)
        blurb: String?
        blurb_vec: Vector(3) @embed("blurb")
        cover: Blob?
        views: U64?
        updated: DateTime?
      }
      node Note {
        text: String
      }
      edge Wrote: Author -> Book {
        role: String?
        order: I32?
      }
      edge Cites: Book -> Book
      """;

  static final Catalog CATALOG;

  static {
    try {
      CATALOG = SchemaCompiler.compile(SCHEMA);
    } catch (Exception e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private GqTestSupport() {}

  static CheckedQuery compile(String gq, String name) throws QueryException {
    return GqCompiler.compile(CATALOG, gq, name);
  }

  static CheckedMutation mutation(String gq) throws QueryException {
    QueryAst.File f = GqCompiler.parse(gq);
    return (CheckedMutation) GqCompiler.check(CATALOG, f.queries().get(0));
  }

  static void assertQueryError(ThrowingCallable call, QueryException.Code code, int line, int column, String fragment) {
    assertThatThrownBy(call)
        .isInstanceOf(QueryException.class)
        .satisfies(e -> {
          QueryException q = (QueryException) e;
          assertThat(q.code()).as(q.getMessage()).isEqualTo(code);
          assertThat(q.line() + ":" + q.column()).as(q.getMessage()).isEqualTo(line + ":" + column);
          assertThat(q.detail()).contains(fragment);
          if (line > 0) {
            assertThat(q.getMessage()).startsWith("line " + line + ":" + column + ": [" + code.rule() + "] ");
          }
        });
  }

  /** Checks the first query of {@code gq} against the test catalog and expects an error. */
  static void assertCheckError(String gq, QueryException.Code code, int line, int column, String fragment) {
    assertQueryError(() -> GqCompiler.check(CATALOG, GqCompiler.parse(gq).queries().get(0)), code, line, column, fragment);
  }

  static void assertParseError(String gq, QueryException.Code code, int line, int column, String fragment) {
    assertQueryError(() -> GqCompiler.parse(gq), code, line, column, fragment);
  }
}
