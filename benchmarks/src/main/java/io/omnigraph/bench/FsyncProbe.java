package io.omnigraph.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the ordering points of a durable commit cost at minimum on this disk (issue 18 item 2;
 * docs/benchmarks.md, "What a sync costs on this disk"). Times, in a directory on the disk under
 * test, the same system calls a durable 1-row write makes (docs/write-protocol.md, "Durability"):
 * <ul>
 *   <li>{@code fdatasync} of a freshly written small file ({@code FileChannel.force(false)}),
 *   <li>{@code fsync} of it ({@code force(true)}),
 *   <li>a directory {@code fsync} after a new entry (create or rename),
 *   <li>a durable put: write a temp file, {@code fdatasync}, rename, directory {@code fsync},
 *   <li>a sync group: {@code k} new small files {@code fdatasync}ed in parallel, then their directory
 *       once (what {@code CommitDurability} does per table version).
 * </ul>
 * Each is run {@code --ops} times after {@code --warmup}; the median, p99 and mean are printed.
 * Arguments: {@code --dir <dir>} (default {@code target/fsync-probe}), {@code --ops N} (200),
 * {@code --warmup N} (20), {@code --size BYTES} (4096), {@code --group K} (4).
 */
public final class FsyncProbe {
  private FsyncProbe() {}

  private interface Op {
    void run(int i) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opt = new LinkedHashMap<>(Map.of("--dir", "target/fsync-probe", "--ops", "200",
        "--warmup", "20", "--size", "4096", "--group", "4"));
    for (int i = 0; i + 1 < args.length; i += 2) {
      opt.put(args[i], args[i + 1]);
    }
    Path dir = Path.of(opt.get("--dir")).toAbsolutePath();
    int ops = Integer.parseInt(opt.get("--ops"));
    int warmup = Integer.parseInt(opt.get("--warmup"));
    int size = Integer.parseInt(opt.get("--size"));
    int group = Integer.parseInt(opt.get("--group"));
    Files.createDirectories(dir);
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, (byte) 'x');
    ExecutorService pool = Executors.newFixedThreadPool(group);
    System.out.printf("fsync probe in %s: %d ops after %d warm-up, %d-byte files, groups of %d; load %s%n", dir, ops,
        warmup, size, group, Files.readString(Path.of("/proc/loadavg")).trim());
    System.out.printf("%-58s %8s %8s %8s%n", "operation", "p50 ms", "p99 ms", "mean ms");
    try {
      time("write (no sync)", ops, warmup, i -> write(dir.resolve("w" + i), bytes, 0));
      time("write + fdatasync (new file)", ops, warmup, i -> write(dir.resolve("d" + i), bytes, 1));
      time("write + fsync (new file)", ops, warmup, i -> write(dir.resolve("f" + i), bytes, 2));
      time("directory fsync after one new entry", ops, warmup, i -> {
        write(dir.resolve("e" + i), bytes, 0);
        syncDir(dir);
      });
      time("durable put: temp, fdatasync, rename, directory fsync", ops, warmup, i -> {
        Path tmp = dir.resolve("p" + i + ".tmp");
        write(tmp, bytes, 1);
        Files.move(tmp, dir.resolve("p" + i), StandardCopyOption.ATOMIC_MOVE);
        syncDir(dir);
      });
      time("sync group: " + group + " new files fdatasync'd in parallel + dir fsync", ops, warmup, i -> {
        List<Future<?>> fs = new ArrayList<>();
        for (int k = 0; k < group; k++) {
          Path p = dir.resolve("g" + i + "_" + k);
          fs.add(pool.submit(() -> {
            write(p, bytes, 1);
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
        syncDir(dir);
      });
      time("sync group: " + group + " new files fdatasync'd one after another + dir fsync", ops, warmup, i -> {
        for (int k = 0; k < group; k++) {
          write(dir.resolve("s" + i + "_" + k), bytes, 1);
        }
        syncDir(dir);
      });
    } finally {
      pool.shutdownNow();
      try (var s = Files.list(dir)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** @param sync 0 none, 1 fdatasync, 2 fsync */
  private static void write(Path p, byte[] bytes, int sync) throws IOException {
    try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        c.write(b);
      }
      if (sync > 0) {
        c.force(sync == 2);
      }
    }
  }

  private static void syncDir(Path dir) throws IOException {
    try (FileChannel c = FileChannel.open(dir, StandardOpenOption.READ)) {
      c.force(true);
    }
  }

  private static void time(String name, int ops, int warmup, Op op) throws Exception {
    long[] t = new long[ops];
    for (int i = 0; i < warmup + ops; i++) {
      long t0 = System.nanoTime();
      op.run(i);
      long dt = System.nanoTime() - t0;
      if (i >= warmup) {
        t[i - warmup] = dt;
      }
    }
    long[] s = t.clone();
    Arrays.sort(s);
    double mean = Arrays.stream(s).average().orElse(0) / 1e6;
    System.out.printf("%-58s %8.2f %8.2f %8.2f%n", name, s[s.length / 2] / 1e6,
        s[Math.min(s.length - 1, (int) Math.ceil(s.length * 0.99) - 1)] / 1e6, mean);
  }
}
