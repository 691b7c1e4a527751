package io.omnigraph.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional writes are atomic across OS processes, not only across threads: child JVMs race on
 * one root (4 processes x 4 threads = 16 writers), released together by a "go" file.
 */
class CrossProcessRaceTest {
  private static final int PROCESSES = 4;
  private static final int THREADS = 4;

  @TempDir
  Path tmp;

  private List<String> race(String mode, Path root) throws Exception {
    Path go = tmp.resolve("go");
    List<Process> children = new ArrayList<>();
    List<Path> ready = new ArrayList<>();
    for (int i = 0; i < PROCESSES; i++) {
      Path r = tmp.resolve("ready-" + i);
      ready.add(r);
      children.add(ChildJvm.main(FsRaceChild.class, mode, root.toString(), "p" + i,
          Integer.toString(THREADS), r.toString(), go.toString()).start());
    }
    for (int i = 0; i < PROCESSES; i++) {
      while (!Files.exists(ready.get(i))) {
        if (!children.get(i).isAlive()) {
          throw new AssertionError("child " + i + " died before the race: " + ChildJvm.output(children.get(i), ChildJvm.GUARD));
        }
        Thread.sleep(5);
      }
    }
    Files.createFile(go);
    List<String> lines = new ArrayList<>();
    for (Process p : children) {
      String out = ChildJvm.output(p, ChildJvm.GUARD);
      assertThat(p.exitValue()).as(out).isZero();
      out.lines().filter(l -> !l.isBlank()).forEach(lines::add);
    }
    assertThat(lines).as("one line per writer").hasSize(PROCESSES * THREADS).noneMatch(l -> l.startsWith("ERROR"));
    return lines;
  }

  @Test
  void sixteenIfAbsentWritersInFourProcessesHaveExactlyOneWinner() throws Exception {
    Path root = tmp.resolve("root");
    List<String> lines = race("ifabsent", root);
    List<String> wins = lines.stream().filter(l -> l.startsWith("WIN ")).toList();
    assertThat(wins).hasSize(1);
    assertThat(lines.stream().filter(l -> !l.startsWith("WIN "))).allMatch(l -> l.equals("LOST PRECONDITION_FAILED"));
    try (StorageAdapter a = new FsStorageAdapterProvider().open(root.toUri(), Map.of())) {
      assertThat(a.readText("race/claim")).isEqualTo(wins.get(0).substring(4));
    }
  }

  @Test
  void ifMatchIncrementsFromFourProcessesLoseNoUpdate() throws Exception {
    Path root = tmp.resolve("root");
    try (StorageAdapter a = new FsStorageAdapterProvider().open(root.toUri(), Map.of())) {
      a.put("race/counter", "0".getBytes(StandardCharsets.UTF_8), WriteCondition.ifAbsent());
    }
    List<String> lines = race("counter", root);
    assertThat(lines).allMatch(l -> l.startsWith("DONE "));
    try (StorageAdapter a = new FsStorageAdapterProvider().open(root.toUri(), Map.of())) {
      assertThat(a.readText("race/counter")).isEqualTo(Integer.toString(PROCESSES * THREADS * 25));
    }
  }
}
