package io.omnigraph.cli;

/**
 * The process exit codes of {@code omnigraph}. They are part of the CLI's contract (documented in
 * docs/errors.md, "Exit codes", and in {@code omnigraph --help}); scripts may branch on them.
 */
public final class ExitCode {
  /** The command did what it was asked. */
  public static final int OK = 0;
  /** The invocation was wrong: unknown flag, missing argument, an input file that does not exist. */
  public static final int USAGE = 1;
  /** The user's data was refused: a bad schema, a bad NDJSON line, a bad query or parameter, a violated schema rule, a load or mutation over a per-table limit, no such graph or commit, a graph this version cannot open. */
  public static final int DATA = 2;
  /** An existing key in append, a graph that already exists, a concurrent writer won, a failed precondition, or recovery required. */
  public static final int CONFLICT = 3;
  /** The storage backend failed: permissions, missing bucket, network, I/O. */
  public static final int STORAGE = 4;
  /** A bug: an unexpected failure inside omnigraph itself. The message and stack trace say where. */
  public static final int INTERNAL = 5;

  private ExitCode() {}
}
