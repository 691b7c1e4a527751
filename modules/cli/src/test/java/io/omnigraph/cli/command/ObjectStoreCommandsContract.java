package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on a cloud graph root, the same for every emulator-backed backend: storage options
 * travel as repeated {@code --option k=v}; init, load in each mode, export, commit list, and the
 * export loads back into a fresh graph in the same store to the same rows.
 */
abstract class ObjectStoreCommandsContract {
  @TempDir Path tmp;

  /** @return a root URI in a fresh bucket or container of the emulator */
  abstract String freshRoot();

  /** @return {@code --option k=v} pairs that reach the emulator */
  abstract List<String> options();

  CliRun cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(options());
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void initLoadInEveryModeExportAndCommitListWorkOnTheStore() throws IOException {
    String uri = freshRoot();
    Path schema = Files.writeString(tmp.resolve("people.pg"), KnowsGraph.SCHEMA);
    Path data = Files.writeString(tmp.resolve("people.ndjson"), KnowsGraph.PEOPLE);
    Path more = Files.writeString(tmp.resolve("more.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"dee\"}}\n");
    Path update = Files.writeString(tmp.resolve("update.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":40}}\n");

    CliRun init = cli("init", "--schema", schema.toString(), "--store", uri);
    assertThat(init.exitCode()).as(init.err()).isZero();
    CliRun overwrite = cli("load", "--mode", "overwrite", "--data", data.toString(), uri, "--json");
    assertThat(overwrite.exitCode()).as(overwrite.err()).isZero();
    assertThat(Json.parseObject(overwrite.out().strip()).get("rows_read").asLong()).isEqualTo(4);
    assertThat(cli("load", "--mode", "append", "--data", more.toString(), uri).exitCode()).isZero();
    assertThat(cli("load", "--mode", "merge", "--data", update.toString(), uri).exitCode()).isZero();
    CliRun again = cli("load", "--mode", "append", "--data", more.toString(), uri);
    assertThat(again.exitCode()).as(again.err()).isEqualTo(ExitCode.CONFLICT);

    CliRun export = cli("export", uri);
    assertThat(export.exitCode()).as(export.err()).isZero();
    List<String> lines = export.out().lines().sorted().toList();
    assertThat(lines).hasSize(5).anyMatch(l -> l.contains("\"id\":\"bob\"") && l.contains("\"age\":40"));
    CliRun commits = cli("commit", "list", uri, "--json");
    assertThat(Json.parseObject(commits.out().strip()).get("commits")).hasSize(4);

    String copy = freshRoot();
    Path exported = Files.writeString(tmp.resolve("exported.ndjson"), export.out());
    assertThat(cli("init", "--schema", schema.toString(), copy).exitCode()).isZero();
    assertThat(cli("load", "--mode", "overwrite", "--data", exported.toString(), copy).exitCode()).isZero();
    assertThat(cli("export", copy).out().lines().sorted().toList()).isEqualTo(lines);
  }
}
