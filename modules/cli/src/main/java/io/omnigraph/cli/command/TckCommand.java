package io.omnigraph.cli.command;

import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.cli.Terminal;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code omnigraph tck --uri <uri> [--option k=v]...}: runs the storage conformance suite against a
 * root, by delegating to the conformance runner ({@code io.omnigraph.conformance.runner.TckRunner}).
 *
 * <p>The runner's package is not exported by {@code io.omnigraph.conformance} (it is the main of the
 * runner jar, not API), so it is called reflectively; the CLI runs on the class path, where that is
 * plain public access.
 */
@Command(
    name = "tck",
    mixinStandardHelpOptions = true,
    description = {
      "Run the storage conformance suite (TCK) against a storage root; each test uses a fresh sub-prefix,"
          + " deleted afterwards. Prints one row per contract group and 'N passed, N failed, N skipped'.",
      "Strict by default: a test that cannot run for want of a fault controller or residue maker fails"
          + " (a vendor's TckBindingProvider on the class path supplies them); exit 0 means certified.",
      "Exit codes: 0 all passed, 4 the adapter failed the contract, 1 bad arguments or the root cannot be opened.",
      "No --json: the report is text."
    })
public final class TckCommand implements Callable<Integer> {
  static final String RUNNER = "io.omnigraph.conformance.runner.TckRunner";

  @Spec CommandSpec spec;

  // One flag name in the usage, the help and the error ('--uri', as the runner itself names it);
  // --store is accepted as a hidden alias, like the graph commands' --store/--uri pair.
  @Option(names = "--uri", paramLabel = "<uri>",
      description = "Root to test (required): /tmp/tck, file:///tmp/tck, s3://bucket/prefix, gs://..., az://...")
  String uri;

  @Option(names = "--store", paramLabel = "<uri>", hidden = true, description = "Same as --uri.")
  String storeAlias;

  @Option(names = "--option", paramLabel = "<key=value>", description = "Adapter option (repeatable).")
  Map<String, String> options = new LinkedHashMap<>();

  // Strict mode is the runner's default: a test that cannot run (no fault controller, no residue
  // maker) fails, so exit 0 means certified (docs/tck.md, "Certify a real service").
  @Option(names = "--certify", description = "Strict mode (the default): a test that cannot run fails; exit 0 means certified.")
  boolean certify;

  @Option(names = "--allow-skips",
      description = "Report tests that cannot run as skipped (exploratory; never a certification).")
  boolean allowSkips;

  @Option(names = "--select", paramLabel = "<Group>[/<test>]",
      description = "Run only this contract group or test (repeatable; never a certification).")
  List<String> select = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Terminal terminal = ((OmnigraphCli) spec.root().userObject()).terminal();
    if (uri != null && storeAlias != null && !uri.equals(storeAlias)) {
      throw CliFailure.usage("the root was given twice: --uri '" + uri + "' and --store '" + storeAlias + "'");
    }
    String uri = this.uri != null ? this.uri : storeAlias;
    if (uri == null) {
      throw CliFailure.usage("Missing required option: '--uri=<uri>' (the storage root to test)");
    }
    List<String> args = new ArrayList<>(List.of("--uri", uri));
    options.forEach((k, v) -> args.addAll(List.of("--option", k + "=" + v)));
    if (certify) {
      args.add("--certify");
    }
    if (allowSkips) {
      args.add("--allow-skips");
    }
    select.forEach(s -> args.addAll(List.of("--select", s)));

    Method run;
    try {
      run = Class.forName(RUNNER).getMethod("run", String[].class, PrintStream.class, PrintStream.class);
    } catch (ClassNotFoundException e) {
      throw new CliFailure(ExitCode.INTERNAL, "internal",
          "the conformance runner (" + RUNNER + ") is not on this CLI's class path");
    }
    terminal.out().flush();
    terminal.err().flush();
    PrintStream out = new PrintStream(terminal.stdout(), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(terminal.stderr(), true, StandardCharsets.UTF_8);
    int status;
    try {
      status = (Integer) run.invoke(null, args.toArray(String[]::new), out, err);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      out.flush();
      err.flush();
    }
    // The runner's own statuses: 0 passed, 1 test failures, 2 usage/configuration.
    return switch (status) {
      case 0 -> ExitCode.OK;
      case 1 -> ExitCode.STORAGE;
      default -> ExitCode.USAGE;
    };
  }
}
