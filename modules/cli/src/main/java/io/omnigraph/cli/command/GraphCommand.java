package io.omnigraph.cli.command;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.cli.Terminal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every command on a graph shares: where the graph is, {@code --json}, the streams. */
abstract class GraphCommand {

  @Spec CommandSpec spec;

  @Mixin GraphOptions graphOptions;

  @Mixin OutputOptions output;

  /** @return the streams of this invocation */
  final Terminal terminal() {
    return ((OmnigraphCli) spec.root().userObject()).terminal();
  }

  /** @return the graph's URI from {@code positional} or {@code --store} */
  final String uri(String positional) {
    return graphOptions.uri(positional, terminal().env().get(GraphOptions.STORE_ENV));
  }

  /**
   * @param uri the graph root the options are for
   * @return the storage options from {@code --option}
   * @throws CliFailure a usage error for a key the root's adapter does not accept
   */
  final OpenOptions openOptions(String uri) {
    if (graphOptions.server() != null) {
      throw CliFailure.usage("this command works on a storage root directly; --server serves load, mutate, export,"
          + " commit list/show, schema show and recoveries");
    }
    StorageOptionKeys.check(uri, graphOptions.options());
    return new OpenOptions(graphOptions.options());
  }

  /** Opens the graph named by {@code positional} or {@code --store}. */
  final Graph open(String positional) {
    if (graphOptions.server() != null) {
      String token = terminal().env().get(GraphOptions.TOKEN_ENV);
      return io.omnigraph.client.HttpGraph.connect(java.net.URI.create(graphOptions.server()), graphOptions.graphId(positional),
          token == null || token.isBlank() ? null : token);
    }
    String uri = uri(positional);
    return Omnigraph.open(uri, openOptions(uri));
  }

  /**
   * Reads a local input file the user named (a schema, or data) as UTF-8.
   *
   * @throws CliFailure a usage error (exit 1) when the file does not exist
   */
  static String readLocalText(Path file, String what) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CliFailure(ExitCode.USAGE, "input_not_found", what + " file not found: " + file);
    } catch (CharacterCodingException e) {
      throw new CliFailure(ExitCode.DATA, "bad_request", what + " file is not valid UTF-8: " + file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " file " + file, e);
    }
  }
}
