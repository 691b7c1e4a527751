package io.omnigraph.cli.command;

import picocli.CommandLine.Option;

/** The {@code --json} switch every command carries. */
public final class OutputOptions {

  @Option(
      names = "--json",
      description = "Print the result as one JSON object on stdout, and errors as ErrorOutput JSON on stderr.")
  boolean json;

  /** @return whether the user asked for JSON output */
  public boolean json() {
    return json;
  }
}
