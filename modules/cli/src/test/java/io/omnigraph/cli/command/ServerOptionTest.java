package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.cli.CliRun;
import io.omnigraph.server.OmnigraphServer;
import io.omnigraph.server.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's {@code --server <url>} against a live server on 127.0.0.1 (docs/cli.md, docs/server.md). */
class ServerOptionTest {
  static final String SCHEMA = "node Person {\n  name: String @key\n  age: I32?\n}\n";
  static final String GQ = "query older($name: String, $age: I32) {\n  update Person set { age: $age } where name = $name\n}\n";

  @TempDir Path tmp;
  Graph graph;
  OmnigraphServer server;
  Map<String, String> env;

  @BeforeEach
  void start() {
    graph = Omnigraph.init(tmp.resolve("g").toString(), SCHEMA);
    server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("people", graph)
        .tokens(Tokens.of(Map.of("carol", "tok-carol"))).errorLog(l -> { }).start();
    env = Map.of("OMNIGRAPH_BEARER_TOKEN", "tok-carol");
  }

  @AfterEach
  void stop() {
    server.close();
    graph.close();
  }

  private CliRun cli(String... args) {
    return CliRun.withEnv(env, args);
  }

  @Test
  void loadMutateExportCommitsAndSchemaWorkThroughTheServer() throws Exception {
    String url = server.uri().toString();
    Path data = tmp.resolve("people.ndjson");
    Files.writeString(data, "{\"type\":\"Person\",\"data\":{\"name\":\"ada\",\"age\":36}}\n");
    Path gq = tmp.resolve("people.gq");
    Files.writeString(gq, GQ);

    CliRun load = cli("load", "--server", url, "--graph", "people", "--mode", "append", "--data", data.toString(), "--json");
    assertThat(load.exitCode()).as(load.err()).isZero();
    assertThat(load.out()).contains("\"actor_id\":\"carol\"");

    CliRun mutate = cli("mutate", "older", "--server", url, "--graph", "people", "--query", gq.toString(),
        "--param", "name=ada", "--param", "age=37", "--json");
    assertThat(mutate.exitCode()).as(mutate.err()).isZero();
    assertThat(mutate.out()).contains("\"affected_nodes\":1");

    CliRun export = cli("export", "people", "--server", url);
    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.out()).contains("\"age\":37");

    CliRun commits = cli("commit", "list", "--server", url, "--graph", "people", "--json");
    assertThat(commits.exitCode()).as(commits.err()).isZero();
    assertThat(graph.commits()).hasSize(3);
    assertThat(commits.out()).contains(graph.commits().get(0).id());

    CliRun schema = cli("schema", "show", "--server", url, "--graph", "people");
    assertThat(schema.exitCode()).isZero();
    assertThat(schema.out()).contains("node Person");
  }

  @Test
  void serverFailuresKeepTheirExitCodes() throws Exception {
    String url = server.uri().toString();
    Path gq = tmp.resolve("people.gq");
    Files.writeString(gq, GQ);
    String genesis = graph.commits().get(0).id();
    graph.load(io.omnigraph.api.LoadMode.APPEND, new java.io.ByteArrayInputStream(
        "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n".getBytes()), io.omnigraph.api.LoadOptions.defaults());
    CliRun stale = cli("mutate", "older", "--server", url, "--graph", "people", "--query", gq.toString(),
        "--param", "name=ada", "--param", "age=1", "--if-commit", genesis, "--json");
    assertThat(stale.exitCode()).isEqualTo(3);
    assertThat(stale.err()).contains("\"code\":\"precondition_failed\"");

    CliRun badToken = CliRun.withEnv(Map.of("OMNIGRAPH_BEARER_TOKEN", "nope"), "commit", "list", "--server", url, "--graph", "people");
    assertThat(badToken.exitCode()).isEqualTo(2);
    assertThat(badToken.err()).contains("invalid bearer token");

    CliRun unknown = cli("commit", "list", "--server", url, "--graph", "nope");
    assertThat(unknown.exitCode()).isEqualTo(2);

    CliRun direct = cli("repair", "--server", url, "--graph", "people");
    assertThat(direct.exitCode()).isEqualTo(1);
    assertThat(direct.err()).contains("works on a storage root directly");

    CliRun positionalUrl = cli("export", url);
    assertThat(positionalUrl.exitCode()).isEqualTo(1);
    assertThat(positionalUrl.err()).contains("use --server");
  }

  @Test
  void serveRefusesToStartWithoutTokens() {
    CliRun r = CliRun.withEnv(Map.of(), "serve", tmp.resolve("g").toString(), "--bind", "127.0.0.1:0");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("no bearer tokens");
  }
}
