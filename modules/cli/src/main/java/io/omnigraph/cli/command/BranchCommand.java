package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.Graph;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MergeResult;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph branch create|list|delete|merge} (docs/branches.md). */
@Command(
    name = "branch",
    mixinStandardHelpOptions = true,
    description = "Create, list, delete and merge graph branches.",
    subcommands = {BranchCommand.Create.class, BranchCommand.ListBranches.class, BranchCommand.Delete.class,
        BranchCommand.Merge.class})
public final class BranchCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw io.omnigraph.cli.CliFailure.usage(
        "a subcommand is required: create, list, delete or merge (see 'omnigraph branch --help')");
  }

  static ObjectNode json(BranchInfo b) {
    ObjectNode o = Json.object();
    o.put("name", b.name());
    o.put("head", b.head());
    if (b.parent() == null) {
      o.putNull("parent");
    } else {
      o.put("parent", b.parent());
    }
    return o;
  }

  /** {@code branch create <name> [--from <branch-or-commit>] [<uri>]}. */
  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create a branch at the head of a branch (default main) or at a commit.")
  public static final class Create extends GraphCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<name>", description = "The new branch's name.")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @Option(names = "--from", paramLabel = "<branch-or-commit>",
        description = "Fork from this branch's head or this commit (default: main).")
    String from;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        BranchInfo b = graph.createBranch(name, from);
        PrintWriter out = terminal().out();
        if (output.json()) {
          out.println(Json.write(json(b)));
        } else {
          out.println("created branch " + b.name() + " at " + b.head() + " (from " + b.parent() + ")");
        }
      }
      return 0;
    }
  }

  /** {@code branch list [<uri>]}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List branches, main first.")
  public static final class ListBranches extends GraphCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        PrintWriter out = terminal().out();
        if (output.json()) {
          ObjectNode o = Json.object();
          ArrayNode a = o.putArray("branches");
          graph.branches().forEach(b -> a.add(json(b)));
          out.println(Json.write(o));
        } else {
          for (BranchInfo b : graph.branches()) {
            out.println(b.name() + "\t" + b.head() + (b.parent() == null ? "" : "\tfrom " + b.parent()));
          }
        }
      }
      return 0;
    }
  }

  /** {@code branch delete <name> [<uri>]}. */
  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a branch (never main).")
  public static final class Delete extends GraphCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<name>", description = "The branch to delete.")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        graph.deleteBranch(name);
        PrintWriter out = terminal().out();
        if (output.json()) {
          ObjectNode o = Json.object();
          o.put("deleted", name);
          out.println(Json.write(o));
        } else {
          out.println("deleted branch " + name);
        }
      }
      return 0;
    }
  }

  /** {@code branch merge <source> [--into <target>] [--delete-branch] [<uri>]}. */
  @Command(name = "merge", mixinStandardHelpOptions = true,
      description = {"Merge a branch into another (default main): already up to date, fast-forward, or a merge"
          + " commit with two parents. Conflicts write nothing and exit 3 with every conflict listed."})
  public static final class Merge extends GraphCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<source>", description = "The branch to merge from.")
    String source;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
    String positional;

    @Option(names = "--into", paramLabel = "<target>", description = "The branch to merge into (default: main).")
    String into;

    @Option(names = "--delete-branch", description = "Delete the source branch after a successful merge.")
    boolean deleteBranch;

    @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "The merge commit's message.")
    String message;

    @Option(names = "--actor", paramLabel = "<actor>", description = "Who is merging (recorded in the commit).")
    String actor;

    @Override
    public Integer call() {
      try (Graph graph = open(positional)) {
        MergeResult r = graph.merge(source, into, new MergeOptions(actor, message, deleteBranch));
        PrintWriter out = terminal().out();
        if (output.json()) {
          out.println(Json.write(json(r)));
        } else {
          String what = switch (r.outcome()) {
            case ALREADY_UP_TO_DATE -> "already up to date";
            case FAST_FORWARD -> "fast-forward";
            case MERGED -> "merged";
          };
          out.println(what + ": " + r.source() + " (" + r.sourceCommitId() + ") into " + r.target() + ", head "
              + r.commitId() + (r.baseCommitId() == null ? "" : ", base " + r.baseCommitId()));
          r.tables().forEach((k, t) -> out.println("  " + k + "\t" + t.route() + "\t+" + t.inserted() + " ~"
              + t.updated() + " -" + t.deleted() + "\t" + t.transactions() + " transaction(s)"));
          if (r.sourceDeleted()) {
            out.println("deleted branch " + r.source());
          }
        }
      }
      return 0;
    }

    /** The merge result's one JSON form, shared with the server ({@link MergeResult#toJson()}). */
    static ObjectNode json(MergeResult r) {
      return Json.parseObject(r.toJson());
    }
  }
}
