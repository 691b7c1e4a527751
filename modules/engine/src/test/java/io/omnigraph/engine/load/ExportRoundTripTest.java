package io.omnigraph.engine.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.LoadMode;
import io.omnigraph.engine.export.NdjsonExporter;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.value.ArrowValues;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * NDJSON → validated rows → Arrow batches → NDJSON export → load again must give identical lines:
 * export output is valid load input that rebuilds the same rows.
 */
class ExportRoundTripTest {
  static final String SCHEMA =
      """
      node Thing {
        k: String @key
        b: Bool?
        i: I32?
        l: I64?
        u: U32?
        ul: U64?
        f: F32?
        d: F64?
        day: Date?
        ts: DateTime?
        v: Vector(2)?
        li: [I64]?
        ls: [String]?
        e: enum(red, green)?
        blob: Blob?
      }
      node Free { text: String }
      edge Rel: Thing -> Thing { w: F64? }
      """;
  static final CompiledSchema COMPILED;

  static {
    try {
      COMPILED = SchemaCompiler.compileForInit(SCHEMA, Ulid.generate());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static String roundTrip(String ndjson) throws IOException {
    ValidatedLoad load = new GraphLoader(COMPILED, LoadMode.OVERWRITE)
        .load(new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BufferAllocator a = new RootAllocator(); NdjsonExporter ex = new NdjsonExporter(COMPILED, out)) {
      for (TableRows t : load.tables()) {
        List<VectorSchemaRoot> batches = ArrowRows.toBatches(t, a, 3);
        try {
          for (VectorSchemaRoot b : batches) {
            ex.write(t.spec().tableKey(), b);
          }
        } finally {
          batches.forEach(VectorSchemaRoot::close);
        }
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void exportOfEveryTypeLoadsBackToTheSameLines() throws Exception {
    String input = String.join("\n",
        "{\"type\":\"Thing\",\"data\":{\"k\":\"a\",\"b\":true,\"i\":-7,\"l\":9007199254740993,\"u\":4294967295,"
            + "\"ul\":18446744073709551615,\"f\":0.1,\"d\":-1.5e300,\"day\":\"1969-12-31\",\"ts\":\"2024-02-29T23:59:59.999Z\","
            + "\"v\":[0.5,-2],\"li\":[1,-2,3],\"ls\":[\"x\",\"\"],\"e\":\"green\",\"blob\":\"base64:AP8=\"}}",
        "{\"type\":\"Thing\",\"data\":{\"k\":\"b\",\"d\":\"NaN\",\"f\":\"-Infinity\",\"li\":[]}}",
        "{\"type\":\"Free\",\"data\":{\"id\":\"f1\",\"text\":\"multi\\nline \\\"quoted\\\" ü\"}}",
        "{\"edge\":\"Rel\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"id\":\"r1\",\"w\":2}}");
    String first = roundTrip(input);
    assertThat(first.lines()).hasSize(4);
    assertThat(first.lines().findFirst().orElseThrow())
        .isEqualTo("{\"type\":\"Thing\",\"data\":{\"id\":\"a\",\"k\":\"a\",\"b\":true,\"i\":-7,\"l\":9007199254740993,"
            + "\"u\":4294967295,\"ul\":18446744073709551615,\"f\":0.1,\"d\":-1.5E300,\"day\":\"1969-12-31\","
            + "\"ts\":\"2024-02-29T23:59:59.999Z\",\"v\":[0.5,-2.0],\"li\":[1,-2,3],\"ls\":[\"x\",\"\"],\"e\":\"green\","
            + "\"blob\":\"base64:AP8=\"}}");
    assertThat(first).contains("{\"edge\":\"Rel\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"id\":\"r1\",\"w\":2.0}}");
    assertThat(first).contains("\"d\":\"NaN\"").contains("\"f\":\"-Infinity\"").contains("\"li\":[]");
    assertThat(roundTrip(first)).isEqualTo(first);
  }

  @Test
  void batchesRespectTheRowLimitAndAnEmptyTableGivesOneEmptyBatch() throws Exception {
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < 7; i++) {
      in.append("{\"type\":\"Free\",\"data\":{\"id\":\"f").append(i).append("\",\"text\":\"t\"}}\n");
    }
    ValidatedLoad load = new GraphLoader(COMPILED, LoadMode.APPEND)
        .load(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)));
    try (BufferAllocator a = new RootAllocator()) {
      List<VectorSchemaRoot> batches = ArrowRows.toBatches(load.table("node:Free").orElseThrow(), a, 3);
      try {
        assertThat(batches).extracting(VectorSchemaRoot::getRowCount).containsExactly(3, 3, 1);
        assertThat(batches.get(0).getSchema()).isEqualTo(COMPILED.table("node:Free").orElseThrow().arrowSchema());
        assertThat(batches.get(2).getVector("id").getObject(0).toString()).isEqualTo("f6");
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
      TableRows empty = new TableRows(COMPILED.table("node:Free").orElseThrow(), COMPILED.catalog().node("Free").orElseThrow(), null);
      List<VectorSchemaRoot> none = ArrowRows.toBatches(empty, a, 3);
      assertThat(none).singleElement().satisfies(b -> assertThat(b.getRowCount()).isZero());
      none.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void arrowCellsReadBackAsTheLoaderValues() throws Exception {
    ValidatedLoad load = new GraphLoader(COMPILED, LoadMode.APPEND).load(new ByteArrayInputStream((
        "{\"type\":\"Thing\",\"data\":{\"k\":\"a\",\"b\":false,\"i\":-7,\"l\":5,\"u\":4294967295,\"ul\":18446744073709551615,"
            + "\"f\":0.25,\"d\":2.5,\"day\":\"2000-01-01\",\"ts\":5,\"v\":[1,2],\"li\":[4],\"ls\":[\"q\"],\"e\":\"red\",\"blob\":\"base64:AQ==\"}}\n"
            + "{\"type\":\"Thing\",\"data\":{\"k\":\"b\"}}").getBytes(StandardCharsets.UTF_8)));
    TableRows rows = load.table("node:Thing").orElseThrow();
    try (BufferAllocator a = new RootAllocator()) {
      List<VectorSchemaRoot> batches = ArrowRows.toBatches(rows, a, 10);
      try {
        VectorSchemaRoot b = batches.get(0);
        for (int r = 0; r < 2; r++) {
          for (int p = 0; p < rows.properties().size(); p++) {
            io.omnigraph.engine.schema.Property prop = rows.properties().get(p);
            Object expected = rows.rows().get(r).values().get(p);
            Object actual = ArrowValues.get(b.getVector(prop.name()), prop.type(), r);
            assertThat(actual).as(prop.name()).isEqualTo(expected);
          }
        }
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
    }
  }

  @Property(tries = 200)
  void exportThenLoadIsTheIdentity(@ForAll("things") List<String> lines) throws Exception {
    String once = roundTrip(String.join("\n", lines));
    assertThat(roundTrip(once)).isEqualTo(once);
    assertThat(once.lines()).hasSize(lines.size());
  }

  @Provide
  Arbitrary<List<String>> things() {
    Arbitrary<String> str = Arbitraries.strings().withCharRange(' ', '~').withChars('ü', '\n', '"', '\\').ofMaxLength(8);
    Arbitrary<String> thing = Combinators.combine(
            Arbitraries.integers(),
            Arbitraries.longs(),
            Arbitraries.floats().withStandardSpecialValues(),
            Arbitraries.doubles().withStandardSpecialValues(),
            Arbitraries.integers().between(-100_000, 100_000),
            Arbitraries.longs().between(-10_000_000_000_000L, 10_000_000_000_000L),
            str,
            Arbitraries.longs().greaterOrEqual(0))
        .as((i, l, f, d, day, ts, s, u) -> "{\"i\":" + i + ",\"l\":" + l + ",\"f\":" + num(f) + ",\"d\":" + num(d)
            + ",\"day\":" + day + ",\"ts\":" + ts + ",\"ls\":[" + json(s) + "],\"ul\":" + u + ",\"v\":[" + num(f) + ",1.5]");
    return thing.list().ofMinSize(1).ofMaxSize(6).map(bodies -> {
      List<String> out = new ArrayList<>();
      for (int n = 0; n < bodies.size(); n++) {
        out.add("{\"type\":\"Thing\",\"data\":{\"k\":\"k" + n + "\"," + bodies.get(n).substring(1) + "}}");
      }
      return out;
    });
  }

  private static String num(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "\"" + d + "\"";
    }
    return Double.toString(d);
  }

  private static String num(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      return "\"" + f + "\"";
    }
    return Float.toString(f);
  }

  private static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
