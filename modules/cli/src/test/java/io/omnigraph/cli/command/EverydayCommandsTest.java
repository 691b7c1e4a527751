package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small things a new user meets in the first hour (docs/cli.md), on real local graphs. */
class EverydayCommandsTest {

  /** Declared in an order that is neither alphabetical nor nodes-after-edges. */
  static final String SCHEMA = """
      node Zebra {
        name: String @key
      }
      node Apple {
        name: String @key
      }
      edge Likes: Zebra -> Apple
      edge Bites: Apple -> Zebra
      node Mango {
        name: String @key
      }
      """;

  @TempDir Path tmp;
  String graph;

  @BeforeEach
  void initGraph() throws IOException {
    Path schema = Files.writeString(tmp.resolve("fruit.pg"), SCHEMA);
    graph = tmp.resolve("graph").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph);
    assertThat(init.exitCode()).as(init.err()).isZero();
  }

  private List<String> commitIds() {
    CliRun list = CliRun.of("commit", "list", graph, "--json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    List<String> ids = new ArrayList<>();
    Json.parseObject(list.out().strip()).get("commits").forEach(c -> ids.add(c.get("graph_commit_id").asText()));
    return ids;
  }

  private Path data(String name, String ndjson) throws IOException {
    return Files.writeString(tmp.resolve(name), ndjson);
  }

  @Test
  void oneRowIsOneRowNotOneRows() throws IOException {
    CliRun run = CliRun.of("load", "--mode", "append", "--data",
        data("one.ndjson", "{\"type\":\"Zebra\",\"data\":{\"name\":\"z\"}}\n").toString(), graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("loaded 1 row (append)").doesNotContain("1 rows");
  }

  @Test
  void anEmptyLoadSaysNothingToLoadAndPublishesNoCommit() throws IOException {
    Path empty = data("empty.ndjson", "\n  \n");
    List<String> before = commitIds();

    CliRun text = CliRun.of("load", "--mode", "append", "--data", empty.toString(), graph);
    CliRun json = CliRun.withStdin(new byte[0], "load", "--mode", "merge", "--data", "-", graph, "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("nothing to load");
    assertThat(json.exitCode()).as(json.err()).isZero();
    ObjectNode o = Json.parseObject(json.out().strip());
    assertThat(o.get("rows_read").asLong()).isZero();
    assertThat(o.get("commit").isNull()).isTrue();
    assertThat(commitIds()).isEqualTo(before);
  }

  @Test
  void aLoadFromStandardInputStillReadsItsFirstByteAfterTheEmptinessCheck() {
    CliRun run = CliRun.withStdin("{\"type\":\"Apple\",\"data\":{\"name\":\"a\"}}\n".getBytes(StandardCharsets.UTF_8),
        "load", "--mode", "append", "--data", "-", graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("loaded 1 row");
  }

  @Test
  void tablesAreListedInSchemaOrderInTextAndJson() throws IOException {
    CliRun load = CliRun.of("load", "--mode", "overwrite", "--data", data("all.ndjson", """
        {"type":"Mango","data":{"name":"m"}}
        {"type":"Apple","data":{"name":"a"}}
        {"type":"Zebra","data":{"name":"z"}}
        {"edge":"Bites","from":"a","to":"z","data":{}}
        {"edge":"Likes","from":"z","to":"a","data":{}}
        """).toString(), graph, "--json");
    assertThat(load.exitCode()).as(load.err()).isZero();
    List<String> schemaOrder = List.of("node:Zebra", "node:Apple", "node:Mango", "edge:Likes", "edge:Bites");
    String head = commitIds().get(0);

    CliRun show = CliRun.of("commit", "show", head, graph);
    CliRun showJson = CliRun.of("commit", "show", head, graph, "--json");

    assertThat(fieldNames(Json.parseObject(load.out().strip()).get("tables"))).isEqualTo(schemaOrder);
    assertThat(fieldNames(Json.parseObject(load.out().strip()).get("commit").get("table_versions")))
        .isEqualTo(schemaOrder);
    assertThat(fieldNames(Json.parseObject(showJson.out().strip()).get("table_versions"))).isEqualTo(schemaOrder);
    List<String> shown = show.out().lines().filter(l -> l.startsWith("  ")).map(l -> l.strip().split(" ")[0]).toList();
    assertThat(shown).isEqualTo(schemaOrder);
  }

  private static List<String> fieldNames(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void anUnknownStorageOptionIsAUsageErrorNamingTheAcceptedOnes() {
    CliRun text = CliRun.of("commit", "list", graph, "--option", "aws_region=us-east-1");
    CliRun json = CliRun.of("commit", "list", graph, "--option", "aws_region=us-east-1", "--json");

    assertThat(text.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(text.err()).contains("unknown storage option 'aws_region'", "list-page-size");
    assertThat(json.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(Json.parseObject(json.err().strip()).get("code").asText()).isEqualTo("usage");
  }

  @Test
  void aStorageFailureReportsTheCodeStorageWithExitFour() {
    // Nothing listens on port 1: the adapter's bucket check fails at once.
    CliRun run = CliRun.of("commit", "list", "s3://no-such-bucket/g", "--json",
        "--option", "endpoint=http://127.0.0.1:1", "--option", "allow-http=true", "--option", "region=us-east-1",
        "--option", "access-key-id=x", "--option", "secret-access-key=y", "--option", "max-attempts=1");

    assertThat(run.exitCode()).isEqualTo(ExitCode.STORAGE);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("storage");
    assertThat(error.has("storage")).isTrue();
  }

  @Test
  void omnigraphStoreNamesTheGraphWhenNoneIsGiven() {
    CliRun run = CliRun.withEnv(Map.of("OMNIGRAPH_STORE", graph), "commit", "list", "--json");
    CliRun without = CliRun.withEnv(Map.of(), "commit", "list");
    CliRun explicitWins = CliRun.withEnv(Map.of("OMNIGRAPH_STORE", tmp.resolve("nope").toString()),
        "commit", "list", graph);

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Json.parseObject(run.out().strip()).get("commits")).hasSize(1);
    assertThat(without.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(without.err()).contains("OMNIGRAPH_STORE");
    assertThat(explicitWins.exitCode()).as(explicitWins.err()).isZero();
  }

  @Test
  void tckNamesTheSameFlagInItsUsageAndItsError() {
    CliRun missing = CliRun.of("tck");
    CliRun help = CliRun.of("tck", "--help");

    assertThat(missing.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(missing.err()).contains("'--uri=<uri>'").doesNotContain("--store");
    assertThat(help.out()).contains("--uri=<uri>").doesNotContain("--store");
  }
  private void loadFruit() throws IOException {
    CliRun load = CliRun.of("load", "--mode", "overwrite", "--data", data("fruit.ndjson", """
        {"type":"Mango","data":{"name":"m"}}
        {"type":"Apple","data":{"name":"a"}}
        {"type":"Apple","data":{"name":"b"}}
        {"type":"Zebra","data":{"name":"z"}}
        {"edge":"Likes","from":"z","to":"a","data":{}}
        """).toString(), graph);
    assertThat(load.exitCode()).as(load.err()).isZero();
  }

  @Test
  void exportTypeKeepsOnlyTheNamedTypesAndRefusesAnUnknownOne() throws IOException {
    loadFruit();
    CliRun apples = CliRun.of("export", graph, "--type", "Apple");
    CliRun two = CliRun.of("export", graph, "--type", "Zebra,Likes");
    CliRun unknown = CliRun.of("export", graph, "--type", "Pear");

    assertThat(apples.exitCode()).as(apples.err()).isZero();
    assertThat(apples.out().lines().toList()).hasSize(2).allMatch(l -> l.startsWith("{\"type\":\"Apple\""));
    assertThat(two.out().lines().toList()).hasSize(2)
        .anyMatch(l -> l.startsWith("{\"type\":\"Zebra\"")).anyMatch(l -> l.startsWith("{\"edge\":\"Likes\""));
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("no node or edge type 'Pear'", "Zebra, Apple, Mango, Likes, Bites");
  }

  @Test
  void exportAtACommitShowsTheGraphAsThatCommitLeftIt() throws IOException {
    String genesis = commitIds().get(0);
    loadFruit();
    CliRun at = CliRun.of("export", graph, "--at", genesis);
    CliRun head = CliRun.of("export", graph);

    assertThat(at.exitCode()).as(at.err()).isZero();
    assertThat(at.out()).isEmpty();
    assertThat(head.out().lines()).hasSize(5);
  }

  @Test
  void snapshotPrintsEachTablesRowCountAndPinnedVersionInSchemaOrder() throws IOException {
    loadFruit();
    CliRun text = CliRun.of("snapshot", graph);
    CliRun json = CliRun.withEnv(Map.of("OMNIGRAPH_STORE", graph), "snapshot", "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    List<String> tables = text.out().lines().filter(l -> l.startsWith("  ")).map(String::strip).toList();
    assertThat(tables).hasSize(5);
    assertThat(tables.get(0)).matches("node:Zebra +1 row +version \\d+");
    assertThat(tables.get(1)).matches("node:Apple +2 rows +version \\d+");
    assertThat(tables.get(4)).matches("edge:Bites +0 rows +version \\d+");
    assertThat(text.out()).contains("at commit " + commitIds().get(0));
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode o = Json.parseObject(json.out().strip());
    List<String> keys = new ArrayList<>();
    o.get("tables").forEach(t -> keys.add(t.get("table_key").asText()));
    assertThat(keys).containsExactly("node:Zebra", "node:Apple", "node:Mango", "edge:Likes", "edge:Bites");
    assertThat(o.get("tables").get(1).get("rows").asLong()).isEqualTo(2);
    assertThat(o.get("tables").get(1).get("version").asLong()).isPositive();
    assertThat(o.get("commit_id").asText()).isEqualTo(commitIds().get(0));
  }

  @Test
  void anEmptySchemaFileIsRefusedByInit() throws IOException {
    Path empty = Files.writeString(tmp.resolve("empty.pg"), "// nothing yet\n");
    CliRun run = CliRun.of("init", "--schema", empty.toString(), tmp.resolve("g2").toString(), "--json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(Json.parseObject(run.err().strip()).get("error").asText()).contains("declares no types");
    assertThat(tmp.resolve("g2")).doesNotExist();
  }

  @Test
  void aWrittenGraphIsReadableByOthersAsTheUmaskAllows() throws IOException {
    loadFruit();
    CliRun mutate = CliRun.of("mutate", graph, "--name", "add", "-e",
        "query add($n: String) { insert Apple { name: $n } }", "--param", "n=c");
    assertThat(mutate.exitCode()).as(mutate.err()).isZero();
    int umask = umask();
    org.junit.jupiter.api.Assumptions.assumeTrue((umask & 0044) == 0, "the umask grants group and others read");
    List<String> private_ = new ArrayList<>();
    try (java.util.stream.Stream<Path> s = Files.walk(Path.of(graph))) {
      for (Path p : s.toList()) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        boolean ok = perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
            && perms.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
            && (!Files.isDirectory(p) || perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE));
        if (!ok) {
          private_.add(java.nio.file.attribute.PosixFilePermissions.toString(perms) + " " + Path.of(graph).relativize(p));
        }
      }
    }
    assertThat(private_).as("files another user with read access could not read").isEmpty();
  }

  /** The process umask from {@code /proc/self/status} (Linux), or 022. */
  static int umask() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (Files.exists(status)) {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring(6).strip(), 8);
        }
      }
    }
    return 0022;
  }
}
