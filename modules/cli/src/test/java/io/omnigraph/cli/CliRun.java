package io.omnigraph.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of {@code omnigraph} with captured streams. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = OmnigraphCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }
}
