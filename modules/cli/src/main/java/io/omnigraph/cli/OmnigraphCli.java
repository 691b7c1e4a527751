package io.omnigraph.cli;

import io.omnigraph.cli.command.BranchCommand;
import io.omnigraph.cli.command.CheckCommand;
import io.omnigraph.cli.command.CleanupCommand;
import io.omnigraph.cli.command.CommitCommand;
import io.omnigraph.cli.command.EnsureIndicesCommand;
import io.omnigraph.cli.command.ExportCommand;
import io.omnigraph.cli.command.InitCommand;
import io.omnigraph.cli.command.LoadCommand;
import io.omnigraph.cli.command.MutateCommand;
import io.omnigraph.cli.command.OptimizeCommand;
import io.omnigraph.cli.command.QueryCommand;
import io.omnigraph.cli.command.QuickstartCommand;
import io.omnigraph.cli.command.RecoveriesCommand;
import io.omnigraph.cli.command.RepairCommand;
import io.omnigraph.cli.command.SchemaCommand;
import io.omnigraph.cli.command.ServeCommand;
import io.omnigraph.cli.command.SnapshotCommand;
import io.omnigraph.cli.command.TckCommand;
import io.omnigraph.cli.command.VersionCommand;
import io.omnigraph.cli.nativelib.LanceExit;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code omnigraph} root command and the process entry point.
 *
 * <p>Every failure leaves through one place ({@link #execute}): it is printed once, as readable
 * text or, with {@code --json}, as one ErrorOutput JSON object on stderr, and mapped to an
 * {@link ExitCode}.
 */
@Command(
    name = "omnigraph",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A typed property-graph database on Lance datasets (local disk, S3, GCS, Azure).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:ok",
      "1:usage error (bad flag or argument, missing input file)",
      "2:user data error (bad schema, bad NDJSON line, bad query or parameter, violated schema rule, over a load or mutation limit, no such graph or commit)",
      "3:conflict (existing key in append, graph exists, a concurrent writer won, precondition failed)",
      "4:storage failure (permissions, missing bucket, network, I/O)",
      "5:internal error (a bug in omnigraph)"
    })
public final class OmnigraphCli implements Runnable {
  /**
   * Every subcommand, in the order of the usage help. They are added in code, not in the
   * {@code @Command} annotation, so that a call that names one builds the model of that one only:
   * building all of them costs about 0.15 s of a short CLI call (docs/cli.md, "Start-up").
   */
  static final List<Class<?>> SUBCOMMANDS = List.of(
      QuickstartCommand.class, InitCommand.class, LoadCommand.class, MutateCommand.class, ExportCommand.class,
      CommitCommand.class, BranchCommand.class, SchemaCommand.class, RepairCommand.class, RecoveriesCommand.class,
      CleanupCommand.class, TckCommand.class, VersionCommand.class,
      // --- reads ---
      QueryCommand.class, CheckCommand.class,
      // --- server ---
      ServeCommand.class,
      // --- schema & maintenance ---
      EnsureIndicesCommand.class, OptimizeCommand.class,
      // --- everyday ---
      SnapshotCommand.class,
      CommandLine.HelpCommand.class);

  @Spec CommandSpec spec;

  private final Terminal terminal;

  OmnigraphCli(Terminal terminal) {
    this.terminal = terminal;
  }

  /** @return the streams of this invocation */
  public Terminal terminal() {
    return terminal;
  }

  /** Without a subcommand: print the usage and fail as a usage error. */
  @Override
  public void run() {
    throw CliFailure.usage("a command is required; see 'omnigraph --help'");
  }

  /** Runs {@code omnigraph} with the process's own streams and exits with its exit code. */
  public static void main(String[] args) {
    Terminal terminal = Terminal.system();
    int code = execute(args, terminal);
    terminal.out().flush();
    terminal.err().flush();
    // Lance's dispatcher thread would hold the JVM's exit for 0.3 s (docs/cli.md, "Start-up").
    LanceExit.beforeExit();
    System.exit(code);
  }

  /**
   * Runs one {@code omnigraph} invocation in-process.
   *
   * @param args the command-line arguments
   * @param terminal the streams to use
   * @return the exit code (see {@link ExitCode}); this method never throws
   */
  public static int execute(String[] args, Terminal terminal) {
    int code = commandLine(terminal, args).execute(args);
    terminal.out().flush();
    terminal.err().flush();
    return code;
  }

  /** Builds the configured command tree over {@code terminal}, with every subcommand. */
  static CommandLine commandLine(Terminal terminal) {
    return commandLine(terminal, new String[0]);
  }

  /**
   * Builds the configured command tree over {@code terminal} for {@code args}: when the first
   * argument names a subcommand (or an alias of one), only that subcommand is added; otherwise
   * (no arguments, an option such as {@code --help}, {@code help}, an unknown name) all of them, so
   * the usage help and the suggestions for a mistyped name list every command.
   */
  static CommandLine commandLine(Terminal terminal, String[] args) {
    CommandLine cli = new CommandLine(new OmnigraphCli(terminal));
    Class<?> only = args.length == 0 ? null : subcommandNamed(args[0]);
    for (Class<?> sub : only == null || only == CommandLine.HelpCommand.class ? SUBCOMMANDS : List.of(only)) {
      cli.addSubcommand(sub);
    }
    cli.setOut(terminal.out());
    cli.setErr(terminal.err());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionExceptionHandler(OmnigraphCli::onExecutionFailure);
    cli.setParameterExceptionHandler(OmnigraphCli::onUsageError);
    cli.setExitCodeExceptionMapper(t -> Failures.describe(t).exitCode());
    return cli;
  }

  /** @return the subcommand class whose name or alias is {@code name}, or null */
  static Class<?> subcommandNamed(String name) {
    for (Class<?> sub : SUBCOMMANDS) {
      Command c = sub.getAnnotation(Command.class);
      if (c.name().equals(name) || Arrays.asList(c.aliases()).contains(name)) {
        return sub;
      }
    }
    return null;
  }

  private static int onExecutionFailure(Exception failure, CommandLine cmd, ParseResult parsed) {
    Failures.Report report = Failures.describe(failure);
    PrintWriter err = cmd.getErr();
    if (wantsJson(parsed)) {
      err.println(Json.write(report.json()));
    } else {
      err.println("error: " + report.message());
      if (report.exitCode() == ExitCode.INTERNAL) {
        failure.printStackTrace(err);
      } else if (report.exitCode() == ExitCode.USAGE && failure instanceof CliFailure) {
        err.println("See 'omnigraph " + cmd.getCommandSpec().qualifiedName(" ").replaceFirst("^omnigraph ?", "")
            + " --help'.");
      }
    }
    err.flush();
    return report.exitCode();
  }

  private static int onUsageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    // The parse failed, so --json is known only from the raw arguments.
    if (Arrays.asList(args).contains("--json")) {
      Failures.Report report = Failures.describe(CliFailure.usage(e.getMessage()));
      err.println(Json.write(report.json()));
    } else {
      err.println("error: " + e.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
      err.println("See '" + cmd.getCommandSpec().qualifiedName(" ") + " --help'.");
    }
    err.flush();
    return ExitCode.USAGE;
  }

  private static boolean wantsJson(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.hasSubcommand() ? p.subcommand() : null) {
      if (p.hasMatchedOption("--json")) {
        return true;
      }
    }
    return false;
  }
}
