package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.OmnigraphCli;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph serve} in a child JVM stopped by SIGTERM (docs/server.md, "Starting it"): a write
 * in flight finishes and is answered (its client keeps sending for seconds after the signal, pausing
 * once for longer than the 1 s that ends idle connections during a stop), the
 * process exits with 143 (128 + SIGTERM, the JVM's status after a signal) and its commit is there; a
 * write still in flight at the {@code --stop-timeout} deadline is cut off and leaves nothing published.
 */
class ServeSignalTest {
  static final String SCHEMA = "node Person {\n  name: String @key\n  age: I32?\n}\n";

  @TempDir Path tmp;
  private Process server;

  @AfterEach
  void kill() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroyForcibly();
      server.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private String init() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), SCHEMA);
    String root = tmp.resolve("people").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), root);
    assertThat(init.exitCode()).as(init.err()).isZero();
    return root;
  }

  /** Starts {@code omnigraph serve <root>} in a child JVM; returns its address once it listens. */
  private URI serve(String root, String stopTimeout) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
        OmnigraphCli.class.getName(), "serve", root, "--bind", "127.0.0.1:0", "--unauthenticated",
        "--max-in-flight-per-actor", "1", "--stop-timeout", stopTimeout, "--no-access-log");
    pb.redirectError(tmp.resolve("serve.err").toFile());
    server = pb.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith("OMNIGRAPH_LISTEN_ADDR=")) {
        return URI.create("http://" + line.substring("OMNIGRAPH_LISTEN_ADDR=".length()));
      }
    }
    throw new AssertionError("serve exited before listening: " + Files.readString(tmp.resolve("serve.err")));
  }

  /** A chunked {@code load/ndjson} whose body the test ends (or not). */
  private static final class SlowLoad implements AutoCloseable {
    final Socket socket;
    final OutputStream out;

    SlowLoad(URI u) throws IOException {
      socket = new Socket(u.getHost(), u.getPort());
      socket.setSoTimeout(60_000);
      out = socket.getOutputStream();
      write("POST /graphs/people/load/ndjson?mode=merge HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Content-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n");
    }

    void write(String s) throws IOException {
      out.write(s.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    void row(String name) throws IOException {
      byte[] b = ("{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}\n").getBytes(StandardCharsets.UTF_8);
      write(Integer.toHexString(b.length) + "\r\n");
      out.write(b);
      write("\r\n");
    }

    /** @return everything the server sent until it closed the connection or the read timed out */
    String answer() throws IOException {
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buf = new byte[4096];
      try {
        int n;
        while ((n = in.read(buf)) >= 0) {
          got.write(buf, 0, n);
          if (got.toString(StandardCharsets.UTF_8).contains("\"total_entities\"")) {
            break;
          }
        }
      } catch (IOException closed) {
        // a reset counts as "cut off"
      }
      return got.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /** Waits until the slow load is inside its handler: {@code GET /healthz} counts one write in flight. */
  private static void awaitInFlight(URI u) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (int i = 0; i < 1500; i++) {
      String health = http.send(HttpRequest.newBuilder(u.resolve("/healthz")).timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.ofString()).body();
      if (health.contains("\"writes_in_flight\":1")) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the slow load never got in flight");
  }

  /**
   * Waits until the stop has begun: a new request is no longer answered with 200 (the graceful stop
   * answers 503, or the connection is refused once the acceptor is closed).
   */
  private static void awaitStopping(URI u) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    for (int i = 0; i < 1500; i++) {
      try {
        int status = http.send(HttpRequest.newBuilder(u.resolve("/healthz")).timeout(Duration.ofSeconds(30))
            .GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode();
        if (status != 200) {
          return;
        }
      } catch (IOException refused) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the server never began to stop");
  }

  @Test
  void sigtermLetsAWriteInFlightFinishThenExits() throws Exception {
    String root = init();
    URI u = serve(root, "30");
    try (SlowLoad load = new SlowLoad(u)) {
      load.row("before-term");
      awaitInFlight(u);
      server.destroy(); // SIGTERM
      awaitStopping(u);
      // The stop has begun; the load keeps sending its body for seconds, with one pause longer than
      // the 1 s after which the stop closes idle connections: a connection whose request is in the
      // handler is not idle-closed, only the --stop-timeout deadline ends it.
      for (int i = 0; i < 12; i++) {
        Thread.sleep(i == 6 ? 2_000 : 200);
        load.row("after-term-" + i);
      }
      load.write("0\r\n\r\n");
      String answer = load.answer();
      assertThat(answer).startsWith("HTTP/1.1 200").contains("\"total_entities\":13");
    }
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("serve exited").isTrue();
    assertThat(server.exitValue()).isEqualTo(143);
    assertThat(Files.readString(tmp.resolve("serve.err"))).contains("omnigraph serve: stopped");
    try (Graph g = Omnigraph.open(root)) {
      assertThat(g.commits()).hasSize(2);
      ByteArrayOutputStream export = new ByteArrayOutputStream();
      g.export(export);
      assertThat(export.toString(StandardCharsets.UTF_8)).contains("before-term").contains("after-term-11");
    }
  }

  @Test
  void aWriteStillInFlightAtTheDeadlineIsCutOffAndPublishesNothing() throws Exception {
    String root = init();
    URI u = serve(root, "2");
    long start;
    try (SlowLoad load = new SlowLoad(u)) {
      load.row("never-finished");
      awaitInFlight(u);
      start = System.nanoTime();
      server.destroy(); // SIGTERM; the body never ends
      assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("serve exited after its deadline").isTrue();
      assertThat(load.answer()).doesNotStartWith("HTTP/1.1 200");
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("waited for the deadline").isGreaterThanOrEqualTo(1_500);
    assertThat(server.exitValue()).isEqualTo(143);
    try (Graph g = Omnigraph.open(root)) {
      assertThat(g.commits()).hasSize(1);
      ByteArrayOutputStream export = new ByteArrayOutputStream();
      g.export(export);
      assertThat(export.toString(StandardCharsets.UTF_8)).doesNotContain("never-finished");
    }
  }
}
