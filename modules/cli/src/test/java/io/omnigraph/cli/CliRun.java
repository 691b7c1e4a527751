package io.omnigraph.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One in-process run of {@code omnigraph} with captured streams. */
public record CliRun(int exitCode, String out, String err) {

  /** Runs with an empty stdin. */
  public static CliRun of(String... args) {
    return withStdin(new byte[0], args);
  }

  /** Runs with {@code stdin} as standard input. */
  public static CliRun withStdin(byte[] stdin, String... args) {
    return withStdin(new ByteArrayInputStream(stdin), args);
  }

  /** Runs with {@code stdin} as standard input (for example a stream that stalls mid-way). */
  public static CliRun withStdin(InputStream stdin, String... args) {
    return run(stdin, System.getenv(), args);
  }

  /** Runs with an empty stdin and {@code env} as the whole environment. */
  public static CliRun withEnv(Map<String, String> env, String... args) {
    return run(new ByteArrayInputStream(new byte[0]), env, args);
  }

  private static CliRun run(InputStream stdin, Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = OmnigraphCli.execute(args, Terminal.of(stdin, out, err, false, env));
    return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
