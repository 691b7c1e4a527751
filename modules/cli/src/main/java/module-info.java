/**
 * The {@code omnigraph} command line: picocli commands over the public API.
 *
 * <p>Exports nothing; {@code io.omnigraph.cli.OmnigraphCli} is the entry point. The command
 * package is opened to picocli, which reads annotated fields reflectively. The CLI runs on the class
 * path; Lance's native library is loaded from a per-user cache by {@code omnigraph-native}, which the
 * engine brings (docs/library.md).
 */
module io.omnigraph.cli {
  requires io.omnigraph.api;
  requires info.picocli;
  requires com.fasterxml.jackson.databind;
  // LanceExit asks NativeLibraryCache whether Lance was loaded
  requires io.omnigraph.nativelib;
  // server lane: omnigraph serve and --server
  requires io.omnigraph.server;
  requires io.omnigraph.client;

  opens io.omnigraph.cli to info.picocli;
  opens io.omnigraph.cli.command to info.picocli;
}
