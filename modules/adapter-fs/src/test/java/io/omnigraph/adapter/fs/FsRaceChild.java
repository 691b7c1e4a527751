package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;

/**
 * A racing writer process: {@code <mode> <root> <id> <threads> <ready-file> <go-file>}. It opens the
 * adapter, creates {@code ready-file}, spins until {@code go-file} exists (so every process starts
 * together), then runs {@code threads} writers and prints one line per writer.
 *
 * <ul>
 *   <li>{@code ifabsent}: each writer puts {@code race/claim} with IfAbsent; prints {@code WIN <who>}
 *       or {@code LOST <kind>}.</li>
 *   <li>{@code counter}: each writer does 25 read-modify-write increments of {@code race/counter}
 *       with IfMatch, retrying on PRECONDITION_FAILED; prints {@code DONE <who> <conflicts>}.</li>
 * </ul>
 */
public final class FsRaceChild {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Path root = Path.of(args[1]);
    String id = args[2];
    int threads = Integer.parseInt(args[3]);
    Path ready = Path.of(args[4]);
    Path go = Path.of(args[5]);
    try (StorageAdapter adapter = new FsStorageAdapterProvider().open(root.toUri(), Map.of())) {
      Files.createFile(ready);
      while (!Files.exists(go)) {
        Thread.sleep(1);
      }
      CyclicBarrier barrier = new CyclicBarrier(threads);
      List<Thread> workers = new ArrayList<>();
      List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        String who = id + "-" + t;
        Thread w = new Thread(() -> {
          try {
            barrier.await();
            lines.add(mode.equals("ifabsent") ? claim(adapter, who) : count(adapter, who));
          } catch (Exception e) {
            lines.add("ERROR " + who + " " + e);
          }
        });
        workers.add(w);
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      lines.forEach(System.out::println);
    }
  }

  private static String claim(StorageAdapter adapter, String who) {
    try {
      adapter.put("race/claim", who.getBytes(StandardCharsets.UTF_8), WriteCondition.ifAbsent());
      return "WIN " + who;
    } catch (StorageException e) {
      return "LOST " + e.kind();
    }
  }

  private static String count(StorageAdapter adapter, String who) throws StorageException {
    int conflicts = 0;
    for (int k = 0; k < 25; k++) {
      while (true) {
        StoredObject cur = adapter.readIfExists("race/counter").orElseThrow();
        int next = Integer.parseInt(cur.text()) + 1;
        try {
          adapter.put("race/counter", Integer.toString(next).getBytes(StandardCharsets.UTF_8),
              WriteCondition.ifMatch(cur.version()));
          break;
        } catch (StorageException e) {
          if (e.kind() != StorageException.Kind.PRECONDITION_FAILED) {
            throw e;
          }
          conflicts++;
        }
      }
    }
    return "DONE " + who + " " + conflicts;
  }
}
