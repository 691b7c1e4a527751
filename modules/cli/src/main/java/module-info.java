/**
 * The {@code omnigraph} command line: picocli commands over the public API.
 *
 * <p>Exports nothing; {@code io.omnigraph.cli.OmnigraphCli} is the entry point. The command
 * package is opened to picocli, which reads annotated fields reflectively.
 */
module io.omnigraph.cli {
  requires io.omnigraph.api;
  requires info.picocli;
  requires com.fasterxml.jackson.databind;

  opens io.omnigraph.cli to info.picocli;
  opens io.omnigraph.cli.command to info.picocli;
}
