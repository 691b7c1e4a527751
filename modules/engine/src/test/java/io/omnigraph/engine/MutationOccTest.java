package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.write.StaleAttempt;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.MutationGraph;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optimistic concurrency of mutations (docs/write-protocol.md, "OCC rules at a glance"; docs/errors.md,
 * "read_set_conflict members"). A deterministic interleaving: the mutation prepares, then another
 * handle on the same
 * graph (as another process would) publishes a competing write through the
 * {@code beforeEffectWindow} seam, then the mutation continues into its effect window.
 *
 * <ul>
 *   <li>insert-only mutations re-prepare (bounded) after unrelated movement;</li>
 *   <li>a mutation with an update or a delete is ReadSetChanged (409) naming member, expected and
 *       actual;</li>
 *   <li>a strict insert (unkeyed node, edge) of an existing id, or of one a concurrent writer just
 *       inserted, is KeyConflict (409) naming table and key, never an upsert (the {@code newRowId}
 *       seam picks the id a strict insert gets, since fresh ULIDs never collide);</li>
 *   <li>an expected head that does not hold, before or after preparation, is PreconditionFailed
 *       (412), never a re-prepare and never a 409.</li>
 * </ul>
 */
class MutationOccTest {
  static final String Q = MutationGraph.QUERIES + """
      query add_note_and_retext($text: String, $from: String, $to: String) {
        insert Note { text: $text }
        update Note set { text: $to } where text = $from
      }
      query add_two_notes($a: String, $b: String) {
        insert Note { text: $a }
        insert Note { text: $b }
      }
      """;

  @TempDir Path dir;
  Graph graph;
  Graph other;
  LanceGraph lance;

  @BeforeEach
  void init() {
    graph = Omnigraph.init(dir.resolve("g").toString(), MutationGraph.SCHEMA);
    other = Omnigraph.open(dir.resolve("g").toString());
    lance = (LanceGraph) graph;
  }

  @AfterEach
  void close() {
    graph.close();
    other.close();
  }

  /** Runs {@code concurrent} (on the other handle) before the first {@code times} effect windows. */
  AtomicInteger interleave(int times, Runnable concurrent) {
    AtomicInteger attempts = new AtomicInteger();
    lance.beforeEffectWindow = () -> {
      if (attempts.incrementAndGet() <= times) {
        concurrent.run();
      }
    };
    return attempts;
  }

  static MutationResult mutate(Graph g, String name, Map<String, ?> params) {
    return mutate(g, name, params, MutationOptions.defaults());
  }

  static MutationResult mutate(Graph g, String name, Map<String, ?> params, MutationOptions options) {
    return g.mutate(Q, name, QueryParams.of(params), options);
  }

  void load(String ndjson) {
    GraphIo.load(graph, LoadMode.APPEND, ndjson);
  }

  String export() {
    return GraphIo.export(graph);
  }

  String head() {
    return graph.commits().get(0).id();
  }

  static void assertOneChain(List<CommitInfo> commits) {
    for (int i = 0; i + 1 < commits.size(); i++) {
      assertThat(commits.get(i).parents()).containsExactly(commits.get(i + 1).id());
    }
    assertThat(commits.get(commits.size() - 1).parents()).isEmpty();
  }

  static ErrorDetail.ReadSetConflict readSet(Throwable t) {
    return (ErrorDetail.ReadSetConflict) ((ConflictException) t).detail().orElseThrow();
  }

  // ---------------------------------------------------------------- insert-only: re-prepare

  @Test
  void anInsertOnlyMutationReprepareAfterAnUnrelatedPublishAndBothLandInOneChain() {
    AtomicInteger attempts = interleave(1, () -> mutate(other, "add_person", Map.of("name", "x")));
    MutationResult r = mutate(graph, "add_person", Map.of("name", "y"));
    assertThat(attempts.get()).isEqualTo(2);
    List<CommitInfo> commits = graph.commits();
    assertThat(commits).hasSize(3);
    assertThat(commits.get(0).id()).isEqualTo(r.commitId());
    assertOneChain(commits);
    assertThat(export()).contains("\"name\":\"x\"").contains("\"name\":\"y\"");
  }

  @Test
  void aKeyedInsertRacingTheSameKeyReprepareAndReplacesTheWinnerAsAnUpsert() {
    // A keyed insert is an upsert (docs/mutations.md); the re-prepared attempt replaces the concurrent row.
    AtomicInteger attempts = interleave(1, () -> mutate(other, "add_person", Map.of("name", "x", "age", 1)));
    mutate(graph, "add_person", Map.of("name", "x", "age", 2));
    assertThat(attempts.get()).isEqualTo(2);
    assertThat(export()).contains("\"age\":2").doesNotContain("\"age\":1");
    assertThat(graph.commits()).hasSize(3);
  }

  @Test
  void aReprepareValidatesAgainstTheNewStateSoAnEndpointDeletedMeanwhileFailsTheInsert() {
    load(PeopleGraph.person("a", 1) + PeopleGraph.person("b", 2));
    AtomicInteger attempts = interleave(1, () -> mutate(other, "remove_person", Map.of("name", "b")));
    assertThatThrownBy(() -> mutate(graph, "know", Map.of("a", "a", "b", "b")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("'b' not found");
    // The first attempt passed validation and reached its effect window; the re-prepared one failed it.
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(TableDrift.drift(graph)).isEmpty();
    assertThat(export()).doesNotContain("Knows");
  }

  @Test
  void aReprepareSeesAUniqueValueAConcurrentWriterJustTook() {
    AtomicInteger attempts = interleave(1,
        () -> mutate(other, "add_person_email", Map.of("name", "x", "email", "e@x")));
    assertThatThrownBy(() -> mutate(graph, "add_person_email", Map.of("name", "y", "email", "e@x")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("@unique");
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(export()).doesNotContain("\"name\":\"y\"");
  }

  @Test
  void reprepareIsBoundedWhenOtherWritersAlwaysWin() {
    AtomicInteger n = new AtomicInteger();
    AtomicInteger attempts = interleave(Integer.MAX_VALUE,
        () -> mutate(other, "add_person", Map.of("name", "w" + n.incrementAndGet())));
    assertThatThrownBy(() -> mutate(graph, "add_person", Map.of("name", "y")))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.getMessage()).contains("re-prepared");
          assertThat(readSet(e).member()).isEqualTo("graph_head:main");
        });
    assertThat(attempts.get()).isEqualTo(StaleAttempt.MAX_PRE_EFFECT_REPREPARES + 1);
    assertThat(export()).doesNotContain("\"name\":\"y\"");
  }

  // ---------------------------------------------------------------- update/delete: ReadSetChanged

  @Test
  void anUpdateAfterAConcurrentPublishIsReadSetChangedWithMemberExpectedAndActual() {
    load(PeopleGraph.person("x", 1));
    String before = head();
    AtomicInteger attempts = interleave(1, () -> mutate(other, "add_person", Map.of("name", "z")));
    assertThatThrownBy(() -> mutate(graph, "set_age", Map.of("name", "x", "age", 5)))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.code()).isEqualTo("conflict");
          assertThat(e.httpStatus()).isEqualTo(409);
          assertThat(readSet(e)).isEqualTo(new ErrorDetail.ReadSetConflict("graph_head:main", before,
              other.commits().get(0).id()));
        });
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(export()).contains("\"age\":1").doesNotContain("\"age\":5").contains("\"name\":\"z\"");
    assertThat(graph.commits()).hasSize(3);
    assertThat(TableDrift.drift(graph)).isEmpty();
  }

  @Test
  void aDeleteAfterAConcurrentPublishIsReadSetChanged() {
    load(PeopleGraph.person("x", 1));
    String before = head();
    AtomicInteger attempts = interleave(1, () -> mutate(other, "add_person", Map.of("name", "z")));
    assertThatThrownBy(() -> mutate(graph, "remove_person", Map.of("name", "x")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(readSet(e))
            .isEqualTo(new ErrorDetail.ReadSetConflict("graph_head:main", before, other.commits().get(0).id())));
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(export()).contains("\"name\":\"x\"");
    assertThat(graph.commits()).hasSize(3);
  }

  @Test
  void aMutationMixingAnInsertWithAnUpdateIsNotInsertOnlyAndIsReadSetChanged() {
    load("{\"type\":\"Note\",\"data\":{\"id\":\"N1\",\"text\":\"a\"}}\n");
    interleave(1, () -> mutate(other, "add_person", Map.of("name", "z")));
    assertThatThrownBy(() -> mutate(graph, "add_note_and_retext", Map.of("text", "new", "from", "a", "to", "b")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(readSet(e).member())
            .isEqualTo("graph_head:main"));
    assertThat(export()).contains("\"text\":\"a\"").doesNotContain("\"new\"");
  }

  // ---------------------------------------------------------------- strict inserts: KeyConflict

  @Test
  void aStrictNodeInsertOfAnExistingIdIsAKeyConflictAndLeavesTheRow() {
    load("{\"type\":\"Note\",\"data\":{\"id\":\"N1\",\"text\":\"old\"}}\n");
    lance.newRowId = () -> "N1";
    String before = head();
    assertThatThrownBy(() -> mutate(graph, "add_note", Map.of("text", "new")))
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(409);
          assertThat(e.detail()).contains(new ErrorDetail.KeyConflict("node", "Note", List.of("N1")));
        });
    assertThat(export()).contains("\"old\"").doesNotContain("\"new\"");
    assertThat(head()).isEqualTo(before);
  }

  @Test
  void aStrictEdgeInsertOfAnExistingIdIsAKeyConflict() {
    load(PeopleGraph.person("a", 1) + PeopleGraph.person("b", 2)
        + "{\"edge\":\"Knows\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"id\":\"E1\"}}\n");
    lance.newRowId = () -> "E1";
    assertThatThrownBy(() -> mutate(graph, "know", Map.of("a", "b", "b", "a")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.KeyConflict("edge", "Knows", List.of("E1"))));
    assertThat(export()).contains("\"from\":\"a\",\"to\":\"b\"").doesNotContain("\"from\":\"b\"");
  }

  @Test
  void aStrictInsertOfAnIdAConcurrentWriterJustInsertedIsAKeyConflictNotAnUpsert() {
    lance.newRowId = () -> "N2";
    AtomicInteger attempts = interleave(1, () -> GraphIo.load(other, LoadMode.APPEND,
        "{\"type\":\"Note\",\"data\":{\"id\":\"N2\",\"text\":\"theirs\"}}\n"));
    assertThatThrownBy(() -> mutate(graph, "add_note", Map.of("text", "mine")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.KeyConflict("node", "Note", List.of("N2"))));
    // The re-prepared attempt's id probe found the winner before staging anything.
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(export()).contains("\"theirs\"").doesNotContain("\"mine\"");
    assertThat(graph.commits()).hasSize(2);
  }

  @Test
  void aStrictInsertIntoATableAnUpdateAlsoRewritesIsStillAKeyConflict() {
    // The table is staged as an upsert because of the update; the strict id must still be new.
    load("{\"type\":\"Note\",\"data\":{\"id\":\"N1\",\"text\":\"old\"}}\n"
        + "{\"type\":\"Note\",\"data\":{\"id\":\"N3\",\"text\":\"a\"}}\n");
    lance.newRowId = () -> "N1";
    assertThatThrownBy(() -> mutate(graph, "add_note_and_retext", Map.of("text", "new", "from", "a", "to", "b")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.KeyConflict("node", "Note", List.of("N1"))));
    assertThat(export()).contains("\"old\"").contains("\"text\":\"a\"").doesNotContain("\"new\"");
  }

  @Test
  void twoStrictInsertsOfOneIdInOneMutationAreAKeyConflict() {
    lance.newRowId = () -> "N5";
    assertThatThrownBy(() -> mutate(graph, "add_two_notes", Map.of("a", "one", "b", "two")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.KeyConflict("node", "Note", List.of("N5"))));
    assertThat(export()).doesNotContain("\"one\"").doesNotContain("\"two\"");
  }

  // ---------------------------------------------------------------- expected head: PreconditionFailed

  @Test
  void anExpectedHeadThatMovesBeforeAnInsertsEffectsIsPreconditionFailedNeverAReprepare() {
    String genesis = head();
    AtomicInteger attempts = interleave(1, () -> mutate(other, "add_person", Map.of("name", "x")));
    assertThatThrownBy(() -> mutate(graph, "add_person", Map.of("name", "y"),
        MutationOptions.defaults().withExpectedHead(genesis)))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
          assertThat(e.httpStatus()).isEqualTo(412);
          assertThat(e.detail()).contains(new ErrorDetail.PreconditionFailure("main", genesis,
              other.commits().get(0).id()));
        });
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(export()).doesNotContain("\"name\":\"y\"");
  }

  @Test
  void anExpectedHeadThatMovesBeforeAnUpdatesEffectsIsPreconditionFailedNotReadSetChanged() {
    load(PeopleGraph.person("x", 1));
    String before = head();
    interleave(1, () -> mutate(other, "add_person", Map.of("name", "z")));
    assertThatThrownBy(() -> mutate(graph, "set_age", Map.of("name", "x", "age", 5),
        MutationOptions.defaults().withExpectedHead(before)))
        .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.detail())
            .contains(new ErrorDetail.PreconditionFailure("main", before, other.commits().get(0).id())));
    assertThat(export()).contains("\"age\":1");
  }

  @Test
  void theCurrentExpectedHeadSucceedsAndAnExpectedHeadOnAnUnmovedGraphNeedsNoReprepare() {
    String genesis = head();
    AtomicInteger attempts = interleave(0, () -> { });
    MutationResult r = mutate(graph, "add_person", Map.of("name", "y"),
        MutationOptions.defaults().withExpectedHead(genesis));
    assertThat(attempts.get()).isEqualTo(1);
    assertThat(graph.commits().get(0).id()).isEqualTo(r.commitId());
    assertThat(graph.commits().get(0).parents()).containsExactly(genesis);
  }
}
