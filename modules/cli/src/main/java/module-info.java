/**
 * The {@code omnigraph} command line: picocli commands over the public API.
 *
 * <p>Exports nothing; {@code io.omnigraph.cli.OmnigraphCli} is the entry point. The command
 * package is opened to picocli, which reads annotated fields reflectively. The CLI runs on the class
 * path, where its {@code io.questdb.jar.jni.JarJniLoader} replaces jar-jni's so that Lance's native
 * library is loaded from a per-user cache (see {@code io.omnigraph.cli.nativelib.NativeLibraryCache}).
 */
module io.omnigraph.cli {
  requires io.omnigraph.api;
  requires info.picocli;
  requires com.fasterxml.jackson.databind;
  requires jdk.security.auth;
  // server lane: omnigraph serve and --server
  requires io.omnigraph.server;
  requires io.omnigraph.client;

  opens io.omnigraph.cli to info.picocli;
  opens io.omnigraph.cli.command to info.picocli;
}
