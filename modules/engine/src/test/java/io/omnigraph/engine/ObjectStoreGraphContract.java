package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The graph lifecycle on an object store emulator, the same for every cloud backend: control
 * files go through the backend's adapter, table data through Lance with the adapter's
 * {@code lanceLocation}. A backend binds it with a fresh root URI (its own bucket or container)
 * and the options that reach the emulator.
 */
abstract class ObjectStoreGraphContract {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
        born: Date?
        seen: DateTime?
        score: F64?
        big: U64?
        tags: [String]?
        vec: Vector(2)?
        kind: enum(staff, guest)?
        photo: Blob?
      }
      node Company {
        title: String @key
      }
      edge WorksAt: Person -> Company @card(0..1) {
        since: I32?
      }
      """;

  static final String PEOPLE = """
      {"type":"Person","data":{"name":"ada","age":36,"born":"1815-12-10","seen":"2024-02-29T10:11:12.345Z","score":0.5,"big":18446744073709551615,"tags":["math","engines"],"vec":[0.5,1.5],"kind":"staff","photo":"base64:aGVsbG8="}}
      {"type":"Person","data":{"name":"bob"}}
      {"type":"Company","data":{"title":"acme"}}
      {"edge":"WorksAt","from":"ada","to":"acme","data":{"since":2020}}
      """;

  /** @return a root URI in a fresh, empty bucket or container of the emulator */
  abstract String freshRoot();

  /** @return the adapter options that reach the emulator with valid credentials */
  abstract OpenOptions options();

  static void load(Graph g, LoadMode mode, String ndjson, String actor) {
    g.load(mode, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withActor(actor));
  }

  private StorageAdapter adapter(String root) throws Exception {
    return StorageAdapters.open(URI.create(root), options().storageOptions());
  }

  @Test
  void initLaysOutTheGraphInTheStoreAndOpenReadsItBack() throws Exception {
    String root = freshRoot();
    String genesis;
    try (Graph g = Omnigraph.init(root, SCHEMA, options())) {
      genesis = g.commits().get(0).id();
    }
    try (Graph g = Omnigraph.open(root, options())) {
      assertThat(g.commits()).extracting(CommitInfo::id).containsExactly(genesis);
      assertThat(g.schema().tableKeys()).containsExactly("edge:WorksAt", "node:Company", "node:Person");
    }
    try (StorageAdapter store = adapter(root)) {
      // control files through the adapter ...
      assertThat(store.readText("_schema.pg")).isEqualTo(SCHEMA);
      assertThat(store.exists("_schema.ir.json")).isTrue();
      assertThat(store.readText("__schema_state.json")).contains("\"format_version\" : 2");
      // ... and Lance's datasets under the same root
      assertThat(store.list("__manifest/_versions").toList()).isNotEmpty();
      assertThat(store.exists("__init_claim.json")).isFalse();
    }
    // Everything lives below the root's prefix in the bucket or container.
    String bucketRoot = root.substring(0, root.length() - "/graphs/g1".length());
    assertThat(root).endsWith("/graphs/g1");
    try (StorageAdapter bucket = adapter(bucketRoot)) {
      assertThat(bucket.list("").toList()).isEmpty();
      assertThat(bucket.list("graphs/g1").toList()).containsExactly("graphs/g1/__schema_state.json",
          "graphs/g1/_schema.ir.json", "graphs/g1/_schema.pg");
      assertThat(bucket.list("graphs/g1/__manifest/_versions").toList()).isNotEmpty();
    }
    assertThatThrownBy(() -> Omnigraph.init(root, SCHEMA, options())).isInstanceOf(ConflictException.class);
  }

  @Test
  void everyLoadModeCommitsOnceAndExportRoundTripsByteForByteAfterSorting() {
    String root = freshRoot();
    String exported;
    try (Graph g = Omnigraph.init(root, SCHEMA, options())) {
      load(g, LoadMode.OVERWRITE, PEOPLE, "loader-1");
      load(g, LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":7,\"seen\":1709201472345}}\n", "loader-2");
      load(g, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"o'neil\",\"tags\":[]}}\n", "loader-3");
      assertThatThrownBy(() -> load(g, LoadMode.APPEND, "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n", "loader-4"))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
              .contains(new ErrorDetail.KeyConflict("node", "Person", List.of("ada"))));
      List<CommitInfo> commits = g.commits();
      assertThat(commits).extracting(CommitInfo::actor).startsWith("loader-3", "loader-2", "loader-1").hasSize(4);
      assertThat(commits.get(0).parents()).containsExactly(commits.get(1).id());
      assertThat(commits.get(0).tableVersions()).containsOnlyKeys("node:Person", "node:Company", "edge:WorksAt");
      exported = GraphIo.export(g);
      assertThat(GraphIo.sortedLines(exported)).hasSize(5)
          .anyMatch(l -> l.contains("\"id\":\"bob\"") && l.contains("\"age\":7") && l.contains("\"seen\":\"2024-02-29T10:11:12.345Z\""))
          .anyMatch(l -> l.contains("\"big\":18446744073709551615") && l.contains("\"photo\":\"base64:aGVsbG8=\""));
    }
    try (Graph again = Omnigraph.open(root, options())) {
      assertThat(GraphIo.export(again)).isEqualTo(exported);
    }
    // The export is load input that rebuilds the same graph, in every mode that can load it.
    for (LoadMode mode : LoadMode.values()) {
      try (Graph copy = Omnigraph.init(freshRoot(), SCHEMA, options())) {
        load(copy, mode, exported, "copy");
        assertThat(GraphIo.sortedLines(GraphIo.export(copy))).as(mode.name())
            .isEqualTo(GraphIo.sortedLines(exported));
      }
    }
  }

  @Test
  void openingARootWithoutAGraphIsNotFound() {
    assertThatThrownBy(() -> Omnigraph.open(freshRoot(), options())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void mutationsInsertUpdateAndCascadeDeleteWithOneCommitEach() {
    String root = freshRoot();
    try (Graph g = Omnigraph.init(root, MutationGraph.SCHEMA, options())) {
      MutationResult hired = g.mutate(MutationGraph.QUERIES, "hire", QueryParams.of(java.util.Map.of("name", "ada", "company", "acme")),
          MutationOptions.defaults());
      assertThat(hired.affectedEdges()).isEqualTo(1);
      g.mutate(MutationGraph.QUERIES, "set_age", QueryParams.of(java.util.Map.of("name", "ada", "age", 37)), MutationOptions.defaults());
      assertThatThrownBy(() -> g.mutate(MutationGraph.QUERIES, "join",
          QueryParams.of(java.util.Map.of("name", "ghost", "company", "acme")), MutationOptions.defaults()))
          .isInstanceOf(InvalidInputException.class);
      assertThat(TableDrift.drift(g)).isEmpty();
      MutationResult removed = g.mutate(MutationGraph.QUERIES, "remove_person", QueryParams.of(java.util.Map.of("name", "ada")),
          MutationOptions.defaults());
      assertThat(removed.tables().get("edge:WorksAt").deleted()).isEqualTo(1);
      assertThat(g.commits()).hasSize(4);
    }
    try (Graph again = Omnigraph.open(root, options())) {
      assertThat(GraphIo.sortedLines(GraphIo.export(again)))
          .singleElement().asString().startsWith("{\"type\":\"Company\"").contains("\"title\":\"acme\"");
    }
  }
}
