package io.omnigraph.engine.schema;

import static io.omnigraph.engine.testing.SchemaSamples.DOMAIN;
import static io.omnigraph.engine.testing.SchemaSamples.LIBRARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaIrTest {

  static SchemaIr ir(String src) throws SchemaException {
    return SchemaIr.initialize(SchemaCompiler.compile(src), DOMAIN);
  }

  @Test
  void theIrJsonIsDeterministicAcrossCompilations() throws Exception {
    assertThat(ir(LIBRARY).toJson()).isEqualTo(ir(LIBRARY).toJson());
    assertThat(ir(LIBRARY).hash()).isEqualTo(ir(LIBRARY).hash());
  }

  @Test
  void theHashIgnoresWhitespaceAndCommentsButNotContent() throws Exception {
    String reformatted = LIBRARY.replace("\n", "\n\n  ").replace("// library.pg", "/* other comment */");
    assertThat(ir(reformatted).hash()).isEqualTo(ir(LIBRARY).hash());
    assertThat(ir(LIBRARY.replace("year: I32", "year: I64")).hash()).isNotEqualTo(ir(LIBRARY).hash());
    assertThat(ir(LIBRARY.replace("@card(0..50)", "@card(0..51)")).shapeHash()).isNotEqualTo(ir(LIBRARY).shapeHash());
  }

  @Test
  void theIdentityOfAFixedSchemaAndDomainIsPinned() throws Exception {
    // A change detector: if this fails, the IR format or id allocation changed, which changes
    // every existing graph's accepted schema identity. Bump IR_VERSION or keep the format.
    assertThat(ir(LIBRARY).hash()).isEqualTo("sha256:05f0d29b2e2736e179fdabb0c86f011579b390ff3a3d213454d0979a2efb718b");
    assertThat(ir(LIBRARY).shapeHash()).isEqualTo("sha256:cdc36540de9ac2589a938ad2eefc66d8fb7dc63fd22c6349c0832adbd7a5ccaa");
  }

  @Test
  void theHashHasTheSha256PrefixAndLowercaseHex() throws Exception {
    assertThat(ir(LIBRARY).hash()).matches("sha256:[0-9a-f]{64}");
    assertThat(ir(LIBRARY).shapeHash()).matches("sha256:[0-9a-f]{64}");
  }

  @Test
  void theIdentityHashDependsOnTheDomainButTheShapeHashDoesNot() throws Exception {
    Catalog c = SchemaCompiler.compile(LIBRARY);
    SchemaIr a = SchemaIr.initialize(c, DOMAIN);
    SchemaIr b = SchemaIr.initialize(c, "01JZZZZZZZZZZZZZZZZZZZZZZZ");
    assertThat(a.hash()).isNotEqualTo(b.hash());
    assertThat(a.shapeHash()).isEqualTo(b.shapeHash()).isEqualTo(SchemaIr.shapeHash(c));
  }

  @Test
  void idsAreNonZeroUniqueAndBelowTheHighWaterMark() throws Exception {
    SchemaIr ir = ir(LIBRARY);
    Set<Long> ids = new HashSet<>();
    for (SchemaIr.TypeIdentity t : ir.types()) {
      ids.add(t.typeId());
      if (t.kind() != SchemaIr.DeclKind.INTERFACE) {
        assertThat(ids.add(t.tableIncarnationId())).isTrue();
      }
      t.propertyIds().values().forEach(id -> assertThat(ids.add(id)).isTrue());
    }
    assertThat(ids).doesNotContain(0L).allMatch(id -> id < ir.nextIdentityId());
    assertThat(ids).hasSize((int) ir.nextIdentityId() - 1);
  }

  @Test
  void theJsonCarriesTheDocumentedTopLevelFields() throws Exception {
    JsonNode root = new ObjectMapper().readTree(ir(LIBRARY).toJson());
    assertThat(root.get("ir_version").asInt()).isEqualTo(2);
    assertThat(root.get("schema_identity_domain").asText()).isEqualTo(DOMAIN);
    assertThat(root.get("nodes").get(1).get("name").asText()).isEqualTo("Book");
    assertThat(root.get("nodes").get(1).get("implements").get(0).get("type_name").asText()).isEqualTo("Titled");
    assertThat(root.get("edges").get(1).get("cardinality").get("max").asLong()).isEqualTo(50);
    JsonNode range = root.get("nodes").get(1).get("constraints").get(3);
    assertThat(range.get("kind").asText()).isEqualTo("range");
    assertThat(range.get("min").asText()).isEqualTo("1400");
    assertThat(root.get("edges").get(0).get("constraints").get(0).get("fields").get(0).get("role").asText()).isEqualTo("src");
  }

  @Test
  void parseReadsBackWhatToJsonWrote() throws Exception {
    SchemaIr ir = ir(LIBRARY);
    SchemaIr back = SchemaIr.parse(ir.toJson());
    assertThat(back).isEqualTo(ir);
    assertThat(back.hash()).isEqualTo(ir.hash());
    assertThat(back.types()).isEqualTo(ir.types());
    assertThat(back.toJson()).isEqualTo(ir.toJson());
  }

  @Test
  void parseRejectsAnotherIrVersionZeroIdsReusedIdsAndBadDomains() throws Exception {
    ObjectMapper m = new ObjectMapper();
    String json = ir(LIBRARY).toJson();
    ObjectNode v3 = (ObjectNode) m.readTree(json);
    v3.put("ir_version", 3);
    assertThatThrownBy(() -> SchemaIr.parse(v3.toString())).hasMessageContaining("unsupported schema IR version 3");
    ObjectNode zero = (ObjectNode) m.readTree(json);
    ((ObjectNode) zero.get("nodes").get(0)).put("type_id", 0);
    assertThatThrownBy(() -> SchemaIr.parse(zero.toString())).hasMessageContaining("must be a non-zero id");
    ObjectNode reused = (ObjectNode) m.readTree(json);
    ((ObjectNode) reused.get("nodes").get(0)).put("type_id", reused.get("nodes").get(1).get("type_id").asLong());
    assertThatThrownBy(() -> SchemaIr.parse(reused.toString())).hasMessageContaining("reuses an id");
    ObjectNode high = (ObjectNode) m.readTree(json);
    high.put("next_identity_id", 3);
    assertThatThrownBy(() -> SchemaIr.parse(high.toString())).hasMessageContaining("is not below next_identity_id 3");
    ObjectNode lower = (ObjectNode) m.readTree(json);
    lower.put("schema_identity_domain", DOMAIN.toLowerCase());
    assertThatThrownBy(() -> SchemaIr.parse(lower.toString())).hasMessageContaining("not a canonical uppercase ULID");
    assertThatThrownBy(() -> SchemaIr.parse("{nope")).isInstanceOfSatisfying(
        SchemaException.class, e -> assertThat(e.kind()).isEqualTo(SchemaException.Kind.IDENTITY));
  }

  @Test
  void initializeRejectsANonCanonicalDomain() throws Exception {
    Catalog c = SchemaCompiler.compile(LIBRARY);
    assertThatThrownBy(() -> SchemaIr.initialize(c, "not-a-ulid")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void openAcceptsTheSameSchemaReformattedAndRefusesAChangedOne() throws Exception {
    CompiledSchema init = SchemaCompiler.compileForInit(LIBRARY, DOMAIN);
    String irJson = init.ir().toJson();
    assertThat(SchemaCompiler.open(LIBRARY + "\n// trailing comment\n", irJson).ir().hash()).isEqualTo(init.ir().hash());
    assertThatThrownBy(() -> SchemaCompiler.open(LIBRARY.replace("rating: F64?", "rating: F32?"), irJson))
        .hasMessageContaining("current _schema.pg no longer matches the accepted compiled schema");
  }

  @Test
  void evolutionKeepsIdsOfUnchangedDeclarationsAndAllocatesAboveTheHighWaterMark() throws Exception {
    SchemaIr accepted = ir(LIBRARY);
    String desired = LIBRARY.replace("rating: F64?", "rating: F64?\n  pages: I32?") + "\nnode Shelf { name: String @key }\n";
    SchemaIr next = SchemaIr.resolve(accepted, SchemaCompiler.compile(desired));
    SchemaIr.TypeIdentity bookBefore = accepted.type(SchemaIr.DeclKind.NODE, "Book").orElseThrow();
    SchemaIr.TypeIdentity bookAfter = next.type(SchemaIr.DeclKind.NODE, "Book").orElseThrow();
    assertThat(bookAfter.typeId()).isEqualTo(bookBefore.typeId());
    assertThat(bookAfter.tableIncarnationId()).isEqualTo(bookBefore.tableIncarnationId());
    assertThat(bookAfter.propertyId("isbn")).isEqualTo(bookBefore.propertyId("isbn"));
    assertThat(bookAfter.propertyId("pages")).isGreaterThanOrEqualTo(accepted.nextIdentityId());
    assertThat(next.type(SchemaIr.DeclKind.NODE, "Shelf").orElseThrow().typeId()).isGreaterThanOrEqualTo(accepted.nextIdentityId());
    assertThat(next.identityDomain()).isEqualTo(accepted.identityDomain());
    assertThat(next.nextIdentityId()).isGreaterThan(accepted.nextIdentityId());
  }

  @Test
  void renameFromKeepsTypeAndPropertyIdentity() throws Exception {
    SchemaIr accepted = ir(LIBRARY);
    String desired = LIBRARY
        .replace("node Author {", "node Writer @rename_from(\"Author\") {")
        .replace("full_name: String", "display_name: String @rename_from(\"full_name\")")
        .replace("Author -> Book", "Writer -> Book");
    SchemaIr next = SchemaIr.resolve(accepted, SchemaCompiler.compile(desired));
    SchemaIr.TypeIdentity before = accepted.type(SchemaIr.DeclKind.NODE, "Author").orElseThrow();
    SchemaIr.TypeIdentity after = next.type(SchemaIr.DeclKind.NODE, "Writer").orElseThrow();
    assertThat(after.typeId()).isEqualTo(before.typeId());
    assertThat(after.tableIncarnationId()).isEqualTo(before.tableIncarnationId());
    assertThat(after.propertyId("display_name")).isEqualTo(before.propertyId("full_name"));
    assertThat(next.nextIdentityId()).isEqualTo(accepted.nextIdentityId());
  }

  @Test
  void dropAndReAddMintsANewIncarnation() throws Exception {
    SchemaIr accepted = ir(LIBRARY);
    String without = LIBRARY.replace("edge Cites: Book -> Book @card(0..50)", "");
    SchemaIr dropped = SchemaIr.resolve(accepted, SchemaCompiler.compile(without));
    SchemaIr readded = SchemaIr.resolve(dropped, SchemaCompiler.compile(LIBRARY));
    long before = accepted.type(SchemaIr.DeclKind.EDGE, "Cites").orElseThrow().tableIncarnationId();
    long after = readded.type(SchemaIr.DeclKind.EDGE, "Cites").orElseThrow().tableIncarnationId();
    assertThat(after).isNotEqualTo(before).isGreaterThanOrEqualTo(accepted.nextIdentityId());
  }

  @Test
  void badRenameHintsAreIdentityErrors() throws Exception {
    SchemaIr accepted = ir(LIBRARY);
    assertThatThrownBy(() -> SchemaIr.resolve(accepted, SchemaCompiler.compile(
            LIBRARY.replace("node Author {", "node Writer @rename_from(\"Nobody\") {").replace("Author -> Book", "Writer -> Book"))))
        .hasMessageContaining("no accepted declaration has that name");
    assertThatThrownBy(() -> SchemaIr.resolve(accepted, SchemaCompiler.compile(
            LIBRARY.replace("node Author {", "node Writer @rename_from(\"Wrote\") {").replace("Author -> Book", "Writer -> Book"))))
        .hasMessageContaining("cannot rename accepted 'Wrote' across declaration kinds");
    assertThatThrownBy(() -> SchemaIr.resolve(accepted, SchemaCompiler.compile(
            LIBRARY + "\nnode Writer @rename_from(\"Author\") { h: String }")))
        .hasMessageContaining("accepted node 'Author' is claimed by more than one desired declaration");
    assertThatThrownBy(() -> SchemaIr.resolve(accepted, SchemaCompiler.compile(
            LIBRARY.replace("full_name: String", "display_name: String @rename_from(\"nope\")"))))
        .hasMessageContaining("has no property of that name");
  }

  @Test
  void keyOrderFollowsStablePropertyIdsNotConstraintOrder() throws Exception {
    CompiledSchema s = SchemaCompiler.compileForInit("node E { a: String b: I32 @key(b, a) }", DOMAIN);
    assertThat(s.keyOrder(s.catalog().node("E").orElseThrow())).isEqualTo(List.of("a", "b"));
  }
}
