package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code omnigraph query} / {@code read} and {@code omnigraph check} against a real graph on local disk. */
class QueryCommandTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;
  static final String DATA = """
      {"type":"Person","data":{"name":"ada","age":36}}
      {"type":"Person","data":{"name":"bob","age":25}}
      {"type":"Person","data":{"name":"cy, jr"}}
      {"edge":"Knows","from":"ada","to":"bob","data":{}}
      """;
  static final String QUERIES = """
      query people() {
        match { $p: Person }
        return { $p.name, $p.age }
        order { $p.name }
      }
      query friends($n: String) {
        match { $a: Person { name: $n }  $a knows $b }
        return { $b.name as friend }
      }
      """;

  @TempDir Path tmp;
  Path queries;
  String graph;

  @BeforeEach
  void initGraph() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), SCHEMA);
    Path data = Files.writeString(tmp.resolve("people.ndjson"), DATA);
    queries = Files.writeString(tmp.resolve("people.gq"), QUERIES);
    graph = tmp.resolve("graph").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph);
    assertThat(init.exitCode()).as(init.err()).isZero();
    CliRun load = CliRun.of("load", graph, "--data", data.toString(), "--mode", "overwrite");
    assertThat(load.exitCode()).as(load.err()).isZero();
  }

  @Test
  void jsonlIsTheDefaultOffATerminal() {
    CliRun run = CliRun.of("query", graph, "people", "--query", queries.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    String[] lines = run.out().strip().split("\n");
    assertThat(lines).hasSize(4);
    JsonNode meta = Json.parseObject(lines[0]);
    assertThat(meta.get("kind").asText()).isEqualTo("metadata");
    assertThat(meta.get("row_count").asLong()).isEqualTo(3);
    assertThat(lines[1]).isEqualTo("{\"p.name\":\"ada\",\"p.age\":36}");
    assertThat(lines[2]).isEqualTo("{\"p.name\":\"bob\",\"p.age\":25}");
    assertThat(lines[3]).isEqualTo("{\"p.name\":\"cy, jr\",\"p.age\":null}");
  }

  @Test
  void tableCsvAndJsonFormats() {
    CliRun table = CliRun.of("read", graph, "--name", "people", "--query", queries.toString(), "--format", "table");
    assertThat(table.exitCode()).as(table.err()).isZero();
    assertThat(table.out()).isEqualTo("""
        p.name | p.age
        -------+------
        ada    | 36
        bob    | 25
        cy, jr | null
        (3 rows)
        """);
    CliRun csv = CliRun.of("query", graph, "people", "--query", queries.toString(), "--format", "csv");
    assertThat(csv.out()).isEqualTo("p.name,p.age\nada,36\nbob,25\n\"cy, jr\",\n");
    CliRun json = CliRun.of("query", graph, "friends", "--query", queries.toString(), "--param", "n=ada", "--json");
    JsonNode o = Json.parseObject(json.out().strip());
    assertThat(o.get("rows").toString()).isEqualTo("[{\"friend\":\"bob\"}]");
    assertThat(o.get("target").get("branch").asText()).isEqualTo("main");
    assertThat(o.get("columns").get(0).get("name").asText()).isEqualTo("friend");
  }

  @Test
  void inlineQueryParamsJsonAndAnOlderCommit() {
    CliRun list = CliRun.of("commit", "list", graph, "--json");
    String loaded = Json.parseObject(list.out().strip()).get("commits").get(0).get("graph_commit_id").asText();
    CliRun more = CliRun.of("mutate", graph, "--name", "add", "-e",
        "query add($n: String) { insert Person { name: $n } }", "--param", "n=dee");
    assertThat(more.exitCode()).as(more.err()).isZero();
    String q = "query c() { match { $p: Person } return { count($p) as n } }";
    assertThat(CliRun.of("query", graph, "-e", q).out()).endsWith("{\"n\":4}\n");
    assertThat(CliRun.of("query", graph, "-e", q, "--at", loaded).out()).endsWith("{\"n\":3}\n");
    CliRun params = CliRun.of("query", graph, "friends", "--query", queries.toString(), "--params", "{\"n\":\"ada\"}");
    assertThat(params.out()).endsWith("{\"friend\":\"bob\"}\n");
  }

  @Test
  void aTypeErrorExitsTwoWithLineAndColumn() {
    CliRun run = CliRun.of("query", graph, "-e", "query q() {\n  match { $p: Persn }\n  return { $p.name }\n}");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("line 2:", "T1");
  }

  @Test
  void explainPrintsThePlan() {
    CliRun run = CliRun.of("query", graph, "friends", "--query", queries.toString(), "--param", "n=ada", "--explain");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("NodeScan $a: Person", "pushed to Lance: (`id` = 'ada')", "Expand $a -[Knows OUT {1,1}]->");
  }

  @Test
  void checkListsEveryQueryAndItsErrors() throws IOException {
    Path bad = Files.writeString(tmp.resolve("bad.gq"), QUERIES + """
        query broken() {
          match { $p: Person  $p.height > 3 }
          return { $p.name }
        }
        """);
    CliRun ok = CliRun.of("check", "--query", queries.toString(), graph);
    assertThat(ok.exitCode()).as(ok.err()).isZero();
    assertThat(ok.out()).contains("ok     read people", "ok     read friends", "2 queries checked, no errors");
    CliRun run = CliRun.of("check", "--query", bad.toString(), graph, "--json");
    assertThat(run.exitCode()).isEqualTo(2);
    JsonNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("queries")).hasSize(3);
    JsonNode broken = o.get("queries").get(2);
    assertThat(broken.get("name").asText()).isEqualTo("broken");
    assertThat(broken.get("rule").asText()).isEqualTo("T6");
    assertThat(broken.get("line").asLong()).isEqualTo(11);
  }
}
