package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.OmnigraphCli;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Serving a graph over HTTP" block, as written (issue 16, "Done when"): {@code
 * ./omnigraph quickstart}, then {@code ./omnigraph serve quickstart-graph --unauthenticated} in a
 * child JVM (with {@code --bind 127.0.0.1:0} added, so a busy port 8080 cannot fail the build), then
 * each {@code curl} of the block sent as written (method, headers, body; the address replaced by
 * the one the server printed): the query answers 200 with its three authors, the export 200 with
 * NDJSON lines.
 */
class ReadmeServeTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Process server;

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroy(); // SIGTERM, as the README says
      if (!server.waitFor(60, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  /** A curl command of the README: method, URL, headers, body. */
  record Curl(String method, String url, List<String[]> headers, String body) {}

  static String serveBlock() throws Exception {
    String readme = Files.readString(ReadmeCommandsTest.repo().resolve("README.md"));
    Matcher blocks = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    while (blocks.find()) {
      if (blocks.group(1).contains("./omnigraph serve")) {
        return blocks.group(1);
      }
    }
    throw new AssertionError("the README has no block with ./omnigraph serve");
  }

  static List<Curl> curls(List<List<String>> commands) {
    List<Curl> out = new ArrayList<>();
    for (List<String> c : commands) {
      if (c.isEmpty() || !c.get(0).equals("curl")) {
        continue;
      }
      String method = null;
      String url = null;
      String body = null;
      List<String[]> headers = new ArrayList<>();
      for (int i = 1; i < c.size(); i++) {
        String a = c.get(i);
        if (a.equals("|")) {
          break; // | head -3: the test reads the whole body
        }
        switch (a) {
          case "-s" -> { }
          case "-X" -> method = c.get(++i);
          case "-H" -> {
            String h = c.get(++i);
            headers.add(new String[] {h.substring(0, h.indexOf(':')).strip(), h.substring(h.indexOf(':') + 1).strip()});
          }
          case "-d" -> body = c.get(++i);
          default -> {
            assertThat(a).as("a curl argument the test does not know").startsWith("http://");
            url = a;
          }
        }
      }
      out.add(new Curl(method != null ? method : body != null ? "POST" : "GET", url, headers, body));
    }
    return out;
  }

  @Test
  void theReadmeServeBlockAnswersItsCurlQueryAndExport() throws Exception {
    List<List<String>> commands = ReadmeCommandsTest.commands(serveBlock());
    List<String> serve = null;
    for (List<String> c : commands) {
      if (c.size() > 1 && c.get(0).equals("./omnigraph") && c.get(1).equals("quickstart")) {
        Path graph = tmp.resolve("quickstart-graph");
        CliRun quickstart = CliRun.of("quickstart", graph.toString());
        assertThat(quickstart.exitCode()).as(quickstart.err()).isZero();
      } else if (c.size() > 1 && c.get(0).equals("./omnigraph") && c.get(1).equals("serve")) {
        serve = new ArrayList<>(c.subList(1, c.size()));
        serve.remove("&");
      }
    }
    assertThat(serve).as("the block's serve command").isNotNull().contains("quickstart-graph", "--unauthenticated");
    URI address = start(serve);
    List<Curl> curls = curls(commands);
    assertThat(curls).hasSize(2);

    HttpClient http = HttpClient.newHttpClient();
    List<String> bodies = new ArrayList<>();
    for (Curl c : curls) {
      URI u = URI.create(c.url().replace("http://127.0.0.1:8080", "http://" + address.getAuthority()));
      HttpRequest.Builder b = HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(60))
          .method(c.method(), c.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(c.body()));
      c.headers().forEach(h -> b.header(h[0], h[1]));
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(c.url() + ": " + r.body()).isEqualTo(200);
      bodies.add(r.body());
    }
    JsonNode query = JSON.readTree(bodies.get(0));
    assertThat(query.path("row_count").asInt()).isEqualTo(3);
    assertThat(query.path("rows")).hasSize(3);
    List<String> exported = bodies.get(1).lines().toList();
    assertThat(exported.size()).isGreaterThanOrEqualTo(3);
    assertThat(JSON.readTree(exported.get(0)).has("type")).isTrue();
  }

  /** Runs the README's serve arguments (paths resolved in the temporary directory) in a child JVM. */
  private URI start(List<String> serveArgs) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
        OmnigraphCli.class.getName()));
    for (String a : serveArgs) {
      cmd.add(a.equals("quickstart-graph") ? tmp.resolve(a).toString() : a);
    }
    cmd.addAll(List.of("--bind", "127.0.0.1:0"));
    ProcessBuilder pb = new ProcessBuilder(cmd);
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
}
