package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.cli.Json;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph recoveries <uri>}: the recovery audit, oldest first. */
@Command(
    name = "recoveries",
    mixinStandardHelpOptions = true,
    description = {
      "Print the recovery audit (_graph_commit_recoveries.lance): one line per interrupted write that was rolled"
          + " forward or back, oldest first, with the commit recovery published, the original actor and the"
          + " per-table versions."
    })
public final class RecoveriesCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    List<RecoveryRecord> records;
    try (Graph graph = open(positional)) {
      records = graph.recoveries();
    }
    if (output.json()) {
      ObjectNode o = Json.object();
      ArrayNode arr = o.putArray("recoveries");
      for (RecoveryRecord r : records) {
        ObjectNode n = arr.addObject();
        n.put("graph_commit_id", r.graphCommitId());
        n.put("recovery_kind", r.kind());
        n.put("recovery_for_actor", r.forActor());
        n.put("operation_id", r.operationId());
        n.put("sidecar_writer_kind", r.writerKind());
        ArrayNode t = n.putArray("per_table_outcomes");
        for (RecoveryRecord.TableOutcome x : r.tables()) {
          t.addObject().put("table_key", x.tableKey()).put("from_version", x.fromVersion())
              .put("to_version", x.toVersion());
        }
        n.put("created_at", r.createdAt().toString());
      }
      terminal().out().println(Json.write(o));
      return 0;
    }
    if (records.isEmpty()) {
      terminal().out().println("no recoveries recorded");
      return 0;
    }
    for (RecoveryRecord r : records) {
      StringBuilder b = new StringBuilder();
      b.append(r.createdAt()).append(' ').append(r.kind()).append(" operation ").append(r.operationId())
          .append(" (").append(r.writerKind()).append(", actor ").append(r.forActor()).append(") commit ")
          .append(r.graphCommitId());
      for (RecoveryRecord.TableOutcome x : r.tables()) {
        b.append(' ').append(x.tableKey()).append(' ').append(x.fromVersion()).append("->").append(x.toVersion());
      }
      terminal().out().println(b);
    }
    return 0;
  }
}
