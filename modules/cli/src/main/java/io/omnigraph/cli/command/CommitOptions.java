package io.omnigraph.cli.command;

import picocli.CommandLine.Option;

/**
 * What every writing command ({@code load}, {@code mutate}) records in, or requires of, the graph
 * commit it makes: the actor ({@code --actor}, alias {@code --as}), the commit message
 * ({@code -m/--message}) and the head the write was prepared against ({@code --expect-head}, alias
 * {@code --if-commit}; a moved head fails with exit code 3, precondition failed, nothing written).
 */
public final class CommitOptions {

  @Option(names = {"--actor", "--as"}, paramLabel = "<actor>", description = "Actor id recorded in the commit.")
  String actor;

  @Option(names = {"-m", "--message"}, paramLabel = "<text>", description = "Commit message.")
  String message;

  @Option(names = {"--expect-head", "--if-commit"}, paramLabel = "<commit>",
      description = "Fail with exit code 3 (precondition failed, nothing written) unless the branch's head is this commit.")
  String expectHead;

  @Option(names = "--branch", paramLabel = "<branch>", description = "Write this graph branch (default: main).")
  String branch;

  /** @return the branch written, or {@code null} for main */
  public String branch() {
    return branch;
  }

  /** @return the actor id, or {@code null} for the default actor */
  public String actor() {
    return actor;
  }

  /** @return the commit message, or {@code null} for none */
  public String message() {
    return message;
  }

  /** @return the commit id main's head must be, or {@code null} for no expectation */
  public String expectHead() {
    return expectHead;
  }
}
