package io.omnigraph.api;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Entry point: creates and opens graphs. The graph root is a plain local path, a {@code file:} URI
 * or an object-store URI ({@code s3://bucket/prefix}, ...) whose storage adapter is on the module or
 * class path.
 *
 * <pre>{@code
 * try (Graph g = Omnigraph.init("/tmp/g", "node Person { name: String @key }")) {
 *   g.load(LoadMode.APPEND, Path.of("people.ndjson"), LoadOptions.defaults());
 * }
 * }</pre>
 */
public final class Omnigraph {
  private Omnigraph() {}

  /** Same as {@link #init(String, String, OpenOptions)} with {@link OpenOptions#defaults()}. */
  public static Graph init(String uri, String schemaText) {
    return init(uri, schemaText, OpenOptions.defaults());
  }

  /**
   * Creates a graph: writes the schema files, one empty table per node and edge type, and the
   * manifest with the genesis commit.
   *
   * @param uri the graph root; must not contain a graph yet
   * @param schemaText the {@code .pg} schema source
   * @param options storage options
   * @return the open graph
   * @throws InvalidInputException the schema does not compile (the detail has line and column)
   * @throws ConflictException a graph (or an interrupted init) already exists at {@code uri}
   * @throws StorageFailureException the backend failed, or no adapter serves the URI's scheme
   */
  public static Graph init(String uri, String schemaText, OpenOptions options) {
    return engine().init(uri, schemaText, options);
  }

  /** Same as {@link #open(String, OpenOptions)} with {@link OpenOptions#defaults()}. */
  public static Graph open(String uri) {
    return open(uri, OpenOptions.defaults());
  }

  /**
   * Opens an existing graph read-write. Before the handle is returned, the open-time recovery
   * sweep resolves every interrupted write (see {@link #repair}).
   *
   * @param uri the graph root
   * @param options storage options
   * @return the open graph
   * @throws NotFoundException there is no graph at {@code uri}
   * @throws RecoveryRequiredException an interrupted write could not be resolved automatically (a
   *     corrupt, foreign or unsupported recovery sidecar, or drift recovery cannot prove safe to
   *     undo); the message names the sidecar, which is kept
   * @throws UnsupportedStorageVersionException the graph was written by an incompatible storage
   *     version (the message says how to rebuild it)
   * @throws StorageFailureException the backend failed
   */
  public static Graph open(String uri, OpenOptions options) {
    return engine().open(uri, options);
  }

  /**
   * Resolves interrupted writes explicitly (the same sweep a read-write open runs): for each
   * recovery sidecar under {@code __recovery/}, classifies every table it names, then rolls the
   * write forward (publishes its confirmed effects), rolls it back (restores the tables and
   * publishes the restored state), or refuses and keeps the sidecar for an operator. Every
   * roll-forward and rollback appends one row to the recovery audit ({@code _graph_commit_recoveries.lance}).
   *
   * @param dryRun only classify and report; change nothing
   * @return one outcome per sidecar found (empty when nothing was interrupted)
   * @throws RecoveryRequiredException a sidecar is corrupt or of an unsupported version, or (not in a
   *     dry run) a sidecar had to be refused; the sidecar is kept
   * @throws StorageFailureException {@code __recovery/} cannot be listed or a sidecar cannot be read
   */
  public static List<RecoveryOutcome> repair(String uri, OpenOptions options, boolean dryRun) {
    return engine().repair(uri, options, dryRun);
  }

  /**
   * {@link #cleanup(String, OpenOptions, CleanupOptions)} with {@link CleanupOptions#defaults()}:
   * removes every table version no commit of any branch pins, except each table's newest, and the
   * files only they reference, so every commit stays readable. Refused while any recovery sidecar is
   * pending: recovery needs the history it would remove.
   *
   * @return per table, how many versions were removed
   * @throws RecoveryRequiredException a recovery sidecar is pending; run {@link #repair} first
   */
  public static CleanupResult cleanup(String uri, OpenOptions options) {
    return engine().cleanup(uri, options);
  }

  // --- schema & maintenance ---

  /**
   * Removes each table's Lance versions that no commit pins, within {@code cleanup}'s bounds
   * (docs/maintenance.md, "cleanup"): the {@link CleanupOptions#keep()} newest versions of each
   * table stay, only versions created longer ago than {@link CleanupOptions#olderThan()} go, and
   * never a version that any commit of any branch pins (the commits of main and of every live
   * branch, including tables a branch still shares with its parent). With
   * {@link CleanupOptions#confirm()} false nothing is removed and the report says what would be.
   * Runs inside the root's effect window (waits for a live writer); {@code __manifest} and the
   * recovery audit are never cleaned.
   *
   * @throws RecoveryRequiredException a recovery sidecar is pending; run {@link #repair} first
   */
  public static CleanupReport cleanup(String uri, OpenOptions options, CleanupOptions cleanup) {
    return engine().cleanup(uri, options, cleanup);
  }

  private static GraphEngine engine() {
    List<GraphEngine> found = new ArrayList<>();
    try {
      ModuleLayer layer = Omnigraph.class.getModule().getLayer();
      if (layer != null) {
        ServiceLoader.load(layer, GraphEngine.class).forEach(found::add);
      }
      if (found.isEmpty()) {
        ServiceLoader.load(GraphEngine.class, Thread.currentThread().getContextClassLoader()).forEach(found::add);
      }
    } catch (ServiceConfigurationError e) {
      throw new InternalErrorException("the OmniGraph engine could not be loaded: " + e.getMessage(), null, e);
    }
    if (found.size() != 1) {
      throw new InternalErrorException(found.isEmpty()
          ? "no OmniGraph engine found: put omnigraph-engine on the module path or class path"
          : "more than one OmniGraph engine found: " + found, null);
    }
    return found.get(0);
  }
}
