package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code omnigraph mutate} (and its reference-CLI spellings) against real graphs on local disk. */
class MutateCommandTest {
  static final String QUERIES = """
      query add($name: String, $age: I32?) {
        insert Person { name: $name, age: $age }
      }
      query know($a: String, $b: String) {
        insert Knows { from: $a, to: $b }
      }
      query older($name: String) {
        update Person set { age: 99 } where name = $name
      }
      query remove($name: String) {
        delete Person where name = $name
      }
      """;

  @TempDir Path tmp;
  Path queries;
  String graph;

  @BeforeEach
  void initGraph() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), KnowsGraph.SCHEMA);
    queries = Files.writeString(tmp.resolve("people.gq"), QUERIES);
    graph = tmp.resolve("graph").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph);
    assertThat(init.exitCode()).as(init.err()).isZero();
  }

  CliRun mutate(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "mutate";
    System.arraycopy(args, 0, all, 1, args.length);
    return CliRun.of(all);
  }

  String head() {
    CliRun list = CliRun.of("commit", "list", graph, "--json");
    return Json.parseObject(list.out().strip()).get("commits").get(0).get("graph_commit_id").asText();
  }

  @Test
  void mutatePrintsCountsPerTableAndTheNewCommit() {
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=ada", "--param", "age=36");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("mutation add changed 1 node and 0 edges", "as commit " + head(),
        "node:Person: inserted 1, updated 0, deleted 0");
  }

  @Test
  void jsonOutputHasCountsAndTheCommitWithActor() {
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "add", "--params-json", "{\"name\":\"ada\"}",
        "--actor", "alice", "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    ObjectNode o = Json.parseObject(run.out().strip());
    assertThat(o.get("query_name").asText()).isEqualTo("add");
    assertThat(o.get("affected_nodes").asLong()).isEqualTo(1);
    assertThat(o.get("tables").get("node:Person").get("inserted").asLong()).isEqualTo(1);
    assertThat(o.get("commit").get("graph_commit_id").asText()).isEqualTo(head());
    assertThat(o.get("commit").get("actor_id").asText()).isEqualTo("alice");
  }

  @Test
  void referenceSpellingsAreAliases() throws IOException {
    Path params = Files.writeString(tmp.resolve("p.json"), "{\"name\":\"bob\"}");
    CliRun change = CliRun.of("change", "add", "--store", graph, "--query", queries.toString(), "--params-file", params.toString(),
        "--as", "bot");
    assertThat(change.exitCode()).as(change.err()).isZero();
    CliRun positional = CliRun.of("mutate", graph, "older", "-e", QUERIES, "--params", "{\"name\":\"bob\"}",
        "--if-commit", head(), "--json");
    assertThat(positional.exitCode()).as(positional.err()).isZero();
    assertThat(Json.parseObject(positional.out().strip()).get("tables").get("node:Person").get("updated").asLong()).isEqualTo(1);
  }

  @Test
  void branchCommitsOnThatBranchAndLeavesMainAlone() {
    String mainHead = head();
    assertThat(CliRun.of("branch", "create", "dev", graph).exitCode()).isZero();
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=ada", "--branch", "dev",
        "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String commit = Json.parseObject(run.out().strip()).get("commit").get("graph_commit_id").asText();
    CliRun dev = CliRun.of("commit", "list", "--branch", "dev", graph, "--json");
    assertThat(Json.parseObject(dev.out().strip()).get("commits").get(0).get("graph_commit_id").asText()).isEqualTo(commit);
    assertThat(head()).isEqualTo(mainHead);
    assertThat(CliRun.of("export", "--branch", "dev", graph).out()).contains("ada");
    assertThat(CliRun.of("export", graph).out()).doesNotContain("ada");
    CliRun unknown = mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=bob", "--branch", "nope",
        "--json");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.DATA);
  }

  @Test
  void aMutationThatChangesNothingSaysSoAndPublishesNoCommit() {
    String before = head();
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "remove", "--param", "name=nobody", "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Json.parseObject(run.out().strip()).get("commit").isNull()).isTrue();
    assertThat(head()).isEqualTo(before);
  }

  @Test
  void aStaleExpectedHeadExitsWithConflictAndAPreconditionDetail() {
    String genesis = head();
    assertThat(mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=ada").exitCode()).isZero();
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=bob",
        "--expect-head", genesis, "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCode.CONFLICT);
    ObjectNode err = Json.parseObject(run.err().strip());
    assertThat(err.get("precondition_failure").get("expected").asText()).isEqualTo(genesis);
  }

  @Test
  void aMixedQueryIsADataErrorThatSaysToSplitIt() {
    String mixed = """
        query m($name: String) {
          insert Person { name: $name }
          delete Person where name = $name
        }
        """;
    CliRun run = mutate(graph, "-e", mixed, "--name", "m", "--param", "name=x", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    ObjectNode err = Json.parseObject(run.err().strip());
    assertThat(err.get("error").asText()).contains("mixes inserts/updates and deletes", "split it into separate mutations");
    assertThat(err.get("validation").get("rule").asText()).isEqualTo("mixed_mutation");
    assertThat(err.get("validation").get("line").asLong()).isEqualTo(3);
  }

  @Test
  void aDanglingEdgeIsADataErrorAndWritesNothing() {
    String before = head();
    CliRun run = mutate(graph, "--query", queries.toString(), "--name", "know", "--param", "a=ghost", "--param", "b=ada");
    assertThat(run.exitCode()).isEqualTo(ExitCode.DATA);
    assertThat(run.err()).contains("src 'ghost' not found in Person");
    assertThat(head()).isEqualTo(before);
  }

  @Test
  void usageErrors() {
    assertThat(mutate(graph, "--name", "add").exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(mutate(graph, "--query", queries.toString()).exitCode()).isEqualTo(ExitCode.USAGE);
    CliRun both = mutate(graph, "--query", queries.toString(), "--name", "add", "--param", "name=a", "--params", "{}");
    assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(both.err()).contains("give parameters one way");
    assertThat(mutate(graph, "other", "--query", queries.toString(), "--name", "add").exitCode()).isEqualTo(ExitCode.USAGE);
  }
}
