package io.omnigraph.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

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
 */
public record Terminal(InputStream stdin, OutputStream stdout, OutputStream stderr, PrintWriter out,
    PrintWriter err, boolean interactive) {

  /** @return a terminal over the given byte streams */
  public static Terminal of(InputStream stdin, OutputStream stdout, OutputStream stderr, boolean interactive) {
    return new Terminal(stdin, stdout, stderr,
        new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true),
        interactive);
  }

  /** @return the process's own streams */
  public static Terminal system() {
    return of(System.in, System.out, System.err, System.console() != null);
  }
}
