package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.RecoveryOutcome;
import io.omnigraph.cli.Json;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph repair <uri> [--dry-run]}: runs the recovery sweep explicitly and says what it found and did. */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description = {
      "Resolve interrupted writes: for each recovery sidecar under __recovery/, classify every table it names,"
          + " then roll the write forward, roll it back, or refuse and keep the sidecar for an operator.",
      "Each roll-forward and rollback is recorded in the recovery audit (_graph_commit_recoveries.lance).",
      "Exit 0 when nothing is left pending; exit 3 (recovery required) when a sidecar was refused or is corrupt."
    })
public final class RepairCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--dry-run", description = "Only classify and report; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    List<RecoveryOutcome> outcomes = Omnigraph.repair(uri(positional), openOptions(uri(positional)), dryRun);
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri(positional));
      o.put("dry_run", dryRun);
      ArrayNode arr = o.putArray("sidecars");
      for (RecoveryOutcome r : outcomes) {
        ObjectNode n = arr.addObject();
        n.put("operation_id", r.operationId());
        n.put("writer_kind", r.writerKind());
        n.put("actor_id", r.actor());
        ObjectNode tables = n.putObject("tables");
        r.tables().forEach(tables::put);
        n.put("decision", r.decision());
        n.put("action", r.action());
        n.put("detail", r.detail());
        ObjectNode versions = n.putObject("table_outcomes");
        r.tableOutcomes().forEach(versions::put);
      }
      terminal().out().println(Json.write(o));
      return 0;
    }
    if (outcomes.isEmpty()) {
      terminal().out().println("no interrupted writes: nothing to repair at " + uri(positional));
      return 0;
    }
    terminal().out().println((dryRun ? "found " : "repaired ") + outcomes.size() + " interrupted write(s)"
        + (dryRun ? " (dry run, nothing changed)" : "") + ":");
    for (String line : RecoveryOutcome.describe(outcomes)) {
      terminal().out().println("  " + line);
    }
    return 0;
  }
}
