package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write into a graph the user may not write is a storage failure (exit 4) naming the graph, never
 * blamed on the input file (docs/errors.md). Runs the CLI in a child JVM; as root the child is
 * started by {@code setpriv} without {@code CAP_DAC_OVERRIDE}, so file modes bind it as they bind
 * any other user.
 */
class ReadOnlyGraphTest {
  @TempDir Path tmp;
  Path graph;
  Path data;

  @BeforeEach
  void graphWithOneRow() throws IOException {
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person { name: String @key }\n");
    graph = tmp.resolve("graph");
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph.toString());
    assertThat(init.exitCode()).as(init.err()).isZero();
    data = Files.writeString(tmp.resolve("people.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ada\"}}\n");
    CliRun load = CliRun.of("load", "--mode", "append", "--data", data.toString(), graph.toString());
    assertThat(load.exitCode()).as(load.err()).isZero();
    Files.writeString(data, "{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n");
    setWritable(false);
  }

  @AfterEach
  void restore() throws IOException {
    setWritable(true);
  }

  private void setWritable(boolean writable) throws IOException {
    List<Path> all;
    try (Stream<Path> s = Files.walk(graph)) {
      all = new ArrayList<>(s.toList());
    }
    for (Path p : all) {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
      if (writable) {
        perms.add(PosixFilePermission.OWNER_WRITE);
      } else {
        perms.removeAll(Set.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE));
      }
      Files.setPosixFilePermissions(p, perms);
    }
  }

  private static ChildJvm cli(String... args) {
    ChildJvm child = ChildJvm.main(OmnigraphCli.class, args);
    Path setpriv = Path.of("/usr/bin/setpriv");
    if ("root".equals(System.getProperty("user.name")) && Files.isExecutable(setpriv)) {
      child.wrappedIn(setpriv.toString(), "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all", "--");
    }
    return child;
  }

  @Test
  void aLoadIntoAReadOnlyGraphIsExitFourNamingTheGraphNotTheInput() {
    ChildJvm.Result r = cli("load", "--mode", "append", "--data", data.toString(), graph.toString(), "--json").run();
    String out = r.output();
    assertThat(r.exitCode()).as(out).isEqualTo(ExitCode.STORAGE);
    String jsonLine = out.lines().filter(l -> l.startsWith("{\"error\"")).reduce((a, b) -> b).orElseThrow(
        () -> new AssertionError("no JSON error line in: " + out));
    ObjectNode error = Json.parseObject(jsonLine);
    assertThat(error.get("code").asText()).as(out).isEqualTo("permission_denied");
    assertThat(error.get("storage").get("kind").asText()).isEqualTo("PERMISSION");
    assertThat(error.get("storage").get("path").asText()).startsWith(graph.toString());
    assertThat(error.get("error").asText()).as(out)
        .contains("permission denied: cannot write " + graph)
        .doesNotContain("cannot read " + data)
        .doesNotContain("CDataJniException");
    assertThat(out).doesNotContain("cannot read " + data);
  }

  @Test
  void readsOfAReadOnlyGraphStillWork() {
    ChildJvm.Result r = cli("export", graph.toString()).run();
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("\"name\":\"ada\"");
  }
}
