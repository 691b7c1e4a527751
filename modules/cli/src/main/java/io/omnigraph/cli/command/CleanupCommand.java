package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CleanupResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.cli.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph cleanup <uri>}: removes table history no graph commit needs; refused while recovery is pending. */
@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    description = {
      "Remove Lance versions of every table older than the oldest version any graph commit pins, and the files"
          + " only they reference; every commit stays readable. Unreferenced files younger than 7 days are kept.",
      "Refused (exit 3, recovery required) while any recovery sidecar is pending: run 'omnigraph repair' first."
    })
public final class CleanupCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    CleanupResult result = Omnigraph.cleanup(uri(positional), openOptions(uri(positional)));
    long total = result.removedVersions().values().stream().mapToLong(Long::longValue).sum();
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri(positional));
      ObjectNode tables = o.putObject("removed_versions");
      new java.util.TreeMap<>(result.removedVersions()).forEach(tables::put);
      terminal().out().println(Json.write(o));
      return 0;
    }
    terminal().out().println("removed " + total + " old table version(s) at " + uri(positional));
    new java.util.TreeMap<>(result.removedVersions()).forEach((k, v) -> terminal().out().println("  " + k + ": " + v));
    return 0;
  }
}
