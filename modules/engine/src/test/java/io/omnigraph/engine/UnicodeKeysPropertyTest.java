package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Nodes keyed by arbitrary Unicode strings (emoji and other characters outside the Basic
 * Multilingual Plane, combining marks, quotes, backslashes, NUL, newlines, any scalar value) go
 * through every write path — load in each mode, keyed insert, update and delete by key, edges with a
 * bounded {@code @card} — and after every step the exported graph equals an in-memory model. An
 * operation the model says must be refused fails with its own typed error (a key conflict, a
 * dangling edge, a cardinality violation), never with a storage failure, and changes nothing.
 */
class UnicodeKeysPropertyTest {
  static final String SCHEMA = """
      node Item {
        slug: String @key
        n: I32
      }
      edge Link: Item -> Item @card(0..3)
      """;

  static final String QUERIES = """
      query put($slug: String, $n: I32) {
        insert Item { slug: $slug, n: $n }
      }
      query set_n($slug: String, $n: I32) {
        update Item set { n: $n } where slug = $slug
      }
      query remove($slug: String) {
        delete Item where slug = $slug
      }
      """;

  static final int MAX_LINKS = 3;
  static final ObjectMapper JSON = new ObjectMapper();

  /** One write against the graph; keys are indexes into the generated key pool. */
  sealed interface Step permits LoadNodes, LoadLinks, Put, SetN, Remove {}

  /** A node load of distinct keys in one mode. */
  record LoadNodes(LoadMode mode, List<Integer> keys, int n) implements Step {}

  /** An edge append of (from, to) key pairs. */
  record LoadLinks(List<int[]> pairs) implements Step {
    @Override
    public String toString() {
      return "LoadLinks" + pairs.stream().map(p -> p[0] + "->" + p[1]).toList();
    }
  }

  /** Keyed insert (an upsert) through a mutation. */
  record Put(int key, int n) implements Step {}

  /** {@code update ... where slug = $slug}. */
  record SetN(int key, int n) implements Step {}

  /** {@code delete ... where slug = $slug}, cascading to incident edges. */
  record Remove(int key) implements Step {}

  /** What the graph must hold: node key → n, and the Link edges as (from, to) → count. */
  static final class Model {
    final Map<String, Integer> nodes = new TreeMap<>();
    final Map<List<String>, Integer> links = new HashMap<>();

    long linksFrom(String key) {
      return links.entrySet().stream().filter(e -> e.getKey().get(0).equals(key)).mapToLong(Map.Entry::getValue).sum();
    }
  }

  @Property(tries = 10)
  void everyWritePathAgreesWithTheModelForArbitraryUnicodeKeys(
      @ForAll("keyPools") List<String> keys, @ForAll("steps") List<Step> steps) throws IOException {
    Path dir = Files.createTempDirectory("unicode-keys");
    try (Graph graph = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      Model model = new Model();
      // The reported case starts from a graph that an overwrite load filled.
      apply(graph, model, keys, new LoadNodes(LoadMode.OVERWRITE, indexes(keys.size()), 1));
      for (Step step : steps) {
        apply(graph, model, keys, step);
      }
    } finally {
      deleteTree(dir);
    }
  }

  private static List<Integer> indexes(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  private void apply(Graph graph, Model model, List<String> keys, Step step) {
    String what = step + " with keys " + keys.stream().map(UnicodeKeysPropertyTest::codePoints).toList();
    if (step instanceof LoadNodes l) {
      StringBuilder ndjson = new StringBuilder();
      for (int k : l.keys()) {
        ndjson.append(nodeLine(keys.get(k), l.n())).append('\n');
      }
      boolean existing = l.keys().stream().anyMatch(k -> model.nodes.containsKey(keys.get(k)));
      boolean orphans = l.mode() == LoadMode.OVERWRITE && model.links.keySet().stream()
          .flatMap(List::stream).anyMatch(end -> l.keys().stream().noneMatch(k -> keys.get(k).equals(end)));
      if (l.mode() == LoadMode.APPEND && existing) {
        expectRefusal(what, () -> load(graph, l.mode(), ndjson.toString()), ErrorKind.CONFLICT, Set.of());
      } else if (orphans) {
        expectRefusal(what, () -> load(graph, l.mode(), ndjson.toString()), ErrorKind.INVALID_INPUT, Set.of("dangling_edge"));
      } else {
        succeed(what, () -> load(graph, l.mode(), ndjson.toString()));
        if (l.mode() == LoadMode.OVERWRITE) {
          model.nodes.clear();
        }
        l.keys().forEach(k -> model.nodes.put(keys.get(k), l.n()));
      }
    } else if (step instanceof LoadLinks l) {
      StringBuilder ndjson = new StringBuilder();
      Set<String> rules = new java.util.HashSet<>();
      Map<String, Long> added = new HashMap<>();
      for (int[] p : l.pairs()) {
        String from = keys.get(p[0]);
        String to = keys.get(p[1]);
        ndjson.append(edgeLine(from, to)).append('\n');
        if (!model.nodes.containsKey(from) || !model.nodes.containsKey(to)) {
          rules.add("dangling_edge");
        }
        if (model.linksFrom(from) + added.merge(from, 1L, Long::sum) > MAX_LINKS) {
          rules.add("cardinality_violation");
        }
      }
      if (!rules.isEmpty()) {
        expectRefusal(what, () -> load(graph, LoadMode.APPEND, ndjson.toString()), ErrorKind.INVALID_INPUT, rules);
      } else {
        succeed(what, () -> load(graph, LoadMode.APPEND, ndjson.toString()));
        for (int[] p : l.pairs()) {
          model.links.merge(List.of(keys.get(p[0]), keys.get(p[1])), 1, Integer::sum);
        }
      }
    } else if (step instanceof Put p) {
      String key = keys.get(p.key());
      succeed(what, () -> mutate(graph, "put", Map.of("slug", key, "n", p.n())));
      model.nodes.put(key, p.n());
    } else if (step instanceof SetN s) {
      String key = keys.get(s.key());
      MutationResult r = succeed(what, () -> mutate(graph, "set_n", Map.of("slug", key, "n", s.n())));
      boolean present = model.nodes.containsKey(key);
      assertThat(r.affectedNodes()).as(what).isEqualTo(present ? 1 : 0);
      if (present) {
        model.nodes.put(key, s.n());
      }
    } else if (step instanceof Remove d) {
      String key = keys.get(d.key());
      MutationResult r = succeed(what, () -> mutate(graph, "remove", Map.of("slug", key)));
      assertThat(r.affectedNodes()).as(what).isEqualTo(model.nodes.containsKey(key) ? 1 : 0);
      model.nodes.remove(key);
      model.links.keySet().removeIf(l -> l.contains(key));
    }
    assertExportMatches(graph, model, what);
  }

  private static <T> T succeed(String what, java.util.function.Supplier<T> write) {
    try {
      return write.get();
    } catch (OmnigraphException e) {
      throw new AssertionError(what + " failed with " + e.kind() + " " + e.detail().orElse(null) + ": " + e.getMessage(), e);
    }
  }

  private static void expectRefusal(String what, Runnable write, ErrorKind kind, Set<String> rules) {
    try {
      write.run();
    } catch (OmnigraphException e) {
      assertThat(e.kind()).as("%s: %s", what, e.getMessage()).isEqualTo(kind);
      if (kind == ErrorKind.CONFLICT) {
        assertThat(e).as(what).isInstanceOf(ConflictException.class);
        assertThat(e.detail()).as(what).get().isInstanceOf(ErrorDetail.KeyConflict.class);
      } else {
        assertThat(e.detail()).as(what).get().isInstanceOfSatisfying(ErrorDetail.Validation.class,
            v -> assertThat(rules).as("%s: %s", what, e.getMessage()).contains(v.rule()));
      }
      return;
    }
    fail("%s was accepted, but the model expects a %s refusal %s", what, kind, rules);
  }

  private static String nodeLine(String key, int n) {
    ObjectNode data = JsonNodeFactory.instance.objectNode().put("slug", key).put("n", n);
    return JsonNodeFactory.instance.objectNode().put("type", "Item").set("data", data).toString();
  }

  private static String edgeLine(String from, String to) {
    return JsonNodeFactory.instance.objectNode().put("edge", "Link").put("from", from).put("to", to).toString();
  }

  private static Object load(Graph g, LoadMode mode, String ndjson) {
    return g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults());
  }

  private static MutationResult mutate(Graph g, String name, Map<String, ?> params) {
    return g.mutate(QUERIES, name, QueryParams.of(params), MutationOptions.defaults());
  }

  private static void assertExportMatches(Graph graph, Model model, String after) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out);
    Map<String, Integer> nodes = new TreeMap<>();
    Map<List<String>, Integer> links = new HashMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode j = read(line);
      if (j.has("type")) {
        JsonNode data = j.get("data");
        assertThat(data.get("id").asText()).as("id of %s after %s", line, after).isEqualTo(data.get("slug").asText());
        assertThat(nodes.put(data.get("slug").asText(), data.get("n").asInt())).as("duplicate %s after %s", line, after).isNull();
      } else {
        links.merge(List.of(j.get("from").asText(), j.get("to").asText()), 1, Integer::sum);
      }
    }
    assertThat(nodes).as("nodes after %s", after).isEqualTo(model.nodes);
    assertThat(links).as("links after %s", after).isEqualTo(model.links);
  }

  private static JsonNode read(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String codePoints(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(cp -> b.append(b.length() == 0 ? "" : " ").append(String.format("U+%04X", cp)));
    return "[" + b + "]";
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Three distinct non-empty keys, each of 1 to 6 code points drawn mostly from the awkward ones. */
  @Provide
  Arbitrary<List<String>> keyPools() {
    Arbitrary<Integer> codePoint = Arbitraries.oneOf(
        Arbitraries.of(0x1F600, 0x1F468, 0x200D, 0x1F469, 0x1D11E, 0x10FFFF, 0x10000),   // outside the BMP, ZWJ
        Arbitraries.of(0x0301, 0x0308, 0x20DD, 0x0E49),                                    // combining marks
        Arbitraries.of((int) '\'', (int) '"', (int) '\\', (int) '`', 0, (int) '\n', (int) '\r', (int) '\t', (int) '%'),
        Arbitraries.integers().between(0x20, 0x7E),
        Arbitraries.integers().between(0, 0x10FFFF).filter(cp -> cp < 0xD800 || cp > 0xDFFF));
    Arbitrary<String> key = codePoint.list().ofMinSize(1).ofMaxSize(6).map(cps -> {
      StringBuilder b = new StringBuilder();
      cps.forEach(b::appendCodePoint);
      return b.toString();
    });
    return key.list().uniqueElements().ofSize(3);
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Integer> key = Arbitraries.integers().between(0, 2);
    Arbitrary<Integer> n = Arbitraries.integers().between(-5, 5);
    Arbitrary<Step> loadNodes = Combinators.combine(
        Arbitraries.of(LoadMode.MERGE, LoadMode.APPEND, LoadMode.OVERWRITE), key.set().ofMinSize(1).ofMaxSize(3), n)
        .as((mode, ks, v) -> new LoadNodes(mode, List.copyOf(new java.util.TreeSet<>(ks)), v));
    Arbitrary<Step> links = Combinators.combine(key, key).as((a, b) -> new int[] {a, b}).list().ofMinSize(1).ofMaxSize(2)
        .map(LoadLinks::new);
    Arbitrary<Step> put = Combinators.combine(key, n).as(Put::new);
    Arbitrary<Step> set = Combinators.combine(key, n).as(SetN::new);
    Arbitrary<Step> remove = key.map(Remove::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, loadNodes), net.jqwik.api.Tuple.of(2, links), net.jqwik.api.Tuple.of(1, put),
        net.jqwik.api.Tuple.of(2, set), net.jqwik.api.Tuple.of(1, remove)).list().ofMinSize(1).ofMaxSize(7);
  }
}
