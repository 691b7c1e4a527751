package io.omnigraph.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The streams one invocation uses. Results go to {@link #stdout()} (raw bytes, e.g. an export) or
 * {@link #out()} (text); progress, diagnostics and errors to {@link #err()}.
 *
 * @param stdin standard input, for {@code --data -}
 * @param stdout standard output as bytes
 * @param stderr standard error as bytes
 * @param out standard output as UTF-8 text (shares {@code stdout}; flush it before writing bytes)
 * @param err standard error as UTF-8 text (shares {@code stderr})
 * @param interactive whether stderr is a terminal (progress then redraws one line)
 * @param env the environment variables the CLI reads (e.g. {@code OMNIGRAPH_STORE})
 */
public record Terminal(InputStream stdin, OutputStream stdout, OutputStream stderr, PrintWriter out,
    PrintWriter err, boolean interactive, Map<String, String> env) {

  public Terminal {
    env = Map.copyOf(env);
  }

  /** @return a terminal over the given byte streams, with the process's environment */
  public static Terminal of(InputStream stdin, OutputStream stdout, OutputStream stderr, boolean interactive) {
    return of(stdin, stdout, stderr, interactive, System.getenv());
  }

  /** @return a terminal over the given byte streams and environment */
  public static Terminal of(InputStream stdin, OutputStream stdout, OutputStream stderr, boolean interactive,
      Map<String, String> env) {
    return new Terminal(stdin, stdout, stderr,
        new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true),
        interactive, env);
  }

  /** @return the process's own streams and environment */
  public static Terminal system() {
    return of(System.in, System.out, System.err, System.console() != null);
  }
}
