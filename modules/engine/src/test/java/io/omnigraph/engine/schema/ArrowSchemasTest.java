package io.omnigraph.engine.schema;

import static io.omnigraph.engine.testing.SchemaSamples.LIBRARY;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.testing.SchemaSamples;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ArrowSchemasTest {
  static CompiledSchema compiled(String src) throws SchemaException {
    return SchemaCompiler.compileForInit(src, SchemaSamples.DOMAIN);
  }

  @Test
  void nodeTablesStartWithTheNonNullPrimaryKeyIdThenPropertiesInCatalogOrder() throws Exception {
    CompiledSchema s = compiled(LIBRARY);
    Schema book = s.table("node:Book").orElseThrow().arrowSchema();
    assertThat(book.getFields()).extracting(Field::getName)
        .containsExactly("id", "isbn", "year", "rating", "status", "blurb", "blurb_vec", "title");
    Field id = book.getFields().get(0);
    assertThat(id.isNullable()).isFalse();
    assertThat(id.getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(id.getMetadata()).containsEntry("lance-schema:unenforced-primary-key", "true");
    assertThat(book.getFields().stream().skip(1).filter(f -> f.getMetadata().containsKey(ArrowSchemas.PRIMARY_KEY_METADATA)))
        .isEmpty();
  }

  @Test
  void edgeTablesHaveIdSrcDstThenProperties() throws Exception {
    Schema wrote = compiled(LIBRARY).table("edge:Wrote").orElseThrow().arrowSchema();
    assertThat(wrote.getFields()).extracting(Field::getName).containsExactly("id", "src", "dst", "role");
    assertThat(wrote.getFields().subList(0, 3)).allMatch(f -> !f.isNullable() && f.getType().equals(ArrowType.Utf8.INSTANCE));
    assertThat(wrote.getFields().get(0).getMetadata()).containsEntry(ArrowSchemas.PRIMARY_KEY_METADATA, "true");
    assertThat(wrote.getFields().get(1).getMetadata()).doesNotContainKey(ArrowSchemas.PRIMARY_KEY_METADATA);
  }

  @Test
  void everyPgTypeMapsToItsArrowType() throws Exception {
    Schema s = compiled(
        "node T { s: String b: Blob? t: Bool i: I32 l: I64 u: U32 ul: U64 f: F32 d: F64 day: Date ts: DateTime v: Vector(3)? li: [I64] e: enum(x, y) }")
        .table("node:T").orElseThrow().arrowSchema();
    assertThat(s.findField("s").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(s.findField("b").getType()).isEqualTo(ArrowType.LargeBinary.INSTANCE);
    assertThat(s.findField("t").getType()).isEqualTo(ArrowType.Bool.INSTANCE);
    assertThat(s.findField("i").getType()).isEqualTo(new ArrowType.Int(32, true));
    assertThat(s.findField("l").getType()).isEqualTo(new ArrowType.Int(64, true));
    assertThat(s.findField("u").getType()).isEqualTo(new ArrowType.Int(32, false));
    assertThat(s.findField("ul").getType()).isEqualTo(new ArrowType.Int(64, false));
    assertThat(s.findField("f").getType()).isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    assertThat(s.findField("d").getType()).isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    assertThat(s.findField("day").getType()).isEqualTo(new ArrowType.Date(DateUnit.DAY));
    assertThat(s.findField("ts").getType()).isEqualTo(new ArrowType.Date(DateUnit.MILLISECOND));
    assertThat(s.findField("e").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    Field v = s.findField("v");
    assertThat(v.getType()).isEqualTo(new ArrowType.FixedSizeList(3));
    assertThat(v.isNullable()).isTrue();
    assertThat(v.getChildren()).singleElement().satisfies(item -> {
      assertThat(item.getName()).isEqualTo("item");
      assertThat(item.isNullable()).isTrue();
      assertThat(item.getType()).isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    });
    Field li = s.findField("li");
    assertThat(li.getType()).isEqualTo(ArrowType.List.INSTANCE);
    assertThat(li.isNullable()).isFalse();
    assertThat(li.getChildren().get(0).getType()).isEqualTo(new ArrowType.Int(64, true));
    assertThat(s.findField("i").isNullable()).isFalse();
    assertThat(s.findField("b").isNullable()).isTrue();
  }

  @Test
  void propertyFieldsCarryTheirStablePropertyId() throws Exception {
    CompiledSchema s = compiled(LIBRARY);
    SchemaIr.TypeIdentity book = s.ir().type(SchemaIr.DeclKind.NODE, "Book").orElseThrow();
    Schema schema = s.table("node:Book").orElseThrow().arrowSchema();
    for (String p : List.of("isbn", "title", "blurb_vec")) {
      assertThat(schema.findField(p).getMetadata())
          .containsEntry(ArrowSchemas.STABLE_PROPERTY_ID_METADATA, Long.toString(book.propertyId(p)));
    }
  }

  @Test
  void tablePathsUseSixteenHexDigitIdentities() throws Exception {
    CompiledSchema s = compiled(LIBRARY);
    TableSpec author = s.table("node:Author").orElseThrow();
    assertThat(author.path()).matches("nodes/[0-9a-f]{16}-[0-9a-f]{16}");
    assertThat(author.path()).isEqualTo(String.format("nodes/%016x-%016x", author.stableTableId(), author.tableIncarnationId()));
    assertThat(s.table("edge:Cites").orElseThrow().path()).startsWith("edges/");
    assertThat(s.tables()).extracting(TableSpec::tableKey)
        .containsExactly("node:Author", "node:Book", "edge:Wrote", "edge:Cites");
  }

  @Test
  void theSchemaTypeIsInitializedAheadOnADaemonThreadThatNeverHoldsTheProcessOpen() throws Exception {
    Thread t = ArrowSchemas.initializeAhead();
    assertThat(t.getName()).isEqualTo("omnigraph-arrow-schema-init");
    assertThat(t.isDaemon()).isTrue(); // an init that fails or returns early must not keep the JVM alive
    t.join(60_000);
    assertThat(t.isAlive()).isFalse();
    // The type it initialized is usable (its Jackson reader included) by the caller's thread.
    Schema s = new Schema(List.of(Field.nullable("a", new ArrowType.Utf8())));
    assertThat(Schema.fromJSON(s.toJson())).isEqualTo(s);
  }
}
