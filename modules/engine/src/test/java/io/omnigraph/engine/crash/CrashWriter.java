package io.omnigraph.engine.crash;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Child-JVM main for the crash tests: opens a graph and runs ONE write, reporting on stdout.
 *
 * <pre>
 * CrashWriter &lt;uri&gt; [--option k=v]... load &lt;append|merge|overwrite&gt; &lt;ndjson file&gt;
 * CrashWriter &lt;uri&gt; [--option k=v]... mutate &lt;.gq file&gt; &lt;query name&gt; &lt;params JSON&gt;
 * CrashWriter &lt;uri&gt; [--option k=v]... ensure-indices
 * CrashWriter &lt;uri&gt; [--option k=v]... optimize
 * CrashWriter &lt;uri&gt; [--option k=v]... merge &lt;source branch&gt;   (into main)
 * CrashWriter &lt;uri&gt; [--option k=v]... branch-load &lt;branch&gt; &lt;append|merge|overwrite&gt; &lt;ndjson file&gt;
 * CrashWriter &lt;uri&gt; [--option k=v]... branch-create &lt;name&gt;   (from main)
 * CrashWriter &lt;uri&gt; [--option k=v]... branch-delete &lt;name&gt;
 * CrashWriter &lt;uri&gt; [--option k=v]... open
 * CrashWriter &lt;uri&gt; [--option k=v]... merge-retry &lt;source branch&gt;   (into main, retried while main moves)
 * CrashWriter &lt;uri&gt; [--option k=v]... load-each &lt;branch&gt; &lt;ndjson file&gt;...   (one merge-mode load per file)
 * </pre>
 *
 * Prints {@code committed <commit id>} (for a mutation that changed nothing, {@code committed none})
 * and exits 0 on success; prints {@code failed <code> <json>}
 * and exits 2 on an engine error. A failpoint armed through {@code -Domnigraph.failpoints} may halt
 * it first (exit {@link io.omnigraph.engine.failpoint.Failpoints#HALT_STATUS}).
 */
public final class CrashWriter {
  /** Exit status of a write the engine refused with a typed error. */
  public static final int FAILED_STATUS = 2;
  /** Printed (and flushed) right before the write starts, so a parent can time a kill into the write. */
  public static final String WRITING_MARKER = "writing";
  /** Printed after a successful write, followed by its duration in milliseconds. */
  public static final String WROTE_MARKER = "wrote-ms ";

  /** How often {@code merge-retry} and {@code load-each} retry a write whose read set moved. */
  static final int RETRIES = 50;

  private CrashWriter() {}

  /** A typed rejection that left no effect because another writer published first. */
  static boolean retriable(io.omnigraph.api.ConflictException e) {
    return e.detail().orElse(null) instanceof io.omnigraph.api.ErrorDetail.ReadSetConflict;
  }

  /**
   * @param props system properties of the child (e.g. an armed failpoint)
   * @param args see the class comment
   * @return a child JVM that runs this writer (512 MiB heap), to be started by the caller
   */
  public static ChildJvm child(Map<String, String> props, List<String> args) {
    return ChildJvm.main(CrashWriter.class, args).option("-Xmx512m").properties(props);
  }

  /**
   * @param args see the class comment
   */
  public static void main(String[] args) {
    int i = 0;
    String uri = args[i++];
    Map<String, String> options = new LinkedHashMap<>();
    while (args[i].equals("--option")) {
      String kv = args[i + 1];
      int eq = kv.indexOf('=');
      options.put(kv.substring(0, eq), kv.substring(eq + 1));
      i += 2;
    }
    String op = args[i++];
    try (Graph g = Omnigraph.open(uri, new OpenOptions(options))) {
      switch (op) {
        case "load" -> {
          LoadMode mode = LoadMode.parse(args[i++]);
          Path input = Path.of(args[i++]);
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          LoadResult r = g.load(mode, input, LoadOptions.defaults().withActor("crash-writer"));
          System.out.println("committed " + r.commitId());
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "mutate" -> {
          String gq = Files.readString(Path.of(args[i++]));
          String query = args[i++];
          String params = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          MutationResult r = g.mutate(gq, query, QueryParams.json(params),
              MutationOptions.defaults().withActor("crash-writer"));
          System.out.println("committed " + (r.commitId() == null ? "none" : r.commitId()));
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "ensure-indices" -> {
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          io.omnigraph.api.EnsureIndicesResult r = g.ensureIndices();
          System.out.println("committed " + (r.commitId() == null ? "none" : r.commitId()));
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "optimize" -> {
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          io.omnigraph.api.OptimizeResult r = g.optimize();
          System.out.println("committed " + (r.commitId() == null ? "none" : r.commitId()));
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "schema-apply" -> {
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          io.omnigraph.api.SchemaApplyResult r = g.applySchema(CrashWrites.SCHEMA_APPLY_PG,
              io.omnigraph.api.SchemaApplyOptions.defaults().withActor("crash-writer"));
          System.out.println("committed " + (r.commitId() == null ? "none" : r.commitId()));
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "merge" -> {
          String source = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          io.omnigraph.api.MergeResult r = g.merge(source, null,
              io.omnigraph.api.MergeOptions.defaults().withActor("crash-writer"));
          System.out.println("committed " + r.commitId());
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "merge-into" -> {
          String source = args[i++];
          String target = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          io.omnigraph.api.MergeResult r = g.merge(source, target,
              io.omnigraph.api.MergeOptions.defaults().withActor("crash-writer"));
          System.out.println("committed " + r.commitId());
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "branch-load" -> {
          String branch = args[i++];
          LoadMode mode = LoadMode.parse(args[i++]);
          Path input = Path.of(args[i++]);
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          LoadResult r = g.load(mode, input, LoadOptions.defaults().withActor("crash-writer").withBranch(branch));
          System.out.println("committed " + r.commitId());
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "branch-create" -> {
          String name = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          g.createBranch(name, null);
          System.out.println("committed branch " + name);
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "branch-delete" -> {
          String name = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          long t0 = System.nanoTime();
          g.deleteBranch(name);
          System.out.println("committed branch-delete " + name);
          System.out.println(WROTE_MARKER + (System.nanoTime() - t0) / 1_000_000);
        }
        case "open" -> System.out.println("opened"); // the read-write open ran the recovery sweep
        case "merge-retry" -> {
          // for the concurrency tests: a merge whose target moved under it is retried (typed, no effect)
          String source = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          for (int attempt = 0; ; attempt++) {
            try {
              io.omnigraph.api.MergeResult r = g.merge(source, null,
                  io.omnigraph.api.MergeOptions.defaults().withActor("crash-writer"));
              System.out.println("merged " + r.outcome().code() + " " + r.commitId() + " " + r.sourceCommitId());
              break;
            } catch (io.omnigraph.api.ConflictException e) {
              if (!retriable(e) || attempt >= RETRIES) {
                throw e;
              }
              System.out.println("retried " + e.code());
            }
          }
        }
        case "load-each" -> {
          String branch = args[i++];
          System.out.println(WRITING_MARKER);
          System.out.flush();
          for (; i < args.length; i++) {
            for (int attempt = 0; ; attempt++) {
              try {
                LoadResult r = g.load(LoadMode.MERGE, Path.of(args[i]),
                    LoadOptions.defaults().withActor("crash-writer").withBranch(branch));
                System.out.println("committed " + r.commitId());
                break;
              } catch (io.omnigraph.api.ConflictException e) {
                if (!retriable(e) || attempt >= RETRIES) {
                  throw e;
                }
                System.out.println("retried " + e.code());
              }
            }
          }
        }
        default -> throw new IllegalArgumentException("unknown operation " + op);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (OmnigraphException e) {
      System.out.println("failed " + e.code() + " " + e.toJson());
      System.out.flush();
      System.exit(FAILED_STATUS);
    }
    System.out.flush();
    System.exit(0);
  }
}
