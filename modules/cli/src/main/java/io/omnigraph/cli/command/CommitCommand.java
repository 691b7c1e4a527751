package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code omnigraph commit list|show}: the graph's commit history. */
@Command(
    name = "commit",
    mixinStandardHelpOptions = true,
    description = "Inspect the commit history.",
    subcommands = {CommitCommand.ListCommits.class, CommitCommand.ShowCommit.class})
public final class CommitCommand implements Runnable {

  @picocli.CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw io.omnigraph.cli.CliFailure.usage("a subcommand is required: list or show (see 'omnigraph commit --help')");
  }

  /** {@code commit list [<uri>]}: newest first. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List commits, newest first.")
  public static final class ListCommits extends GraphCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @picocli.CommandLine.Option(names = "--branch", paramLabel = "<branch>",
        description = "List the commits visible on this branch (default: main).")
    String branch;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        List<CommitInfo> commits = branch == null ? graph.commits() : graph.commits(branch);
        PrintWriter out = terminal().out();
        if (output.json()) {
          ObjectNode o = Json.object();
          ArrayNode array = o.putArray("commits");
          TableOrder order = TableOrder.of(graph.schema());
          commits.forEach(c -> array.add(CommitJson.of(c, order)));
          out.println(Json.write(o));
        } else {
          commits.forEach(c -> out.println(CommitJson.line(c)));
        }
      }
      return 0;
    }
  }

  /** {@code commit show <commit_id> [<uri>]}. */
  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one commit.")
  public static final class ShowCommit extends GraphCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "<commit_id>", description = "The full commit id.")
    String commitId;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store / --uri).")
    String positional;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        CommitInfo c = graph.commit(commitId)
            .orElseThrow(() -> new NotFoundException("no commit '" + commitId + "' in " + graph.uri(), null));
        PrintWriter out = terminal().out();
        if (output.json()) {
          out.println(Json.write(CommitJson.of(c, TableOrder.of(graph.schema()))));
          return 0;
        }
        out.println("commit   " + c.id());
        out.println("parents  " + (c.parents().isEmpty() ? "(genesis)" : String.join(", ", c.parents())));
        out.println("actor    " + (c.actor() == null ? "-" : c.actor()));
        out.println("created  " + c.createdAt());
        out.println("manifest version " + c.manifestVersion());
        if (c.message() != null) {
          out.println("message  " + c.message());
        }
        out.println("tables");
        for (Map.Entry<String, Long> e : TableOrder.of(graph.schema()).sorted(c.tableVersions()).entrySet()) {
          out.println("  " + e.getKey() + " @ v" + e.getValue());
        }
      }
      return 0;
    }
  }
}
