package io.omnigraph.engine.branch;

import static io.omnigraph.testkit.graph.MutationGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.graph.MutationGraph;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merges racing writers and other merges on the target, on threads of one JVM over real Lance
 * (docs/branches.md, "Merge"): no lost update, every rejection typed (a merge whose target moved is
 * {@code read_set_conflict} and is retried by the caller), main's history one chain with exactly one
 * merge commit per merged branch.
 */
class MergeConcurrencyTest {
  @TempDir Path dir;

  static void add(Graph g, String branch, String name) {
    g.mutate(MutationGraph.QUERIES, "add_person", QueryParams.of(Map.of("name", name, "age", 30)),
        MutationOptions.defaults().withBranch(branch));
  }

  @Test
  void mergesRacingWritersAndEachOtherLoseNothing() throws Exception {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      add(g, "main", "root");
      for (String b : List.of("f1", "f2")) {
        g.createBranch(b, null);
        for (int i = 0; i < 3; i++) {
          add(g, b, b + "-" + i);
        }
      }
      List<Throwable> untyped = Collections.synchronizedList(new ArrayList<>());
      List<String> retried = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (String b : List.of("f1", "f2")) {
        threads.add(new Thread(() -> {
          try {
            go.await();
            for (int attempt = 0; ; attempt++) {
              try {
                g.merge(b, "main", MergeOptions.defaults());
                return;
              } catch (ConflictException e) {
                if (!(e.detail().orElse(null) instanceof ErrorDetail.ReadSetConflict r)
                    || !r.member().equals("graph_head:main") || attempt > 50) {
                  throw e;
                }
                retried.add(b);
              }
            }
          } catch (Throwable t) {
            untyped.add(t);
          }
        }));
      }
      for (int w = 0; w < 2; w++) {
        int writer = w;
        threads.add(new Thread(() -> {
          try {
            go.await();
            for (int i = 0; i < 4; i++) {
              add(g, "main", "w" + writer + "-" + i);
            }
          } catch (Throwable t) {
            untyped.add(t);
          }
        }));
      }
      threads.forEach(Thread::start);
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(untyped).isEmpty();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      g.export(out);
      String main = out.toString(StandardCharsets.UTF_8);
      for (String name : List.of("root", "f1-0", "f1-1", "f1-2", "f2-0", "f2-1", "f2-2", "w0-0", "w0-3", "w1-0",
          "w1-3")) {
        assertThat(main).contains("\"" + name + "\"");
      }
      List<CommitInfo> commits = g.commits();
      for (int i = 0; i + 1 < commits.size(); i++) {
        assertThat(commits.get(i).parents().get(0)).as("first parent of " + commits.get(i).id())
            .isEqualTo(commits.get(i + 1).id());
      }
      assertThat(commits.stream().filter(c -> c.parents().size() == 2)).hasSize(2);
      assertThat(g.recoveries()).isEmpty();
      System.out.println("merge retries after a moved target: " + retried.size());
    }
  }
}
