package io.omnigraph.engine.schema;

import static io.omnigraph.engine.testing.SchemaAssert.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every semantic rule the schema catalog enforces on a .pg schema (unique and unreserved type and
 * property names, no clash with system columns, edges and interfaces that name declared types,
 * interface properties implemented with their declared types, ...), each refused with the exact
 * line:column of the offending declaration.
 */
class SchemaSemanticsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          node A { p: String }\\nnode A { q: String }                | 2 | 6  | duplicate node type 'A' (first declared at 1:6)
          // nothing but a comment                                   | 1 | 1  | the schema declares no types; declare at least one node type
          edge E: A -> A\\nedge E: A -> A\\nnode A { p: String }       | 2 | 6  | duplicate edge type 'E'
          node A { p: String }\\nedge A: A -> A                      | 2 | 6  | type name 'A' is already declared as a node at 1:6
          interface I { p: String }\\nnode I { p: String }           | 2 | 6  | already declared as an interface
          node String { p: I32 }                                     | 1 | 6  | 'String' is a reserved type name
          node Vector { p: I32 }                                     | 1 | 6  | 'Vector' is a reserved type name
          node A { p: String }\\nedge Knows: A -> A\\nedge KNOWS: A -> A | 3 | 6  | edge name collision after case folding: 'KNOWS' and 'Knows'
          node A { p: String p: I32 }                                | 1 | 20 | duplicate property 'p' on node A
          node A { _rowid: String }                                  | 1 | 10 | property name '_rowid' on A is reserved
          node A { _row_last_updated_at_version: I64 }               | 1 | 10 | is reserved
          node A { id: String }                                      | 1 | 10 | conflicts with the system column 'id'
          node A { p: String }\\nedge E: A -> A { src: String }      | 2 | 18 | conflicts with the system column 'src'
          node A { p: String }\\nedge E: A -> A { from: String }     | 2 | 18 | is reserved (edge inserts use from/to
          node A { p: String }\\nedge E: A -> B                      | 2 | 14 | edge E references unknown target type 'B'
          interface I { p: String }\\nedge E: I -> I                 | 2 | 9  | edge E references unknown source type 'I' ('I' is an interface, not a node type)
          node A implements Nope { p: String }                       | 1 | 19 | node A implements unknown interface 'Nope'
          interface I { p: String }\\nnode A implements I, I { }     | 2 | 22 | implements interface 'I' more than once
          interface I { p: String }\\nnode A implements I { p: I32 }  | 2 | 23 | node A property 'p' has type I32 but interface I declares it as String
          interface I { p: String }\\nnode A implements I { p: String? } | 2 | 23 | has type String? but interface I declares it as String
          interface I { p: String }\\ninterface J { p: I64 }\\nnode A implements I, J { } | 3 | 22 | node A property 'p' has type String but interface J declares it as I64
          node A { p: String @key q: String @key }                   | 1 | 35 | node type A has multiple @key constraints
          node A { p: String q: String @key(p) @key(q) }             | 1 | 38 | node type A has multiple @key constraints
          node A { p: String @key(q) }                               | 1 | 25 | @key on A references unknown property 'q'
          node A { p: String @unique(q) }                            | 1 | 28 | @unique on A references unknown property 'q'
          node A { p: String @index(q) }                             | 1 | 27 | @index on A references unknown property 'q'
          node A { p: String @range(q, 1..2) }                       | 1 | 27 | @range on A references unknown property 'q'
          node A { p: String @check(q, "x") }                        | 1 | 27 | @check on A references unknown property 'q'
          node A { p: String? @key }                                 | 1 | 21 | @key property A.p cannot be nullable
          node A { p: String? @key(p) }                              | 1 | 21 | @key property A.p cannot be nullable
          node A { p: [String] @key }                                | 1 | 22 | @key is not supported on list property A.p
          node A { p: Vector(2) @key }                               | 1 | 23 | @key is not supported on vector property A.p
          node A { p: Blob @key }                                    | 1 | 18 | @key is not supported on blob property A.p
          node A { p: Blob q: I32 @key(p) }                          | 1 | 25 | @key is not supported on blob property A.p
          node A { p: Vector(2) @unique }                            | 1 | 23 | @unique is not supported on vector property A.p
          node A { p: [I32] @index }                                 | 1 | 19 | @index is not supported on list property A.p
          node A { p: Blob @index }                                  | 1 | 18 | @index is not supported on blob property A.p
          node A { p: Blob q: I32 @unique(p) }                       | 1 | 33 | @unique is not supported on blob property A.p
          node A { p: Blob q: I32 @index(p) }                        | 1 | 32 | @index is not supported on blob property A.p
          node A { p: String @key @key }                             | 1 | 25 | property A.p declares @key multiple times
          node A { p: String @key(1) }                               | 1 | 25 | @key expects a property name, found 1
          node A { p: String @unique("x") }                          | 1 | 28 | @unique expects a property name, found "x"
          node A { p: String q: I32 @key(p, p) }                     | 1 | 35 | @key on A lists property 'p' twice
          node A { p: String q: I32 @key(1) }                        | 1 | 32 | @key expects a property name, found 1
          node A { p: String @range(p, 1..2) }                       | 1 | 27 | @range on A.p requires a numeric type, got String
          node A { p: [I32] @range(p, 1..2) }                        | 1 | 26 | @range on A.p requires a numeric type, got [I32]
          node A { p: I32 @range(p, 1.5..2) }                        | 1 | 27 | @range on integer property A.p needs integer bounds, got 1.5
          node A { p: I32 @check(p, "x") }                           | 1 | 24 | @check on A.p requires String type, got I32
          node A { p: String @check(p, "[") }                        | 1 | 30 | @check on A.p has an invalid regular expression
          node A { p: String @check(p, 3) }                          | 1 | 20 | @check takes a property and a regex string
          node A { p: String }\\nedge E: A -> A { q: String @key }  | 2 | 28 | @key on an edge property is not supported (E.q); declare the edge's key in its body: @key(src, dst, q)
          node A { p: String }\\nedge E: A -> A { q: String @key(q) } | 2 | 33 | @key on edge E must start with the endpoints: @key(src, dst), found 'q' as member 1
          node A { p: String }\\nedge E: A -> A { q: String @key(dst, src) } | 2 | 33 | @key on edge E must start with the endpoints: @key(src, dst), found 'dst' as member 1
          node A { p: String }\\nedge E: A -> A { q: String @key(src) } | 2 | 28 | @key on edge E must name both endpoints: @key(src, dst)
          node A { p: String }\\nedge E: A -> A { q: String? @key(src, dst, q) } | 2 | 44 | @key property E.q cannot be nullable
          node A { p: String }\\nedge E: A -> A { q: [String] @key(src, dst, q) } | 2 | 45 | @key is not supported on list property E.q
          node A { p: String }\\nedge E: A -> A { q: String @key(src, dst, r) } | 2 | 43 | @key on E references unknown property 'r'
          node A { p: String }\\nedge E: A -> A { q: String @key(src, dst, q, src) } | 2 | 46 | @key on E lists 'src' twice
          node A { p: String }\\nedge E: A -> A { q: String @key(src, dst) @key(src, dst, q) } | 2 | 43 | edge type E has multiple @key constraints
          node A { p: String }\\nedge E: A -> A { q: I32 @range(q, 1..2) } | 2 | 25 | @range constraint is not supported on edges
          node A { p: String }\\nedge E: A -> A { q: String @check(q, "x") } | 2 | 28 | @check constraint is not supported on edges
          node A { p: String }\\nedge E: A -> A { q: String @embed("q") } | 2 | 28 | @embed is not supported on edge properties
          node A { p: String }\\nedge E: A -> A @unique { }           | 2 | 16 | type-level @unique is not supported on edges
          node A @key { p: String }                                  | 1 | 8  | @key on node A is only supported on node properties or as body constraint
          node A @index { p: String }                                | 1 | 8  | @index on node A is only supported on node properties
          node A @embed("p") { p: String }                           | 1 | 8  | @embed on node A is only supported on node properties
          node A { p: String @instruction("x") }                     | 1 | 20 | @instruction is not supported on properties (A.p)
          node A @description("") { p: String }                      | 1 | 8  | @description on node A requires exactly one non-empty string argument
          node A @description(3) { p: String }                       | 1 | 8  | requires exactly one non-empty string argument
          node A @instruction("a", x="b") { p: String }              | 1 | 8  | @instruction on node A requires exactly one non-empty string argument
          node A @description("a") @description("b") { p: String }   | 1 | 26 | node A declares @description multiple times
          node A { p: String @description("a") @description("b") }   | 1 | 38 | property A.p declares @description multiple times
          node A { p: String @rename_from("") }                      | 1 | 20 | @rename_from on property A.p requires exactly one non-empty string argument
          node A { p: String @embed("p") }                           | 1 | 20 | @embed on A.p requires a Vector property, got String
          node A { v: Vector(2) @embed("nope") }                     | 1 | 23 | @embed on A.v references unknown source property 'nope'
          node A { n: I32 v: Vector(2) @embed("n") }                 | 1 | 30 | @embed source A.n must be a String property, got I32
          node A { t: String v: Vector(2) @embed(t) }                | 1 | 33 | requires the source property name as a string
          node A { t: String v: Vector(2) @embed("t", dims=3) }      | 1 | 33 | accepts only the keyword argument 'model', found 'dims'
          node A { t: String v: Vector(2) @embed("t", model=3) }     | 1 | 33 | @embed model on A.v must be a non-empty string
          node A { p: [String] @embed("p") }                         | 1 | 22 | @embed is not supported on list property A.p
          """)
  void isReportedWithLineAndColumn(String src, int line, int column, String fragment) {
    assertError(src.strip().replace("\\n", "\n"), line, column, fragment);
  }

  @Test
  void anEmptySchemaIsRefused() {
    for (String empty : new String[] {"", "  \n\t\n", "// a comment\n"}) {
      assertThatThrownBy(() -> SchemaCompiler.compile(empty))
          .isInstanceOfSatisfying(SchemaException.class, e -> assertThat(e.getMessage()).contains("declares no types"));
    }
  }

  @Test
  void semanticErrorsHaveKindSemantic() {
    assertThatThrownBy(() -> SchemaCompiler.compile("node A { id: String }"))
        .isInstanceOfSatisfying(SchemaException.class, e -> assertThat(e.kind()).isEqualTo(SchemaException.Kind.SEMANTIC));
  }

  @Test
  void theApiFormCarriesLineColumnAndRule() {
    assertThatThrownBy(() -> SchemaCompiler.compile("node A {\n  id: String }"))
        .isInstanceOfSatisfying(SchemaException.class, e -> {
          io.omnigraph.api.InvalidInputException api = e.toInvalidInput();
          assertThat(api.detail()).contains(new io.omnigraph.api.ErrorDetail.Validation(2L, 3L, null, "schema_semantic"));
          assertThat(api.getMessage()).contains("line 2:3: property name 'id'");
          assertThat(api.getCause()).isSameAs(e);
        });
  }

  @Test
  void nearMissesOfReservedNamesAreFine() throws Exception {
    assertThat(SchemaCompiler.compile("node A { _row_id: String rowid: I32 }").node("A").orElseThrow().properties())
        .hasSize(2);
  }

  @Test
  void checkIsAcceptedOnEnumProperties() throws Exception {
    assertThat(SchemaCompiler.compile("node A { e: enum(ab, cd) @check(e, \"^a\") }").node("A").orElseThrow().constraints())
        .containsExactly(new Constraint.Check("e", "^a"));
  }

  @Test
  void indexIsAllowedOnVectorsAndUniqueOnEdgeEndpoints() throws Exception {
    Catalog c = SchemaCompiler.compile(
        "node A { v: Vector(4) @index k: String @key }\nedge E: A -> A { w: F32 @index @unique(src, dst) @index(dst) }");
    assertThat(c.node("A").orElseThrow().constraints()).contains(new Constraint.Index(java.util.List.of("v")));
    assertThat(c.edge("E").orElseThrow().constraints())
        .containsExactly(
            new Constraint.Index(java.util.List.of("w")),
            new Constraint.Unique(java.util.List.of("src", "dst")),
            new Constraint.Index(java.util.List.of("dst")));
  }

  @Test
  void anEdgeKeyNamesTheEndpointsThenItsProperties() throws Exception {
    Catalog c = SchemaCompiler.compile("""
        node A { k: String @key }
        edge Wrote: A -> A { role: String @key(src, dst) }
        edge Played: A -> A { role: String n: I32 @key(src, dst, role, n) @unique(src, dst, role) }
        edge Plain: A -> A { }
        """);
    assertThat(c.edge("Wrote").orElseThrow().key()).contains(new Constraint.Key(java.util.List.of("src", "dst")));
    assertThat(c.edge("Played").orElseThrow().key())
        .contains(new Constraint.Key(java.util.List.of("src", "dst", "role", "n")));
    assertThat(c.edge("Plain").orElseThrow().key()).isEmpty();
  }

  @Test
  void samePropertyFromTwoInterfacesWithTheSameTypeIsInjectedOnce() throws Exception {
    Catalog c = SchemaCompiler.compile(
        "interface I { name: String }\ninterface J { name: String age: I32? }\nnode P implements I, J { }");
    assertThat(c.node("P").orElseThrow().properties()).extracting(Property::name).containsExactly("name", "age");
  }

  @Test
  void unknownAnnotationsAreKeptAsMetadata() throws Exception {
    Catalog c = SchemaCompiler.compile("node A @ui(\"card\", color=\"red\") { p: String @hidden }");
    NodeType a = c.node("A").orElseThrow();
    assertThat(a.annotations()).extracting(Annotation::name).containsExactly("ui");
    assertThat(a.property("p").orElseThrow().annotation("hidden")).isPresent();
  }
}
