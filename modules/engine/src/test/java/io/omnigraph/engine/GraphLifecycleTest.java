package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.Omnigraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphLifecycleTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Company {
        title: String @key
      }
      edge WorksAt: Person -> Company {
        since: I32?
      }
      """;

  @TempDir Path dir;

  @Test
  void initLaysOutTheGraphRootAndOpenReadsItBack() throws Exception {
    Path root = dir.resolve("g");
    String genesis;
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      List<CommitInfo> commits = g.commits();
      assertThat(commits).hasSize(1);
      genesis = commits.get(0).id();
      assertThat(commits.get(0).parents()).isEmpty();
      assertThat(commits.get(0).manifestVersion()).isEqualTo(1);
      assertThat(commits.get(0).tableVersions()).containsOnlyKeys("node:Person", "node:Company", "edge:WorksAt");
      assertThat(g.schema().tableKeys()).containsExactly("edge:WorksAt", "node:Company", "node:Person");
    }
    assertThat(root.resolve("_schema.pg")).hasContent(SCHEMA);
    assertThat(root.resolve("_schema.ir.json")).isRegularFile();
    assertThat(Files.readString(root.resolve("__schema_state.json"))).contains("\"format_version\" : 2");
    assertThat(root.resolve("__manifest/_versions")).isDirectory();
    assertThat(root.resolve("__init_claim.json")).doesNotExist();
    try (Stream<Path> nodes = Files.list(root.resolve("nodes")); Stream<Path> edges = Files.list(root.resolve("edges"))) {
      assertThat(nodes.map(p -> p.getFileName().toString()).toList()).hasSize(2)
          .allMatch(n -> n.matches("[0-9a-f]{16}-[0-9a-f]{16}"));
      assertThat(edges.count()).isEqualTo(1);
    }
    try (Graph g = Omnigraph.open(root.toUri().toString())) {
      assertThat(g.commits()).extracting(CommitInfo::id).containsExactly(genesis);
      assertThat(g.commit(genesis)).isPresent();
      assertThat(g.commit("nope")).isEmpty();
      assertThat(g.schema().source()).isEqualTo(SCHEMA);
      assertThat(g.schema().identity()).startsWith("sha256:");
    }
  }

  @Test
  void initOnAnExistingGraphIsAConflict() {
    Path root = dir.resolve("g");
    Omnigraph.init(root.toString(), SCHEMA).close();
    assertThatThrownBy(() -> Omnigraph.init(root.toString(), SCHEMA)).isInstanceOf(ConflictException.class)
        .hasMessageContaining("already exists");
  }

  @Test
  void anInvalidSchemaWritesNothingAndNamesLineAndColumn() {
    Path root = dir.resolve("g");
    assertThatThrownBy(() -> Omnigraph.init(root.toString(), "node Person {\n  name: Strang\n}\n"))
        .isInstanceOfSatisfying(InvalidInputException.class, e -> {
          ErrorDetail.Validation v = (ErrorDetail.Validation) e.detail().orElseThrow();
          assertThat(v.line()).isEqualTo(2L);
          assertThat(v.column()).isNotNull();
        });
    assertThat(root).doesNotExist();
  }

  @Test
  void openingARootWithoutAGraphIsNotFound() {
    assertThatThrownBy(() -> Omnigraph.open(dir.resolve("empty").toString())).isInstanceOf(NotFoundException.class)
        .hasMessageContaining("no graph");
  }

  @Test
  void anInterruptedInitIsReportedByItsClaim() throws Exception {
    Path root = dir.resolve("g");
    Files.createDirectories(root);
    Files.writeString(root.resolve("__init_claim.json"), "{}");
    assertThatThrownBy(() -> Omnigraph.init(root.toString(), SCHEMA)).isInstanceOf(ConflictException.class)
        .hasMessageContaining("__init_claim.json");
    assertThatThrownBy(() -> Omnigraph.open(root.toString())).isInstanceOf(ConflictException.class)
        .hasMessageContaining("interrupted");
  }

  @Test
  void aClosedHandleRefusesCalls() {
    Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
    g.close();
    g.close();
    assertThatThrownBy(g::commits).isInstanceOf(InvalidInputException.class).hasMessageContaining("closed");
  }
}
