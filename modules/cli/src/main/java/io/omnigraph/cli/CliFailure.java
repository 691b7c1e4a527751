package io.omnigraph.cli;

/**
 * A failure the CLI itself detects (before or around calling the engine), carrying the exit code
 * and a stable error code for {@code --json} output.
 */
public final class CliFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;
  private final String code;

  /**
   * @param exitCode one of {@link ExitCode}
   * @param code a stable machine-readable code, e.g. {@code usage} or {@code input_not_found}
   * @param message what went wrong and, where it helps, what to do
   */
  public CliFailure(int exitCode, String code, String message) {
    super(message);
    this.exitCode = exitCode;
    this.code = code;
  }

  /** A usage error (exit code {@link ExitCode#USAGE}). */
  public static CliFailure usage(String message) {
    return new CliFailure(ExitCode.USAGE, "usage", message);
  }

  /** @return the process exit code this failure maps to */
  public int exitCode() {
    return exitCode;
  }

  /** @return the stable error code printed in {@code --json} output */
  public String code() {
    return code;
  }
}
