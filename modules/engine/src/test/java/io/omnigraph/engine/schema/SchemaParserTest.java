package io.omnigraph.engine.schema;

import static io.omnigraph.engine.testing.SchemaAssert.assertError;
import static io.omnigraph.engine.testing.SchemaSamples.LIBRARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaParserTest {
  static Catalog compile(String src) throws SchemaException {
    return SchemaCompiler.compile(src);
  }

  @Nested
  class GoodInputs {
    @Test
    void theLibraryExampleCompilesToTheExpectedCatalog() throws Exception {
      Catalog c = compile(LIBRARY);
      assertThat(c.interfaces()).extracting(InterfaceType::name).containsExactly("Titled");
      assertThat(c.nodes()).extracting(NodeType::name).containsExactly("Author", "Book");
      assertThat(c.edges()).extracting(EdgeType::name).containsExactly("Wrote", "Cites");

      NodeType book = c.node("Book").orElseThrow();
      assertThat(book.properties())
          .extracting(Property::name)
          .containsExactly("isbn", "year", "rating", "status", "blurb", "blurb_vec", "title");
      assertThat(book.property("title").orElseThrow().fromInterface()).contains("Titled");
      assertThat(book.property("status").orElseThrow().type())
          .isEqualTo(new PropertyType.EnumOf(List.of("draft", "in_print", "out_of_print")));
      assertThat(book.property("blurb_vec").orElseThrow().type()).isEqualTo(new PropertyType.VectorOf(8));
      assertThat(book.property("rating").orElseThrow().nullable()).isTrue();
      assertThat(book.key()).contains(new Constraint.Key(List.of("isbn")));
      assertThat(book.constraints())
          .containsExactly(
              new Constraint.Key(List.of("isbn")),
              new Constraint.Index(List.of("blurb")),
              new Constraint.Index(List.of("blurb_vec")),
              new Constraint.Range("year", Optional.of(new BigDecimal("1400")), Optional.of(new BigDecimal("2100"))),
              new Constraint.Check("isbn", "^[0-9-]{10,17}$"),
              new Constraint.Index(List.of("status")));
      assertThat(book.annotations()).singleElement().satisfies(a -> {
        assertThat(a.name()).isEqualTo("description");
        assertThat(a.stringValue()).contains("a published work");
      });
      Annotation embed = book.property("blurb_vec").orElseThrow().annotation("embed").orElseThrow();
      assertThat(embed.stringValue()).contains("blurb");
      assertThat(embed.keywordArgs()).containsEntry("model", new Literal.Str("mock-8"));

      EdgeType wrote = c.edge("Wrote").orElseThrow();
      assertThat(wrote.fromType()).isEqualTo("Author");
      assertThat(wrote.toType()).isEqualTo("Book");
      assertThat(wrote.constraints()).containsExactly(new Constraint.Unique(List.of("src", "dst")));
      assertThat(c.edge("Cites").orElseThrow().cardinality()).isEqualTo(new Cardinality(0, OptionalLong.of(50)));
      assertThat(wrote.cardinality().isUnbounded()).isTrue();
    }

    @Test
    void everyScalarTypeParses() throws Exception {
      Catalog c = compile(
          """
          node All {
            s: String
            b: Blob?
            t: Bool
            i: I32
            l: I64
            u: U32
            ul: U64
            f: F32
            d: F64
            day: Date
            ts: DateTime
            v: Vector(3)
            li: [I64]?
          }
          """);
      assertThat(c.node("All").orElseThrow().properties())
          .extracting(Property::typeSpelling)
          .containsExactly("String", "Blob?", "Bool", "I32", "I64", "U32", "U64", "F32", "F64", "Date", "DateTime",
              "Vector(3)", "[I64]?");
    }

    @Test
    void edgeNamesResolveCaseInsensitively() throws Exception {
      Catalog c = compile(LIBRARY);
      assertThat(c.edgeIgnoreCase("wrote")).map(EdgeType::name).contains("Wrote");
      assertThat(c.edgeIgnoreCase("CITES")).map(EdgeType::name).contains("Cites");
      assertThat(c.edge("wrote")).isEmpty();
    }

    @Test
    void enumValuesMayStartWithDigitsAndContainDashesAndAreSorted() throws Exception {
      Catalog c = compile("node N { e: enum(z-1, 2nd, a_b) }");
      assertThat(c.node("N").orElseThrow().property("e").orElseThrow().type())
          .isEqualTo(new PropertyType.EnumOf(List.of("2nd", "a_b", "z-1")));
    }

    @Test
    void openAndNegativeRangeBoundsParse() throws Exception {
      Catalog c = compile(
          """
          node N {
            a: I64
            b: F64
            c: I32
            @range(a, -5..)
            @range(b, ..-0.5)
            @range(c, -10..-2)
          }
          """);
      assertThat(c.node("N").orElseThrow().constraints())
          .containsExactly(
              new Constraint.Range("a", Optional.of(new BigDecimal("-5")), Optional.empty()),
              new Constraint.Range("b", Optional.empty(), Optional.of(new BigDecimal("-0.5"))),
              new Constraint.Range("c", Optional.of(new BigDecimal("-10")), Optional.of(new BigDecimal("-2"))));
    }

    @Test
    void commentsMayAppearBetweenAnyTokens() throws Exception {
      Catalog c = compile("node /* a */ N // x\n { /* y */ p /* z */ : /**/ String /* w */ ? }");
      assertThat(c.node("N").orElseThrow().property("p").orElseThrow().nullable()).isTrue();
    }

    @Test
    void edgeWithoutBodyAndWithCardinalityAndAnnotations() throws Exception {
      Catalog c = compile(
          "node A { k: String @key }\nedge Likes: A -> A @card(1..) @description(\"likes\") @custom(3, x=true)");
      EdgeType e = c.edge("Likes").orElseThrow();
      assertThat(e.cardinality()).isEqualTo(new Cardinality(1, OptionalLong.empty()));
      assertThat(e.annotations()).extracting(Annotation::name).containsExactly("description", "custom");
      assertThat(e.annotations().get(1).keywordArgs()).containsEntry("x", new Literal.Bool(true));
    }

    @Test
    void compositeKeysAndMultiPropertyConstraints() throws Exception {
      Catalog c = compile(
          """
          node Edition {
            author: String
            year: I32
            isbn: String? @unique
            @key(author, year)
            @unique(author, isbn)
          }
          """);
      NodeType n = c.node("Edition").orElseThrow();
      assertThat(n.key()).contains(new Constraint.Key(List.of("author", "year")));
      assertThat(n.constraints()).contains(new Constraint.Unique(List.of("isbn")), new Constraint.Unique(List.of("author", "isbn")));
    }

    @Test
    void stringEscapesAreDecodedAndUnknownEscapesKeepTheirBackslash() throws Exception {
      Catalog c = compile("node N { code: String @description(\"say \\\"hi\\\"\\n\") @check(code, \"^\\d+$\") }"
          .replace("@check(code", "}\nnode M { code: String\n @check(code"));
      assertThat(c.node("N").orElseThrow().property("code").orElseThrow().annotations().get(0).stringValue())
          .contains("say \"hi\"\n");
      assertThat(c.node("M").orElseThrow().constraints()).containsExactly(new Constraint.Check("code", "^\\d+$"));
    }

    @Test
    void interfacePropertiesAreInjectedWithTheirAnnotations() throws Exception {
      Catalog c = compile(
          """
          interface Slugged { slug: String @key }
          interface Named { name: String }
          node Tag implements Slugged, Named { name: String weight: F32? }
          """);
      NodeType tag = c.node("Tag").orElseThrow();
      assertThat(tag.properties()).extracting(Property::name).containsExactly("name", "weight", "slug");
      assertThat(tag.key()).contains(new Constraint.Key(List.of("slug")));
      assertThat(tag.implementsList()).containsExactly("Slugged", "Named");
      assertThat(tag.property("name").orElseThrow().declaredDirectly()).isTrue();
    }

    @Test
    void propertiesMayBeNamedLikeKeywords() throws Exception {
      Catalog c = compile("node N { node: String edge: I32 enum: Bool implements: F64 }");
      assertThat(c.node("N").orElseThrow().properties()).extracting(Property::name)
          .containsExactly("node", "edge", "enum", "implements");
    }
  }

  @Nested
  class SyntaxErrors {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        textBlock =
            """
            nod A {}                                   | 1 | 1  | expected 'interface', 'node' or 'edge', found 'nod'
            node a {}                                  | 1 | 6  | expected node type name (starting with an uppercase letter), found 'a'
            node A { p String }                        | 1 | 12 | expected ':' after property name 'p', found 'String'
            node A { p: Strin }                        | 1 | 13 | unknown type 'Strin'
            node A { P: String }                       | 1 | 10 | expected a property name
            node A { p: String                         | 1 | 19 | expected a property, a body constraint or '}', found end of input
            node A { p: Vector(0) }                    | 1 | 20 | Vector dimension must be greater than zero
            node A { p: Vector(2147483648) }           | 1 | 20 | exceeds the maximum 2147483647
            node A { p: [Vector(3)] }                  | 1 | 14 | list items must be a base type
            node A { p: [enum(a)] }                    | 1 | 14 | list items must be a base type
            node A { p: [[I32]] }                      | 1 | 14 | list items must be a base type
            node A { p: enum() }                       | 1 | 18 | expected an enum value
            node A { p: enum(a, a) }                   | 1 | 21 | enum type cannot include duplicate values
            node A { p: enum(a b) }                    | 1 | 20 | expected ',' or ')' in enum(...), found 'b'
            node A { p: F64 @range(p, 1..0) }          | 1 | 27 | @range on A.p has minimum 1 greater than maximum 0
            edge E: A - B                              | 1 | 11 | expected '->', found '-'
            edge E A -> B                              | 1 | 8  | expected ':' after the edge name, found 'A'
            edge E: A -> B @card(5..2)                 | 1 | 25 | @card minimum 5 is greater than maximum 2
            edge E: A -> B @card(a..2)                 | 1 | 22 | expected an integer minimum in @card(min..max), found 'a'
            edge E: A -> B @card(1..) @card(2..)       | 1 | 27 | @card is only allowed once per edge
            node A { p: String } /* open               | 1 | 22 | unterminated block comment
            node A { p: String @description("x) }      | 1 | 33 | unterminated string literal
            node A { p: F64 @range(p, 5.) }            | 1 | 28 | a number needs digits after the decimal point
            node A { p: F64 @range(p, .5..1.0) }       | 1 | 27 | unexpected character '.'
            node A { # }                               | 1 | 10 | unexpected character '#'
            node A @key(p) { p: String }               | 1 | 8  | @key(...) is a body constraint; it must be written inside the node body
            interface I { p: String @key(p) }          | 1 | 25 | @key(...) is a body constraint; interfaces cannot declare body constraints
            interface I @doc { p: String }             | 1 | 13 | interfaces take no annotations
            node A implements I, { }                   | 1 | 22 | expected interface name, found '{'
            node A { p: String @range(p) }             | 1 | 20 | @range takes a property and bounds
            node A { p: String @foo() }                | 1 | 25 | expected an argument for @foo, found ')'
            node A { p: String @foo(1, 2) }            | 1 | 28 | expected a keyword argument name (name=value), found '2'
            node A { p: I32 @range(p, -1) }            | 1 | 27 | negative numbers are only allowed as @range bounds
            node A { @nope(p) p: I32 }                 | 1 | 11 | expected a body constraint (@key, @unique, @index, @range or @check) or a property, found '@nope'
            """)
    void isReportedWithLineAndColumn(String src, int line, int column, String fragment) {
      assertError(src.strip(), line, column, fragment);
    }

    @Test
    void positionsCountLinesAndColumnsFromOne() {
      assertError("node A {\n  ok: String\n    bad String\n}", 3, 9, "expected ':' after property name 'bad', found 'String'");
    }

    @Test
    void syntaxErrorsHaveKindSyntax() {
      assertThatThrownBy(() -> compile("node")).isInstanceOfSatisfying(
          SchemaException.class, e -> assertThat(e.kind()).isEqualTo(SchemaException.Kind.SYNTAX));
    }
  }
}
