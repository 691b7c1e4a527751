package io.omnigraph.engine.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GraphSnapshot} and {@link SnapshotResolver} over real graphs on the local file system. */
class GraphSnapshotTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
      }
      node Company {
        title: String @key
      }
      """;
  /** The same types declared in the other order: the IR gives them each other's table identities. */
  static final String SWAPPED = """
      node Company {
        title: String @key
      }
      node Person {
        name: String @key
      }
      """;

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private static String load(Graph g, String... names) {
    StringBuilder b = new StringBuilder();
    for (String n : names) {
      b.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(n).append("\"}}\n");
    }
    return g.load(LoadMode.MERGE, new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults()).commitId();
  }

  /** A resolver of its own (own root, table store, manifest store) over the graph at {@code uri}. */
  private SnapshotResolver resolver(String uri) {
    GraphRoot root = GraphRoot.open(uri, Map.of());
    open.add(root);
    TableStore tables = new TableStore();
    open.add(tables);
    return new SnapshotResolver(root, tables);
  }

  private static List<String> personIds(GraphSnapshot s) {
    List<String> ids = new ArrayList<>();
    s.scan("node:Person", List.of("id"), null, batch -> {
      VarCharVector id = (VarCharVector) batch.getVector("id");
      for (int i = 0; i < batch.getRowCount(); i++) {
        ids.add(new String(id.get(i), StandardCharsets.UTF_8));
      }
    });
    return ids.stream().sorted().toList();
  }

  @Test
  void aSnapshotAtAnOlderCommitSeesExactlyThatCommitsRowsAndSchemaWhileMainHasMovedOn() {
    String uri = dir.resolve("g").toString();
    String first;
    String second;
    String schemaHash;
    try (Graph g = Omnigraph.init(uri, SCHEMA)) {
      first = load(g, "ada");
      second = load(g, "grace", "linus");
      schemaHash = g.schema().identity();
    }
    SnapshotResolver resolver = resolver(uri);
    try (GraphSnapshot old = resolver.resolve(GraphRef.commit(first));
        GraphSnapshot head = resolver.resolve(GraphRef.main())) {
      assertThat(head.manifest().headCommitId(GraphBranch.MAIN)).contains(second);
      assertThat(old.ref()).isEqualTo(GraphRef.commit(first));
      assertThat(old.manifest().headCommitId(GraphBranch.MAIN)).contains(first);
      assertThat(old.manifest().manifestVersion()).isLessThan(head.manifest().manifestVersion());
      assertThat(personIds(old)).containsExactly("ada");
      assertThat(old.existingNodeIds("Person", Set.of("ada", "grace", "linus"))).containsExactly("ada");
      assertThat(personIds(head)).containsExactly("ada", "grace", "linus");
      assertThat(old.entry("node:Person").version()).isLessThan(head.entry("node:Person").version());
      assertThat(old.schema().ir().hash()).isEqualTo(schemaHash);
      assertThat(old.schema().catalog().node("Person")).isPresent();
    }
  }

  @Test
  void aSnapshotStaysOnItsCutWhileAnotherWriterPublishes() {
    String uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, SCHEMA)) {
      String before = load(g, "ada");
      SnapshotResolver resolver = resolver(uri);
      try (GraphSnapshot s = resolver.resolve(GraphRef.main())) {
        long pinned = s.entry("node:Person").version();
        assertThat(personIds(s)).containsExactly("ada"); // node:Person is open from here on
        String after = g.load(LoadMode.MERGE, new ByteArrayInputStream((
            "{\"type\":\"Person\",\"data\":{\"name\":\"grace\"}}\n"
            + "{\"type\":\"Company\",\"data\":{\"title\":\"acme\"}}\n").getBytes(StandardCharsets.UTF_8)),
            LoadOptions.defaults()).commitId();
        assertThat(after).isNotEqualTo(before);
        assertThat(resolver.latest().headCommitId(GraphBranch.MAIN)).contains(after);
        assertThat(s.manifest().headCommitId(GraphBranch.MAIN)).contains(before);
        assertThat(s.entry("node:Person").version()).isEqualTo(pinned);
        assertThat(personIds(s)).containsExactly("ada");
        assertThat(s.existingNodeIds("Person", Set.of("ada", "grace"))).containsExactly("ada");
        // node:Company is opened only now, after the publish: still at the cut's version, still empty.
        long[] companies = {0};
        s.scan("node:Company", List.of("id"), null, batch -> companies[0] += batch.getRowCount());
        assertThat(companies[0]).isZero();
      }
    }
  }

  @Test
  void anUnknownBranchOrCommitIsATypedNotFound() {
    String uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, SCHEMA)) {
      load(g, "ada");
    }
    SnapshotResolver resolver = resolver(uri);
    Throwable branch = catchThrowable(() -> resolver.resolve(GraphRef.branch("feature")));
    assertThat(branch).isInstanceOf(NotFoundException.class).hasMessageContaining("feature");
    assertThat(((NotFoundException) branch).code()).isEqualTo("not_found");
    assertThat(((NotFoundException) branch).detail()).contains(
        new ErrorDetail.Validation(null, null, "ref", SnapshotResolver.UNKNOWN_BRANCH));
    Throwable commit = catchThrowable(() -> resolver.resolve(GraphRef.commit("01JZZZZZZZZZZZZZZZZZZZZZZZ")));
    assertThat(commit).isInstanceOf(NotFoundException.class).hasMessageContaining("01JZZZZZZZZZZZZZZZZZZZZZZZ");
    assertThat(((NotFoundException) commit).detail()).contains(
        new ErrorDetail.Validation(null, null, "ref", SnapshotResolver.UNKNOWN_COMMIT));
  }

  @Test
  void theSchemaAtACutIsReadFromTheRootsSchemaFiles() throws Exception {
    String uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, SCHEMA)) {
      load(g, "ada");
    }
    // The same accepted schema (same IR, same identities), its source text now with a comment.
    String commented = "// people and companies\n" + SCHEMA;
    Files.writeString(dir.resolve("g").resolve(SchemaFiles.SOURCE), commented);
    try (GraphSnapshot s = resolver(uri).resolve(GraphRef.main())) {
      assertThat(s.schema().source()).isEqualTo(commented);
    }
  }

  @Test
  void schemaFilesThatDoNotMatchTheCutsTableIdentitiesFailTyped() throws Exception {
    String uri = dir.resolve("g").toString();
    try (Graph g = Omnigraph.init(uri, SCHEMA)) {
      load(g, "ada");
    }
    // Another graph's schema files: the same type names, with the other's table identities.
    try (Graph other = Omnigraph.init(dir.resolve("other").toString(), SWAPPED)) {
      assertThat(other.schema().tableKeys()).containsExactlyInAnyOrder("node:Company", "node:Person");
    }
    for (String f : List.of(SchemaFiles.SOURCE, SchemaFiles.IR, SchemaFiles.STATE)) {
      Files.copy(dir.resolve("other").resolve(f), dir.resolve("g").resolve(f),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    Throwable e = catchThrowable(() -> resolver(uri).resolve(GraphRef.main()));
    assertThat(e).isInstanceOf(InternalErrorException.class).hasMessageContaining("the schema IR says");
    assertThat(((InternalErrorException) e).detail()).contains(
        new ErrorDetail.Validation(null, null, SchemaFiles.IR, SnapshotResolver.SCHEMA_IDENTITY_MISMATCH));
  }
}
