package io.omnigraph.engine.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.testing.SchemaSamples;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GraphLoaderTest {
  private static final String SCHEMA = SchemaSamples.BOOKS;

  static final CompiledSchema COMPILED = compile();

  private static CompiledSchema compile() {
    try {
      return SchemaCompiler.compileForInit(SCHEMA, Ulid.generate());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static final String AUTHOR = "{\"type\":\"Author\",\"data\":{\"handle\":\"okafor\",\"full_name\":\"N. Okafor\"}}";
  /** Books 978-1 and 978-2, and 978-1's two citations (c1 of 978-2, c2 of itself): Cites allows at most two. */
  static final String[] CITES = {bookLine(), bookLine().replace("978-1", "978-2"),
      "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\",\"data\":{\"id\":\"c1\"}}",
      "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-1\",\"data\":{\"id\":\"c2\"}}"};

  private static String bookLine() {
    return "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-1\",\"title\":\"Delta\",\"year\":2011,\"status\":\"in_print\"}}";
  }

  static final String BOOK = "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-1\",\"title\":\"Delta\",\"year\":2011,\"status\":\"in_print\"}}";

  /** @param committed the graph the load is prepared against, or null for none */
  static ValidatedLoad load(LoadMode mode, GraphSnapshot committed, String... lines) throws IOException {
    GraphLoader loader = committed == null ? new GraphLoader(COMPILED, mode) : new GraphLoader(COMPILED, mode, committed);
    return loader.load(
        new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
  }

  static ValidatedLoad load(String... lines) throws IOException {
    return load(LoadMode.APPEND, null, lines);
  }

  static void assertRule(LoadRule rule, long line, String field, String fragment, LoadMode mode, GraphSnapshot view, String... lines) {
    assertThatThrownBy(() -> load(mode, view, lines))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> {
          ErrorDetail.Validation v = (ErrorDetail.Validation) e.detail().orElseThrow();
          assertThat(v.rule()).as(e.getMessage()).isEqualTo(rule.code());
          assertThat(v.line()).as(e.getMessage()).isEqualTo(line);
          assertThat(v.field()).as(e.getMessage()).isEqualTo(field);
          assertThat(e.getMessage()).startsWith("line " + line + ": ").contains(fragment);
        });
  }

  static void assertRule(LoadRule rule, long line, String field, String fragment, String... lines) {
    assertRule(rule, line, field, fragment, LoadMode.APPEND, null, lines);
  }

  /** The streaming fast path must produce exactly what the tree path produces, and must be the one used. */
  @Nested
  class FastPath {
    final String[] lines = {
        "{\"type\":\"Author\",\"data\":{\"handle\":\"okafor\",\"full_name\":\"N. \\\"O\\\" \\u00fc\\ud83d\\ude00\",\"born\":\"1977-06-04\",\"tags\":[\"sf\",\"\"]}}",
        "{\"type\":\"Author\",\"data\":{\"full_name\":\"x\",\"handle\":\"b\",\"born\":-3,\"tags\":null}}",
        "{\"data\":{\"handle\":\"late\",\"full_name\":\"data before type\"},\"type\":\"Author\"}",
        "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-1\",\"title\":\"T\",\"year\":2011,\"pages\":4294967295,"
            + "\"copies\":18446744073709551615,\"rating\":0.1,\"score\":-1.5e300,\"status\":\"in_print\","
            + "\"published\":\"2024-02-29T23:59:59.999Z\",\"vec\":[0.5,-2,1e-50],\"cover\":\"base64:AP8=\",\"in_stock\":true,\"code\":\"c1\"}}",
        "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-2\",\"title\":\"U\",\"year\":1400,\"rating\":-0.0,\"score\":\"NaN\","
            + "\"status\":\"draft\",\"published\":1700000000000,\"vec\":[\"Infinity\",16777217,-0.0],\"in_stock\":false,\"copies\":0}}",
        "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-3\",\"title\":\"V\",\"year\":2100,\"rating\":3.4028235e38,\"score\":-0.0,"
            + "\"status\":\"draft\",\"published\":\"2024-01-01\",\"rating\":null}}".replace(",\"rating\":null", ""),
        "{\"type\":\"Edition\",\"data\":{\"year\":1954,\"author\":\"tolkien\"}}",
        "{\"type\":\"Edition\",\"data\":{\"id\":\"[\\\"a\\\",\\\"-7\\\"]\",\"year\":-7,\"author\":\"a\"}}",
        "{\"type\":\"Note\",\"data\":{\"text\":\"n\",\"id\":\"n-1\"}}",
        "{\"edge\":\"wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"w1\",\"role\":\"author\"}}",
        "{\"to\":\"978-2\",\"edge\":\"Wrote\",\"from\":\"b\",\"data\":{\"id\":\"w2\"}}",
        "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\",\"data\":{\"id\":\"c1\"}}",
        "{\"type\":\"Author\",\"data\":{\"handle\":\"b\",\"full_name\":\"replaced\"}}",
    };

    private ValidatedLoad run(boolean exact, long[] exactLines) throws IOException {
      GraphLoader loader = new GraphLoader(COMPILED, LoadMode.MERGE);
      if (exact) {
        loader.exactOnly();
      }
      ValidatedLoad l = loader.load(new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
      exactLines[0] = loader.exactLines();
      return l;
    }

    @Test
    void fastAndExactPathsProduceIdenticalTables() throws Exception {
      long[] fastExact = new long[1];
      long[] exactExact = new long[1];
      try (ValidatedLoad fast = run(false, fastExact); ValidatedLoad exact = run(true, exactExact)) {
        // Only the line with data before type needs the exact path.
        assertThat(fastExact[0]).isEqualTo(1);
        assertThat(exactExact[0]).isEqualTo(lines.length);
        assertThat(fast.tables()).extracting(t -> t.spec().tableKey())
            .containsExactlyElementsOf(exact.tables().stream().map(t -> t.spec().tableKey()).toList());
        for (TableRows t : fast.tables()) {
          List<TableRows.Row> a = t.rows();
          List<TableRows.Row> b = exact.table(t.spec().tableKey()).orElseThrow().rows();
          assertThat(a).hasSameSizeAs(b);
          for (int i = 0; i < a.size(); i++) {
            TableRows.Row x = a.get(i);
            TableRows.Row y = b.get(i);
            assertThat(List.of(x.line(), x.id(), String.valueOf(x.src()), String.valueOf(x.dst())))
                .isEqualTo(List.of(y.line(), y.id(), String.valueOf(y.src()), String.valueOf(y.dst())));
            assertThat(x.values().toArray()).as(t.spec().tableKey() + " row " + i).containsExactly(y.values().toArray());
          }
        }
        TableRows authors = fast.table("node:Author").orElseThrow();
        assertThat(authors.ids()).containsExactly("okafor", "b", "late");
        assertThat(authors.rows().get(1).values().get(1)).isEqualTo("replaced");
        assertThat(authors.rows().get(1).line()).isEqualTo(13);
        Object[] book2 = fast.table("node:Book").orElseThrow().rows().get(1).values().toArray();
        assertThat(Float.floatToRawIntBits((Float) book2[5])).isZero(); // -0.0 narrows from BigDecimal: +0
        assertThat((float[]) book2[9]).containsExactly(Float.POSITIVE_INFINITY, 16777216f, 0f);
      }
    }

    @Test
    void decimalsNarrowExactlyAsTheTreePathDoes() throws Exception {
      java.util.Random rnd = new java.util.Random(42);
      List<String> in = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        StringBuilder num = new StringBuilder(rnd.nextBoolean() ? "-" : "");
        int intDigits = rnd.nextInt(10);
        num.append(intDigits == 0 ? "0" : Long.toString(1 + (long) (rnd.nextDouble() * Math.pow(10, intDigits))));
        num.append('.');
        int frac = 1 + rnd.nextInt(24);
        for (int d = 0; d < frac; d++) {
          num.append((char) ('0' + rnd.nextInt(10)));
        }
        if (i % 7 == 0) {
          num.append('e').append(rnd.nextInt(65) - 40);
        }
        in.add("{\"type\":\"Book\",\"data\":{\"isbn\":\"" + i + "\",\"title\":\"t\",\"year\":2000,\"status\":\"draft\","
            + "\"rating\":" + num + ",\"score\":" + num + ",\"vec\":[" + num + ",1,2]}}");
      }
      byte[] bytes = String.join("\n", in).getBytes(StandardCharsets.UTF_8);
      GraphLoader fastLoader = new GraphLoader(COMPILED, LoadMode.APPEND);
      try (ValidatedLoad fast = fastLoader.load(new ByteArrayInputStream(bytes));
          ValidatedLoad exact = new GraphLoader(COMPILED, LoadMode.APPEND).exactOnly()
              .load(new ByteArrayInputStream(bytes))) {
        assertThat(fastLoader.exactLines()).isZero();
        List<TableRows.Row> a = fast.table("node:Book").orElseThrow().rows();
        List<TableRows.Row> b = exact.table("node:Book").orElseThrow().rows();
        for (int i = 0; i < a.size(); i++) {
          Object[] x = a.get(i).values().toArray();
          Object[] y = b.get(i).values().toArray();
          assertThat(x).as(in.get(i) + " fast " + java.util.Arrays.deepToString(x) + " exact " + java.util.Arrays.deepToString(y))
              .containsExactly(y);
        }
      }
    }

    @Test
    void overwriteStreamsFullBatchesToTheSinkAndKeepsIdsForCrossRowChecks() throws Exception {
      StringBuilder in = new StringBuilder();
      for (int i = 0; i < 10; i++) {
        in.append("{\"type\":\"Note\",\"data\":{\"id\":\"n").append(i).append("\",\"text\":\"t").append(i).append("\"}}\n");
      }
      in.append("{\"edge\":\"Likes\",\"from\":\"n\",\"to\":\"m\"}\n".replace("Likes", "Wrote"));
      List<Integer> sizes = new ArrayList<>();
      List<String> firstIds = new ArrayList<>();
      // A dangling edge is found after all node batches were streamed: the load still fails.
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.OVERWRITE)
          .batchSink((spec, b) -> sizes.add(b.getRowCount()), 4)
          .load(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(InvalidInputException.class,
              e -> assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("dangling_edge"));
      assertThat(sizes).containsExactly(4, 4);
      sizes.clear();
      String valid = in.substring(0, in.lastIndexOf("{\"edge"));
      try (ValidatedLoad l = new GraphLoader(COMPILED, LoadMode.OVERWRITE)
          .batchSink((spec, b) -> {
            sizes.add(b.getRowCount());
            firstIds.add(b.getVector("id").getObject(0).toString());
          }, 4)
          .load(new ByteArrayInputStream(valid.getBytes(StandardCharsets.UTF_8)))) {
        assertThat(sizes).containsExactly(4, 4, 2);
        assertThat(firstIds).containsExactly("n0", "n4", "n8");
        TableRows notes = l.table("node:Note").orElseThrow();
        assertThat(notes.streamed()).isTrue();
        assertThat(notes.size()).isEqualTo(10);
        assertThat(notes.containsId("n9")).isTrue();
        assertThatThrownBy(notes::rows).isInstanceOf(IllegalStateException.class);
      }
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.MERGE).batchSink((s, b) -> {}, 4))
          .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPipelinedOverwriteWritesEachBatchOnTheWriterThreadWhileTheLoaderReadsOn() throws Exception {
      StringBuilder in = new StringBuilder();
      for (int i = 0; i < 10; i++) {
        in.append("{\"type\":\"Note\",\"data\":{\"id\":\"n").append(i).append("\",\"text\":\"t").append(i).append("\"}}\n");
      }
      Thread loaderThread = Thread.currentThread();
      List<String> opens = java.util.Collections.synchronizedList(new ArrayList<>());
      List<String> written = java.util.Collections.synchronizedList(new ArrayList<>());
      try (org.apache.arrow.memory.BufferAllocator alloc = new org.apache.arrow.memory.RootAllocator();
          ValidatedLoad l = new GraphLoader(COMPILED, LoadMode.OVERWRITE).allocator(alloc)
              .pipelinedBatchSink(spec -> {
                opens.add(spec.tableKey() + (Thread.currentThread() == loaderThread ? "@loader" : "@other"));
                return b -> {
                  // The batch is the writer's: it stays intact while the loader fills the next one.
                  try {
                    Thread.sleep(30);
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                  StringBuilder ids = new StringBuilder(Thread.currentThread().getName() + ":");
                  for (int r = 0; r < b.getRowCount(); r++) {
                    ids.append(b.getVector("id").getObject(r)).append(',');
                  }
                  written.add(ids.toString());
                };
              }, 4)
              .load(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)))) {
        // Every batch was written before load() returned, in order, on the writer thread.
        assertThat(written).containsExactly("omnigraph-load-writer:n0,n1,n2,n3,", "omnigraph-load-writer:n4,n5,n6,n7,",
            "omnigraph-load-writer:n8,n9,");
        assertThat(opens).containsExactly("node:Note@loader");
        assertThat(l.table("node:Note").orElseThrow().size()).isEqualTo(10);
      }
    }

    @Test
    void aFailedPipelinedWriteFailsTheLoadAsRaisedAndLeaksNoBatch() throws Exception {
      StringBuilder in = new StringBuilder();
      for (int i = 0; i < 20; i++) {
        in.append("{\"type\":\"Note\",\"data\":{\"id\":\"n").append(i).append("\",\"text\":\"t").append(i).append("\"}}\n");
      }
      io.omnigraph.api.StorageFailureException boom = new io.omnigraph.api.StorageFailureException("disk full", null);
      List<Integer> sizes = java.util.Collections.synchronizedList(new ArrayList<>());
      try (org.apache.arrow.memory.BufferAllocator alloc = new org.apache.arrow.memory.RootAllocator()) {
        assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.OVERWRITE).allocator(alloc)
            .pipelinedBatchSink(spec -> b -> {
              sizes.add(b.getRowCount());
              if (sizes.size() == 2) {
                throw boom;
              }
            }, 4)
            .load(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8))))
            .isSameAs(boom);
        assertThat(sizes).containsExactly(4, 4); // the writer stopped at its failure
        assertThat(alloc.getAllocatedMemory()).isZero(); // the batches in flight were released
      }
    }

    @Test
    void aWriteFailureWhileTheLoaderFailsOnItsOwnIsKeptAsSuppressed() throws Exception {
      StringBuilder in = new StringBuilder();
      for (int i = 0; i < 4; i++) {
        in.append("{\"type\":\"Note\",\"data\":{\"id\":\"n").append(i).append("\",\"text\":\"t").append(i).append("\"}}\n");
      }
      in.append("{\"type\":\"Nope\",\"data\":{}}\n"); // the loader fails here, after handing over the first batch
      io.omnigraph.api.StorageFailureException boom = new io.omnigraph.api.StorageFailureException("disk full", null);
      try (org.apache.arrow.memory.BufferAllocator alloc = new org.apache.arrow.memory.RootAllocator()) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> new GraphLoader(COMPILED, LoadMode.OVERWRITE)
            .allocator(alloc)
            .pipelinedBatchSink(spec -> b -> {
              try {
                Thread.sleep(100); // still writing when the loader meets the invalid line
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              throw boom;
            }, 4)
            .load(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8))));
        // The invalid line is the load's error; the writer's failure is not dropped.
        assertThat(thrown).isInstanceOf(InvalidInputException.class).hasMessageContaining("Nope");
        assertThat(thrown.getSuppressed()).containsExactly(boom);
        assertThat(alloc.getAllocatedMemory()).isZero();
      }
    }

    @Test
    void oneParserReadsManyLinesAndLinesAfterADeclinedOneStayFast() throws Exception {
      StringBuilder in = new StringBuilder();
      for (int i = 0; i < 50; i++) {
        String note = "{\"type\":\"Note\",\"data\":{\"id\":\"n" + i + "\",\"text\":\"t" + i + "\"}}";
        // Trailing JSON whitespace (CRLF, spaces, tabs) keeps a line on the fast path.
        in.append(i % 3 == 0 ? note + " \t\r" : note).append(i % 2 == 0 ? "\r\n" : "\n");
        if (i % 10 == 5) {
          // Declined mid-line (data before type): the next line must still parse on the fast path.
          in.append("{\"data\":{\"id\":\"late").append(i).append("\",\"text\":\"x\"},\"type\":\"Note\"}\n");
        }
        if (i % 10 == 7) {
          // Declined with most of the line unread; leading and inner whitespace.
          in.append("  {\"data\":{\"text\":\"y\",\"id\":\"later").append(i).append("\"} , \"type\" : \"Note\" }\n");
        }
      }
      byte[] bytes = in.toString().getBytes(StandardCharsets.UTF_8);
      GraphLoader fastLoader = new GraphLoader(COMPILED, LoadMode.APPEND);
      try (ValidatedLoad fast = fastLoader.load(new ByteArrayInputStream(bytes))) {
        assertThat(fastLoader.exactLines()).isEqualTo(10); // the ten data-before-type lines
        assertThat(fast.table("node:Note").orElseThrow().ids()).hasSize(60).contains("n0", "n6", "n8", "n49", "late5", "later47");
      } catch (InvalidInputException e) {
        throw new AssertionError("unexpected " + e.getMessage(), e);
      }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        ` 1`
        ` "x`
        ` tru`
        ` -`
        ` {`
        ` ]`
        """)
    void aPartialTokenAfterTheObjectIsInvalidJson(String tail) {
      String note = "{\"type\":\"Note\",\"data\":{\"text\":\"a\"}}";
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.APPEND)
              .load(new ByteArrayInputStream((note + "\n" + note + tail + "\n" + note).getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("invalid_json");
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).line()).isEqualTo(2L);
          });
    }

    @Test
    void theTokenLimitIsPerLineAndInclusive() throws Exception {
      long tokens;
      try (com.fasterxml.jackson.core.JsonParser p = new com.fasterxml.jackson.core.JsonFactory().createParser(AUTHOR)) {
        long n = 0;
        while (p.nextToken() != null) {
          n++;
        }
        tokens = n;
      }
      String in = AUTHOR + "\n" + AUTHOR.replace("okafor", "other") + "\n" + AUTHOR.replace("okafor", "third");
      GraphLoader atLimit = new GraphLoader(COMPILED, LoadMode.APPEND).maxLineTokens(tokens);
      try (ValidatedLoad l = atLimit.load(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)))) {
        assertThat(atLimit.exactLines()).isZero();
        assertThat(l.table("node:Author").orElseThrow().ids()).containsExactly("okafor", "other", "third");
      }
      String over = in;
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.APPEND).maxLineTokens(tokens - 1)
              .load(new ByteArrayInputStream(over.getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("too_many_tokens");
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).line()).isEqualTo(1L);
          });
    }
  }

  @Nested
  class ValidInput {
    @Test
    void nodesAndEdgesAreReadWithTypedValuesAndDerivedIds() throws Exception {
      ValidatedLoad l = load(
          "{\"type\":\"Author\",\"data\":{\"handle\":\"okafor\",\"full_name\":\"N. Okafor\",\"born\":\"1977-06-04\",\"tags\":[\"sf\",\"x\"]}}",
          "",
          "{\"type\":\"Book\",\"data\":{\"isbn\":\"978-1\",\"title\":\"Delta\",\"year\":2011,\"pages\":4294967295,\"copies\":18446744073709551615,"
              + "\"rating\":4.5,\"score\":\"NaN\",\"status\":\"in_print\",\"published\":\"2011-03-04T05:06:07.089Z\",\"vec\":[1,2.5,-3],"
              + "\"cover\":\"base64:AAEC\",\"in_stock\":true}}",
          "{\"edge\":\"wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"role\":\"lead\"}}");
      assertThat(l.lines()).isEqualTo(3);
      assertThat(l.nodeRows()).isEqualTo(2);
      assertThat(l.edgeRows()).isEqualTo(1);
      TableRows.Row author = l.table("node:Author").orElseThrow().rows().get(0);
      assertThat(author.id()).isEqualTo("okafor");
      assertThat(author.values()).containsExactly("okafor", "N. Okafor", (int) java.time.LocalDate.of(1977, 6, 4).toEpochDay(), List.of("sf", "x"));
      TableRows.Row book = l.table("node:Book").orElseThrow().rows().get(0);
      assertThat(book.line()).isEqualTo(3);
      List<Object> v = book.values();
      assertThat(v.get(3)).isEqualTo(4294967295L);
      assertThat(v.get(4)).isEqualTo(-1L); // U64 max as an unsigned bit pattern
      assertThat(v.get(5)).isEqualTo(4.5f);
      assertThat((Double) v.get(6)).isNaN();
      assertThat(v.get(8)).isEqualTo(java.time.Instant.parse("2011-03-04T05:06:07.089Z").toEpochMilli());
      assertThat((float[]) v.get(9)).containsExactly(1f, 2.5f, -3f);
      assertThat((byte[]) v.get(10)).containsExactly(0, 1, 2);
      assertThat(v.get(11)).isEqualTo(true);
      TableRows wrote = l.table("edge:Wrote").orElseThrow();
      assertThat(wrote.rows().get(0).src()).isEqualTo("okafor");
      assertThat(wrote.rows().get(0).dst()).isEqualTo("978-1");
      assertThat(Ulid.isCanonical(wrote.rows().get(0).id())).isTrue();
    }

    @Test
    void unkeyedNodesGetAUlidUnlessTheySupplyAnId() throws Exception {
      ValidatedLoad l = load("{\"type\":\"Note\",\"data\":{\"text\":\"a\"}}", "{\"type\":\"Note\",\"data\":{\"text\":\"b\",\"id\":\"n-2\"}}");
      List<TableRows.Row> rows = l.table("node:Note").orElseThrow().rows();
      assertThat(Ulid.isCanonical(rows.get(0).id())).isTrue();
      assertThat(rows.get(1).id()).isEqualTo("n-2");
    }

    @Test
    void compositeKeysBecomeACompactJsonArrayInPropertyOrder() throws Exception {
      ValidatedLoad l = load("{\"type\":\"Edition\",\"data\":{\"year\":1954,\"author\":\"tolkien\"}}");
      assertThat(l.table("node:Edition").orElseThrow().rows().get(0).id()).isEqualTo("[\"tolkien\",\"1954\"]");
    }

    @Test
    void anExplicitIdEqualToTheCanonicalKeyIdIsAccepted() throws Exception {
      ValidatedLoad l = load("{\"type\":\"Author\",\"data\":{\"id\":\"okafor\",\"handle\":\"okafor\",\"full_name\":\"x\"}}");
      assertThat(l.table("node:Author").orElseThrow().ids()).containsExactly("okafor");
    }

    @Test
    void dateTimeAcceptsOffsetsNaiveTimesDatesAndEpochMillis() throws Exception {
      ValidatedLoad l = load(
          BOOK.replace("\"year\":2011", "\"year\":2011,\"published\":\"2011-03-04T06:06:07+01:00\""),
          BOOK.replace("978-1", "978-2").replace("\"year\":2011", "\"year\":2011,\"published\":\"2011-03-04T05:06:07\""),
          BOOK.replace("978-1", "978-3").replace("\"year\":2011", "\"year\":2011,\"published\":\"2011-03-04\""),
          BOOK.replace("978-1", "978-4").replace("\"year\":2011", "\"year\":2011,\"published\":1299215167000"));
      List<Object> published = l.table("node:Book").orElseThrow().rows().stream().map(r -> r.values().get(8)).toList();
      long t = java.time.Instant.parse("2011-03-04T05:06:07Z").toEpochMilli();
      assertThat(published).containsExactly(t, t, java.time.Instant.parse("2011-03-04T00:00:00Z").toEpochMilli(), 1299215167000L);
    }

    @Test
    void mergeKeepsTheLastRowForARepeatedId() throws Exception {
      ValidatedLoad l = load(LoadMode.MERGE, null, AUTHOR, AUTHOR.replace("N. Okafor", "Nnedi"));
      TableRows a = l.table("node:Author").orElseThrow();
      assertThat(a.size()).isEqualTo(1);
      assertThat(a.rows().get(0).values().get(1)).isEqualTo("Nnedi");
      assertThat(a.rows().get(0).line()).isEqualTo(2);
    }

    @Test
    void edgesMayReferenceCommittedNodes() throws Exception {
      try (CommittedBooks g = CommittedBooks.of(AUTHOR, BOOK)) {
        ValidatedLoad l = load(LoadMode.APPEND, g.snapshot(), "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\"}");
        assertThat(l.edgeRows()).isEqualTo(1);
      }
    }

    @Test
    void aTypeNameIsComparedWholeWithThePreviousLinesType() {
      // The fast path reuses the previous line's type when the name's characters are the same.
      String note = "{\"type\":\"Note\",\"data\":{\"text\":\"a\"}}";
      assertRule(LoadRule.UNKNOWN_NODE_TYPE, 2, "type", "unknown node type 'Not'",
          note, "{\"type\":\"Not\",\"data\":{\"text\":\"b\"}}");
      assertRule(LoadRule.UNKNOWN_NODE_TYPE, 2, "type", "unknown node type 'Notes'",
          note, "{\"type\":\"Notes\",\"data\":{\"text\":\"b\"}}");
      String wrote = "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\"}";
      assertRule(LoadRule.UNKNOWN_EDGE_TYPE, 3, "edge", "unknown edge type 'Wrot'",
          wrote, wrote, "{\"edge\":\"Wrot\",\"from\":\"okafor\",\"to\":\"978-1\"}");
    }

    @Test
    void linesMayMixNodesAndEdgesInAnyOrder() throws Exception {
      ValidatedLoad l = load("{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\"}", BOOK, AUTHOR);
      assertThat(l.tables()).extracting(t -> t.spec().tableKey()).containsExactly("node:Author", "node:Book", "edge:Wrote");
    }

    @Test
    void blankLinesAndCrlfAreSkippedAndLineNumbersStayExact() {
      assertRule(LoadRule.UNKNOWN_NODE_TYPE, 4, "type", "unknown node type 'X'",
          AUTHOR + "\r", "", "   \t", "{\"type\":\"X\"}\r");
    }

    @Test
    void aFinalLineWithoutNewlineIsRead() throws Exception {
      ValidatedLoad l = new GraphLoader(COMPILED, LoadMode.APPEND)
          .load(new ByteArrayInputStream((AUTHOR + "\n" + BOOK).getBytes(StandardCharsets.UTF_8)));
      assertThat(l.lines()).isEqualTo(2);
    }

    @Test
    void linesLongerThanTheReadChunkAreReassembled() throws Exception {
      String longText = "x".repeat(200_000);
      ValidatedLoad l = load("{\"type\":\"Note\",\"data\":{\"text\":\"" + longText + "\"}}", AUTHOR);
      assertThat(l.table("node:Note").orElseThrow().rows().get(0).values().get(0)).isEqualTo(longText);
      assertThat(l.table("node:Author").orElseThrow().rows().get(0).line()).isEqualTo(2);
    }

    @Test
    void anEmptyInputIsAnEmptyLoad() throws Exception {
      ValidatedLoad l = load("");
      assertThat(l.tables()).isEmpty();
      assertThat(l.lines()).isZero();
    }

    @Test
    void progressIsReportedWithTheLineCount() throws Exception {
      List<Long> seen = new ArrayList<>();
      new GraphLoader(COMPILED, LoadMode.APPEND).progress(seen::add)
          .load(new ByteArrayInputStream((AUTHOR + "\n" + BOOK + "\n").getBytes(StandardCharsets.UTF_8)));
      assertThat(seen).containsExactly(1L, 2L); // after the first line (a rate starts there) and at the end
    }
  }

  @Nested
  class PerLineRules {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        quoteCharacter = '`',
        textBlock =
            """
            INVALID_JSON      |          | {"type":"Note","data":{"text":"a"}              | Unexpected end-of-input
            INVALID_JSON      |          | {"type":"Note","type":"Note","data":{"text":"a"}} | Duplicate field 'type'
            INVALID_JSON      |          | {"type":"Note","data":{"text":"a"}} {}           | Trailing token
            INVALID_ENVELOPE  |          | [1,2]                                            | each line must be one JSON object
            INVALID_ENVELOPE  |          | {"data":{}}                                      | exactly one of 'type' (node) or 'edge'
            INVALID_ENVELOPE  |          | {"type":"Note","edge":"Wrote"}                   | exactly one of 'type' (node) or 'edge'
            INVALID_ENVELOPE  | extra    | {"type":"Note","extra":1}                        | unknown top-level graph batch field 'extra'
            RESERVED_FIELD    | _rowid   | {"type":"Note","_rowid":1}                       | reserved physical state
            INVALID_ENVELOPE  | type     | {"type":5}                                       | 'type' must be a string, got 5
            INVALID_ENVELOPE  | data     | {"type":"Note","data":[]}                        | 'data' must be an object
            INVALID_ENVELOPE  | from     | {"type":"Note","from":"x","data":{"text":"a"}}   | node lines do not take 'from'
            INVALID_ENVELOPE  | to       | {"edge":"Wrote","from":"a"}                      | edge lines need 'to'
            INVALID_ENVELOPE  | from     | {"edge":"Wrote","from":"","to":"b"}              | 'from' must not be empty
            UNKNOWN_NODE_TYPE | type     | {"type":"Nope","data":{}}                        | unknown node type 'Nope'
            UNKNOWN_NODE_TYPE | type     | {"type":"note","data":{}}                        | unknown node type 'note'
            UNKNOWN_EDGE_TYPE | edge     | {"edge":"Nope","from":"a","to":"b"}              | unknown edge type 'Nope'
            UNKNOWN_FIELD     | color    | {"type":"Note","data":{"text":"a","color":"red"}} | unknown input field 'color' for 'node:Note'
            RESERVED_FIELD    | _tombstone | {"type":"Note","data":{"text":"a","_tombstone":true}} | data field '_tombstone' is reserved
            RESERVED_FIELD    | src      | {"edge":"Wrote","from":"a","to":"b","data":{"src":"a"}} | reserved structural state
            TYPE_MISMATCH     | text     | {"type":"Note","data":{"text":5}}                | strict property 'text' expects Utf8, got 5
            TYPE_MISMATCH     | year     | {"type":"Book","data":{"isbn":"1","title":"t","year":"2011","status":"draft"}} | strict property 'year' expects Int32, got "2011"
            TYPE_MISMATCH     | year     | {"type":"Book","data":{"isbn":"1","title":"t","year":2011.5,"status":"draft"}} | expects Int32, got 2011.5
            TYPE_MISMATCH     | in_stock | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","in_stock":1}} | expects Boolean, got 1
            TYPE_MISMATCH     | born     | {"type":"Author","data":{"handle":"h","full_name":"f","born":"04/06/1977"}} | expects Date32
            TYPE_MISMATCH     | published | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","published":"yesterday"}} | expects Date64
            TYPE_MISMATCH     | tags     | {"type":"Author","data":{"handle":"h","full_name":"f","tags":"sf"}} | expects List(Utf8)
            TYPE_MISMATCH     | tags     | {"type":"Author","data":{"handle":"h","full_name":"f","tags":[1]}} | expects Utf8, got 1
            OUT_OF_RANGE      | year     | {"type":"Book","data":{"isbn":"1","title":"t","year":2147483648,"status":"draft"}} | value 2147483648 exceeds Int32 range
            OUT_OF_RANGE      | pages    | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","pages":-1}} | value -1 exceeds UInt32 range
            OUT_OF_RANGE      | copies   | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","copies":18446744073709551616}} | exceeds UInt64 range
            OUT_OF_RANGE      | rating   | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","rating":1e39}} | is not finite as Float32
            NULL_VALUE        | title    | {"type":"Book","data":{"isbn":"1","year":2011,"status":"draft"}} | non-nullable property 'title' has null or invalid values
            NULL_VALUE        | title    | {"type":"Book","data":{"isbn":"1","title":null,"year":2011,"status":"draft"}} | non-nullable property 'title'
            LIST_NULL_ITEM    | tags     | {"type":"Author","data":{"handle":"h","full_name":"f","tags":["a",null]}} | contains a null or invalid item
            VECTOR_LENGTH     | vec      | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","vec":[1,2]}} | expects 3 values, got 2
            ENUM_VALUE        | status   | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"gone"}} | invalid enum value 'gone' for node:Book.status (expected: draft, in_print)
            RANGE_VIOLATION   | year     | {"type":"Book","data":{"isbn":"1","title":"t","year":1399,"status":"draft"}} | @range violation on Book.year: value 1399 < min 1400
            RANGE_VIOLATION   | year     | {"type":"Book","data":{"isbn":"1","title":"t","year":2101,"status":"draft"}} | value 2101 > max 2100
            CHECK_VIOLATION   | isbn     | {"type":"Book","data":{"isbn":"abc","title":"t","year":2011,"status":"draft"}} | @check violation on Book.isbn: value 'abc' does not match pattern '^[0-9-]+$'
            MISSING_KEY       | handle   | {"type":"Author","data":{"full_name":"f"}}       | node Author is missing a non-null @key value
            MISSING_KEY       | year     | {"type":"Edition","data":{"author":"a","year":null}} | node Edition is missing a non-null @key value
            INVALID_ID        | id       | {"type":"Author","data":{"id":"x","handle":"h","full_name":"f"}} | explicit id 'x' does not match its canonical @key id 'h'
            INVALID_ID        | id       | {"type":"Note","data":{"id":7,"text":"a"}}       | 'id' must be a non-empty string
            INVALID_BLOB      | cover    | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","cover":"s3://b/k"}} | external blob URIs are not supported
            INVALID_BLOB      | cover    | {"type":"Book","data":{"isbn":"1","title":"t","year":2011,"status":"draft","cover":"base64:***"}} | invalid base64
            """)
    void isReportedWithLineFieldAndRule(LoadRule rule, String field, String line, String fragment) {
      // The offending line is the second one, after a valid line.
      assertRule(rule, 2, field, fragment, "{\"type\":\"Note\",\"data\":{\"text\":\"ok\"}}", line);
    }

    @Test
    void aLineWithTooManyJsonTokensIsRefused() {
      String many = "{\"type\":\"Author\",\"data\":{\"handle\":\"h\",\"full_name\":\"f\",\"tags\":[" + "\"t\",".repeat(60) + "\"t\"]}}";
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.APPEND).maxLineTokens(50)
              .load(new ByteArrayInputStream((AUTHOR + "\n" + many).getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("too_many_tokens");
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).line()).isEqualTo(2L);
          });
    }

    @Test
    void anOverlongLineIsRefusedBeforeParsing() {
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.APPEND).maxLineBytes(40)
              .load(new ByteArrayInputStream((AUTHOR + "\n").getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).rule()).isEqualTo("line_too_long");
            assertThat(((ErrorDetail.Validation) e.detail().orElseThrow()).line()).isEqualTo(1L);
          });
    }
  }

  @Nested
  class CrossRowRules {
    @Test
    void aRepeatedIdInAppendIsADuplicateKey() {
      assertRule(LoadRule.DUPLICATE_KEY, 3, "id", "duplicate id 'okafor' for node:Author (first at line 1)", AUTHOR, BOOK, AUTHOR);
    }

    @Test
    void aRepeatedIdInOverwriteIsADuplicateKey() {
      assertRule(LoadRule.DUPLICATE_KEY, 2, "id", "duplicate id 'n1'", LoadMode.OVERWRITE, null,
          "{\"type\":\"Note\",\"data\":{\"id\":\"n1\",\"text\":\"a\"}}", "{\"type\":\"Note\",\"data\":{\"id\":\"n1\",\"text\":\"b\"}}");
    }

    @Test
    void twoEntitiesWithTheSameUniqueValueViolateUnique() {
      assertRule(LoadRule.UNIQUE_VIOLATION, 2, "code", "@unique violation on Book.code: value 'c1' held by '978-1' and '978-2'",
          BOOK.replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""),
          BOOK.replace("978-1", "978-2").replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""));
    }

    @Test
    void nullMembersAreExemptFromUnique() throws Exception {
      assertThat(load(BOOK, BOOK.replace("978-1", "978-2")).nodeRows()).isEqualTo(2);
    }

    @Test
    void aUniqueValueHeldByAnotherCommittedEntityIsAViolation() {
      try (CommittedBooks g = CommittedBooks.of(BOOK.replace("978-1", "978-9").replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""))) {
        assertRule(LoadRule.UNIQUE_VIOLATION, 1, "code", "held by '978-9' and '978-1'", LoadMode.MERGE, g.snapshot(),
            BOOK.replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""));
      }
    }

    @Test
    void aCommittedHolderThatThisLoadRewritesDoesNotCount() throws Exception {
      try (CommittedBooks g = CommittedBooks.of(BOOK.replace("978-1", "978-9").replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""))) {
        ValidatedLoad l = load(LoadMode.MERGE, g.snapshot(),
            BOOK.replace("\"year\":2011", "\"year\":2011,\"code\":\"c1\""),
            BOOK.replace("978-1", "978-9").replace("\"year\":2011", "\"year\":2011,\"code\":\"c2\""));
        assertThat(l.nodeRows()).isEqualTo(2);
      }
    }

    @Test
    void parallelEdgesViolateUniqueSrcDst() {
      // Committed: a likes itself and c (Likes needs at least two per source).
      try (CommittedBooks g = CommittedBooks.of(AUTHOR.replace("okafor", "a"), AUTHOR.replace("okafor", "b"), AUTHOR.replace("okafor", "c"), "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"a\",\"data\":{\"id\":\"l0\"}}", "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"c\",\"data\":{\"id\":\"l1\"}}")) {
        assertRule(LoadRule.UNIQUE_VIOLATION, 2, "src,dst", "@unique violation on Likes.src,dst", LoadMode.APPEND, g.snapshot(),
            "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"b\"}", "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"b\"}");
      }
    }

    @Test
    void anEdgeToAMissingSourceIsDangling() {
      assertRule(LoadRule.DANGLING_EDGE, 2, "from", "src 'ghost' not found in Author",
          BOOK, "{\"edge\":\"Wrote\",\"from\":\"ghost\",\"to\":\"978-1\"}");
    }

    @Test
    void anEdgeToAMissingTargetIsDangling() {
      assertRule(LoadRule.DANGLING_EDGE, 2, "to", "dst 'nope' not found in Book",
          AUTHOR, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"nope\"}");
    }

    @Test
    void overwriteIgnoresCommittedRowsOfTheTypesItReplaces() {
      try (CommittedBooks g = CommittedBooks.of(AUTHOR, AUTHOR.replace("okafor", "old"), BOOK)) {
        assertRule(LoadRule.DANGLING_EDGE, 2, "from", "src 'old' not found in Author", LoadMode.OVERWRITE, g.snapshot(),
            AUTHOR, "{\"edge\":\"Wrote\",\"from\":\"old\",\"to\":\"978-1\"}");
      }
    }

    @Test
    void overwriteRefusesToOrphanCommittedEdgesOfUntouchedEdgeTypes() {
      try (CommittedBooks g = CommittedBooks.of(AUTHOR, AUTHOR.replace("okafor", "gone"), BOOK, "{\"edge\":\"Wrote\",\"from\":\"gone\",\"to\":\"978-1\",\"data\":{\"id\":\"w1\"}}")) {
        assertRule(LoadRule.DANGLING_EDGE, 1, "src", "overwrite of node:Author would orphan committed edge Wrote 'w1': src 'gone' not found in Author",
            LoadMode.OVERWRITE, g.snapshot(), AUTHOR);
      }
    }

    @Test
    void overwriteThatKeepsEveryReferencedNodeIsFine() throws Exception {
      try (CommittedBooks g = CommittedBooks.of(AUTHOR, BOOK, "{\"edge\":\"Wrote\",\"from\":\"okafor\",\"to\":\"978-1\",\"data\":{\"id\":\"w1\"}}")) {
        assertThat(load(LoadMode.OVERWRITE, g.snapshot(), AUTHOR).nodeRows()).isEqualTo(1);
      }
    }

    @Test
    void tooManyOutgoingEdgesViolateCardinality() {
      assertRule(LoadRule.CARDINALITY_VIOLATION, 6, "from", "@card violation on edge Cites: source '978-1' has 3 edges (max 2)",
          BOOK, BOOK.replace("978-1", "978-2"), BOOK.replace("978-1", "978-3"),
          "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\"}",
          "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-3\"}",
          "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-1\"}");
    }

    @Test
    void committedEdgesCountTowardsCardinality() {
      try (CommittedBooks g = CommittedBooks.of(CITES)) {
        assertRule(LoadRule.CARDINALITY_VIOLATION, 1, "from", "has 3 edges (max 2)", LoadMode.APPEND, g.snapshot(),
            "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\"}");
      }
    }

    @Test
    void committedEdgesBeingReplacedByIdDoNotCountTwice() throws Exception {
      try (CommittedBooks g = CommittedBooks.of(CITES)) {
        ValidatedLoad l = load(LoadMode.MERGE, g.snapshot(), "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\",\"data\":{\"id\":\"c1\"}}");
        assertThat(l.edgeRows()).isEqualTo(1);
      }
    }

    @Test
    void overwriteOfAnEdgeTypeCountsOnlyTheNewImage() throws Exception {
      try (CommittedBooks g = CommittedBooks.of(CITES)) {
        assertThat(load(LoadMode.OVERWRITE, g.snapshot(), "{\"edge\":\"Cites\",\"from\":\"978-1\",\"to\":\"978-2\"}").edgeRows()).isEqualTo(1);
      }
    }

    @Test
    void tooFewOutgoingEdgesOfATouchedSourceViolateTheMinimum() {
      try (CommittedBooks g = CommittedBooks.of(AUTHOR.replace("okafor", "a"), AUTHOR.replace("okafor", "b"))) {
        assertRule(LoadRule.CARDINALITY_VIOLATION, 1, "from", "@card violation on edge Likes: source 'a' has 1 edges (min 2)",
            LoadMode.APPEND, g.snapshot(), "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"b\"}");
      }
    }

    @Test
    void committedEdgesCountTowardsTheMinimum() throws Exception {
      // Committed: a likes c and d (Likes needs at least two per source); one more makes three.
      try (CommittedBooks g = CommittedBooks.of(AUTHOR.replace("okafor", "a"), AUTHOR.replace("okafor", "b"), AUTHOR.replace("okafor", "c"), AUTHOR.replace("okafor", "d"), "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"c\",\"data\":{\"id\":\"l0\"}}", "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"d\",\"data\":{\"id\":\"l1\"}}")) {
        assertThat(load(LoadMode.APPEND, g.snapshot(), "{\"edge\":\"Likes\",\"from\":\"a\",\"to\":\"b\"}").edgeRows()).isEqualTo(1);
      }
    }

    @Test
    void aTableOverTheRowCapIsAResourceLimitWithTheObservedCount() {
      assertThatThrownBy(() -> new GraphLoader(COMPILED, LoadMode.APPEND).maxRowsPerTable(2)
              .load(new ByteArrayInputStream(String.join("\n",
                  "{\"type\":\"Note\",\"data\":{\"text\":\"a\"}}", "{\"type\":\"Note\",\"data\":{\"text\":\"b\"}}",
                  "{\"type\":\"Note\",\"data\":{\"text\":\"c\"}}", AUTHOR).getBytes(StandardCharsets.UTF_8))))
          .isInstanceOfSatisfying(ResourceLimitException.class, e -> {
            ErrorDetail.ResourceLimit r = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
            assertThat(r.resource()).isEqualTo("keyed entities for node:Note");
            assertThat(r.limit()).isEqualTo(2);
            assertThat(r.actual()).isEqualTo(3);
          });
    }
  }
}
