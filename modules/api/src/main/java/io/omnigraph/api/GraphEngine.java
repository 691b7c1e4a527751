package io.omnigraph.api;

/**
 * The service an engine module provides so that {@link Omnigraph} can create and open graphs
 * without the API module depending on it. Found with {@link java.util.ServiceLoader}; applications do
 * not call it directly. Implementations must throw only {@link OmnigraphException}s.
 */
public interface GraphEngine {

  /**
   * Creates a new graph at {@code uri}; see {@link Omnigraph#init(String, String, OpenOptions)}.
   *
   * @return the open graph
   */
  Graph init(String uri, String schemaText, OpenOptions options);

  /**
   * Opens an existing graph; see {@link Omnigraph#open(String, OpenOptions)}.
   *
   * @return the open graph
   */
  Graph open(String uri, OpenOptions options);

  /**
   * Runs the recovery sweep explicitly; see {@link Omnigraph#repair(String, OpenOptions, boolean)}.
   *
   * @return one outcome per sidecar found
   */
  java.util.List<RecoveryOutcome> repair(String uri, OpenOptions options, boolean dryRun);

  /**
   * Removes history no graph commit needs; see {@link Omnigraph#cleanup(String, OpenOptions)}.
   *
   * @return what was removed
   */
  CleanupResult cleanup(String uri, OpenOptions options);

  // --- schema & maintenance ---

  /**
   * Removes (or previews) history no graph commit needs; see
   * {@link Omnigraph#cleanup(String, OpenOptions, CleanupOptions)}.
   */
  CleanupReport cleanup(String uri, OpenOptions options, CleanupOptions cleanup);
}
