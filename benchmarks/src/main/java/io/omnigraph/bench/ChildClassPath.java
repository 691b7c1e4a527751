package io.omnigraph.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The class path of one write-benchmark child: each system runs on its own dependencies, as its
 * users' applications would, not on the benchmark module's class path (about 340 jars: all three
 * systems, the S3 and Azure emulators and their SDKs). On that shared path every child paid for the
 * others: the OmniGraph child's first Arrow allocator picked Neo4j's SLF4J provider and started
 * log4j (Neo4j's logging), and every service lookup opened every jar, verifying the signed Azure
 * SDK jars (docs/benchmarks.md, "Write benchmark").
 *
 * <ul>
 *   <li>{@code omnigraph}: the engine's runtime class path as Maven resolves it (the engine module
 *       writes it to {@code target/runtime-classpath.txt}; its path is the system property
 *       {@code bench.omnigraph.classpath}), plus the engine itself, the local-disk adapter and the
 *       benchmark's classes.</li>
 *   <li>{@code kuzu}: the Kùzu jar (it has no dependencies), Jackson (the benchmark's NDJSON
 *       parse), the benchmark's classes and {@code omnigraph-api} (the child's class refers to one of
 *       its exception types, which the JVM's verifier loads).</li>
 *   <li>{@code neo4j}: the benchmark's class path without Kùzu (Neo4j's dependency tree is most of
 *       it).</li>
 * </ul>
 *
 * Without the property (not run through the {@code -Pbench-write} profile) every child gets the
 * whole class path, and {@link #description()} says so in the table's header.
 */
final class ChildClassPath {
  private final List<String> parent;
  private final List<String> omnigraphRuntime;

  private ChildClassPath(List<String> parent, List<String> omnigraphRuntime) {
    this.parent = parent;
    this.omnigraphRuntime = omnigraphRuntime;
  }

  /** For tests: the parent's class path entries and the engine's runtime entries (null: none given). */
  static ChildClassPath of(List<String> parent, List<String> omnigraphRuntime) {
    return new ChildClassPath(List.copyOf(parent), omnigraphRuntime == null ? null : List.copyOf(omnigraphRuntime));
  }

  static ChildClassPath fromSystemProperties() throws IOException {
    List<String> parent = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    String file = System.getProperty("bench.omnigraph.classpath", "");
    List<String> runtime = null;
    if (!file.isBlank() && Files.isRegularFile(Path.of(file))) {
      runtime = List.of(Files.readString(Path.of(file)).trim().split(File.pathSeparator));
    }
    return new ChildClassPath(parent, runtime);
  }

  /** @return how the children's class paths were chosen, for the table's header */
  String description() {
    return omnigraphRuntime == null
        ? "every child on the benchmark module's whole class path (bench.omnigraph.classpath not set)"
        : "each system on its own class path (OmniGraph: the engine's runtime class path; Kùzu: its jar and Jackson;"
            + " Neo4j: its dependency tree)";
  }

  /** @return the class path of a child measuring {@code system} */
  String forSystem(String system) {
    if (omnigraphRuntime == null) {
      return String.join(File.pathSeparator, parent);
    }
    Set<String> out = new LinkedHashSet<>();
    switch (system) {
      case "omnigraph" -> {
        for (String e : parent) {
          if (isBenchmarkClasses(e) || isModule(e, "api") || isModule(e, "engine") || isModule(e, "adapter-fs")
              || isModule(e, "native")) {
            out.add(e);
          }
        }
        out.addAll(omnigraphRuntime);
      }
      case "kuzu" -> {
        for (String e : parent) {
          if (isBenchmarkClasses(e) || isModule(e, "api") || e.contains("/com/kuzudb/")
              || e.contains("/com/fasterxml/jackson/core/jackson-core/")) {
            out.add(e);
          }
        }
      }
      default -> {
        for (String e : parent) {
          if (!e.contains("/com/kuzudb/")) {
            out.add(e);
          }
        }
      }
    }
    return String.join(File.pathSeparator, new ArrayList<>(out));
  }

  private static boolean isBenchmarkClasses(String entry) {
    String e = entry.replace('\\', '/');
    return e.endsWith("benchmarks/target/classes") || e.contains("omnigraph-benchmarks");
  }

  /** A reactor module's classes or jar: {@code modules/<name>/target/...} or {@code omnigraph-<name>-<version>.jar}. */
  private static boolean isModule(String entry, String name) {
    String e = entry.replace('\\', '/');
    return e.contains("/modules/" + name + "/target/") || e.contains("/io/omnigraph/omnigraph-" + name + "/");
  }
}
