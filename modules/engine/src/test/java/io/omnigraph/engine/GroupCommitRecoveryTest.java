package io.omnigraph.engine;

import static io.omnigraph.engine.RecoveryWrites.BEFORE;
import static io.omnigraph.engine.TableDrift.assertNoDrift;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.ExportOptions;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.engine.InterruptedGroup.StopAt;
import io.omnigraph.engine.recovery.RecoveryAudit;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash cells of a group commit (docs/concurrency.md, "Group commit") on real Lance datasets on
 * local disk: each cell leaves a root as a process that died at one point of the batch would
 * ({@link InterruptedGroup}), reopens it (the open-time sweep), and checks the whole batch is either
 * gone (the state before, one rollback commit or none) or there with every member its own commit —
 * parents in chain order, and reading at member j equal to the reference graph after exactly
 * members 1..j written one by one — with no sidecar and no table drift left.
 */
class GroupCommitRecoveryTest {
  @TempDir Path dir;

  static final String BOB = PeopleGraph.person("bob", 20);
  static final String CY = PeopleGraph.person("cy", 30);
  static final String INITECH = "{\"type\":\"Company\",\"data\":{\"title\":\"initech\"}}\n";
  static final String GLOBEX = "{\"type\":\"Company\",\"data\":{\"title\":\"globex\"}}\n";

  /** Three members over two tables: chains Person [m0, m2] and Company [m1, m2]. */
  static final List<String> THREE = List.of(BOB, INITECH, CY + GLOBEX);
  /** Two members on one table: one chain of two. */
  static final List<String> TWO = List.of(BOB, CY);

  static List<String> many(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(PeopleGraph.person("p" + i, i) + (i % 3 == 2 ? "{\"type\":\"Company\",\"data\":{\"title\":\"c" + i + "\"}}\n" : ""));
    }
    return out;
  }

  int roots;

  /** @return the URI of a new root ({@code n} numbers them) */
  String newUri(int n) {
    return dir.resolve("g" + n).toString();
  }

  Graph init(String uri) {
    return Omnigraph.init(uri, PeopleGraph.SCHEMA);
  }

  Graph open(String uri) {
    return Omnigraph.open(uri);
  }

  /** A fresh root with {@link RecoveryWrites#BEFORE} loaded. */
  String root() {
    String uri = newUri(roots++);
    try (Graph g = init(uri)) {
      GraphIo.load(g, LoadMode.OVERWRITE, BEFORE);
    }
    return uri;
  }

  /** @return the exports of the reference graph: before, then after each member written alone */
  List<String> reference(List<String> members) {
    List<String> out = new ArrayList<>();
    try (Graph g = open(root())) {
      out.add(GraphIo.export(g));
      for (String m : members) {
        GraphIo.load(g, LoadMode.APPEND, m);
        out.add(GraphIo.export(g));
      }
    }
    return out;
  }

  static String exportAt(Graph g, String commitId) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out, ExportOptions.atCommit(commitId));
    return out.toString(StandardCharsets.UTF_8);
  }

  /** @return the sidecar file names under the root */
  List<String> sidecars(String uri) throws IOException {
    Path d = Path.of(uri).resolve(RecoverySidecar.DIR);
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    try (var s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).toList();
    }
  }

  /** Runs one cell and checks its outcome: {@code forward} (the whole batch) or back (none of it). */
  void cell(List<String> members, List<String> ref, StopAt stop, int k, boolean forward) throws IOException {
    String uri = root();
    InterruptedGroup w;
    List<String> headsBefore;
    try (LanceGraph g = (LanceGraph) open(uri)) {
      headsBefore = GraphIo.commitIds(g);
    }
    // Crash: the handle that ran the batch is dropped without retiring anything.
    LanceGraph crashed = (LanceGraph) open(uri);
    try {
      w = InterruptedGroup.run(crashed, members, "svc", stop, k);
    } finally {
      crashed.close();
    }
    String label = stop + (stop == StopAt.AFTER_COMMITS ? " " + k + "/" + w.totalCommits : "") + " of "
        + members.size() + " members";
    assertThat(sidecars(uri)).as(label + ": the sidecar survives the crash").hasSize(1);
    try (LanceGraph g = (LanceGraph) open(uri)) {
      assertThat(sidecars(uri)).as(label).isEmpty();
      assertNoDrift(g);
      List<CommitInfo> commits = g.commits();
      if (!forward) {
        assertThat(GraphIo.export(g)).as(label).isEqualTo(ref.get(0));
        assertThat(commits.stream().map(CommitInfo::id)).as(label).doesNotContainAnyElementsOf(w.commitIds);
        boolean anyEffect = stop != StopAt.AFTER_ARM;
        assertThat(commits).as(label).hasSize(headsBefore.size() + (anyEffect ? 1 : 0));
        if (anyEffect) {
          assertThat(commits.get(0).id()).isEqualTo(w.sidecar.protocol().rollbackGraphCommitId());
          assertThat(g.recovery().audit().list()).singleElement()
              .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledBack));
        }
        return;
      }
      assertThat(GraphIo.export(g)).as(label).isEqualTo(ref.get(members.size()));
      // Newest first: the members in reverse chain order on top of the head before the batch.
      List<String> ids = commits.stream().map(CommitInfo::id).toList();
      List<String> newestFirst = new ArrayList<>(w.commitIds);
      java.util.Collections.reverse(newestFirst);
      assertThat(ids.subList(0, members.size())).as(label).containsExactlyElementsOf(newestFirst);
      assertThat(ids.get(members.size())).isEqualTo(headsBefore.get(0));
      for (int j = 0; j < members.size(); j++) {
        CommitInfo c = g.commit(w.commitIds.get(j)).orElseThrow();
        assertThat(c.parents()).as(label + " parent of member " + j)
            .containsExactly(j == 0 ? headsBefore.get(0) : w.commitIds.get(j - 1));
        assertThat(c.actor()).isEqualTo("svc");
        assertThat(c.message()).isEqualTo("member " + j);
        assertThat(exportAt(g, w.commitIds.get(j))).as(label + ": reading at member " + j)
            .isEqualTo(ref.get(j + 1));
      }
      if (stop == StopAt.AFTER_CONFIRM) {
        assertThat(g.recovery().audit().list()).singleElement()
            .satisfies(r -> assertThat(r.kind()).isEqualTo(RecoveryAudit.Kind.RolledForward));
      }
    }
  }

  @Test
  void threeMembersOverTwoTablesAtEveryCrashPoint() throws IOException {
    List<String> ref = reference(THREE);
    cell(THREE, ref, StopAt.AFTER_ARM, 0, false);
    cell(THREE, ref, StopAt.AFTER_COMMITS, 1, false); // inside the first chain
    cell(THREE, ref, StopAt.AFTER_COMMITS, 2, false); // between the chains
    cell(THREE, ref, StopAt.AFTER_COMMITS, 3, false); // inside the second chain
    cell(THREE, ref, StopAt.AFTER_ALL_COMMITS, 0, false); // complete but never confirmed
    cell(THREE, ref, StopAt.AFTER_CONFIRM, 0, true);
    cell(THREE, ref, StopAt.AFTER_PUBLISH, 0, true); // published, not retired
  }

  @Test
  void twoMembersOnOneTable() throws IOException {
    List<String> ref = reference(TWO);
    cell(TWO, ref, StopAt.AFTER_COMMITS, 1, false);
    cell(TWO, ref, StopAt.AFTER_CONFIRM, 0, true);
    cell(TWO, ref, StopAt.AFTER_PUBLISH, 0, true);
  }

  @Test
  void aBranchIsCreatedAtTheLastMemberOfAGroupNeverAtAnEarlierOne() throws IOException {
    List<String> ref = reference(TWO);
    String uri = root();
    InterruptedGroup w;
    try (LanceGraph g = (LanceGraph) open(uri)) {
      w = InterruptedGroup.run(g, TWO, "svc", StopAt.AFTER_PUBLISH, 0);
    }
    try (Graph g = open(uri)) {
      assertThatThrownBy(() -> g.createBranch("early", w.commitIds.get(0)))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail()).contains(
              new ErrorDetail.Validation(null, null, "from", "group_member_commit")));
      assertThat(g.branches().stream().map(io.omnigraph.api.BranchInfo::name)).doesNotContain("early");
      g.createBranch("late", w.commitIds.get(1));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      g.export(out, ExportOptions.onBranch("late"));
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(ref.get(2));
    }
  }

  @Test
  void manyMembers() throws IOException {
    List<String> members = many(8);
    List<String> ref = reference(members);
    cell(members, ref, StopAt.AFTER_COMMITS, 5, false);
    cell(members, ref, StopAt.AFTER_CONFIRM, 0, true);
  }
}
