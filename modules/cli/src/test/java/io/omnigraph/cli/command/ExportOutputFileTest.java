package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.graph.KnowsGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export -o} never destroys what is at the path: a regular or new file is replaced
 * atomically with the usual mode, a FIFO or a symbolic link is written through and stays what it
 * was, a missing directory is a clear usage error. Only temp-folder objects, never a real device.
 */
class ExportOutputFileTest {

  @TempDir static Path shared;
  static String graph;

  @TempDir Path tmp;

  @BeforeAll
  static void loadedGraph() throws IOException {
    Path schema = Files.writeString(shared.resolve("people.pg"), KnowsGraph.SCHEMA);
    Path data = Files.writeString(shared.resolve("people.ndjson"), KnowsGraph.PEOPLE);
    graph = shared.resolve("graph").toString();
    assertThat(CliRun.of("init", "--schema", schema.toString(), graph).exitCode()).isZero();
    assertThat(CliRun.of("load", "--mode", "overwrite", "--data", data.toString(), graph).exitCode()).isZero();
  }

  @Test
  void aFifoReceivesTheExportAndIsStillAFifoAfterwards() throws Exception {
    Path fifo = tmp.resolve("pipe");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is available");
    Path received = tmp.resolve("received.ndjson");
    Process reader = new ProcessBuilder("cat", fifo.toString()).redirectOutput(received.toFile()).start();
    try {
      CliRun run = CliRun.of("export", graph, "-o", fifo.toString());

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(reader.waitFor(30, TimeUnit.SECONDS)).as("the FIFO's reader got end of file").isTrue();
      assertThat(Files.readAllLines(received)).hasSize(4);
      assertThat(Files.readAttributes(fifo, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther())
          .as("still a FIFO").isTrue();
    } finally {
      reader.destroyForcibly();
    }
  }

  @Test
  void aSymbolicLinkIsWrittenThroughAndStaysALink() throws IOException {
    Path realDir = Files.createDirectory(tmp.resolve("real"));
    Path real = Files.writeString(realDir.resolve("export.ndjson"), "old content\n");
    Path link = Files.createSymbolicLink(tmp.resolve("latest.ndjson"), real);

    CliRun run = CliRun.of("export", graph, "--out", link.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readSymbolicLink(link)).isEqualTo(real);
    assertThat(Files.readAllLines(real)).hasSize(4).noneMatch(l -> l.contains("old content"));
  }

  @Test
  void aMissingDirectoryIsAUsageErrorNamingTheDirectory() throws IOException {
    Path missingDir = tmp.resolve("no-such-dir");
    Path out = missingDir.resolve("export.ndjson");

    CliRun text = CliRun.of("export", graph, "-o", out.toString());
    CliRun json = CliRun.of("export", graph, "-o", out.toString(), "--json");

    assertThat(text.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(text.err()).contains("directory " + missingDir + " does not exist").doesNotContain(".partial");
    assertThat(json.exitCode()).isEqualTo(ExitCode.USAGE);
    ObjectNode error = Json.parseObject(json.err().strip());
    assertThat(error.get("code").asText()).isEqualTo("output_dir_not_found");
    assertThat(Files.exists(missingDir)).isFalse();
  }

  @Test
  void aDirectoryAtThePathIsRefusedAndKept() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("exports"));

    CliRun run = CliRun.of("export", graph, "-o", dir.toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("is a directory");
    assertThat(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)).isTrue();
  }

  @Test
  void aNewFileGetsTheModeTheUmaskGivesAnyNewFile() throws IOException {
    assumeTrue(Files.getFileStore(tmp).supportsFileAttributeView("posix"));
    Set<PosixFilePermission> umaskMode = Files.getPosixFilePermissions(Files.createFile(tmp.resolve("probe")));
    assumeTrue(!umaskMode.equals(PosixFilePermissions.fromString("rw-------")),
        "a umask of 077 cannot tell the usual mode from a private one");
    Path out = tmp.resolve("new.ndjson");

    CliRun run = CliRun.of("export", graph, "-o", out.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out)))
        .isEqualTo(PosixFilePermissions.toString(umaskMode));
  }

  @Test
  void aRegularFileIsReplacedWholeAndKeepsItsMode() throws IOException {
    assumeTrue(Files.getFileStore(tmp).supportsFileAttributeView("posix"));
    Path out = Files.writeString(tmp.resolve("existing.ndjson"), "old content\n");
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));

    CliRun run = CliRun.of("export", graph, "-o", out.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(Files.readAllLines(out)).hasSize(4).noneMatch(l -> l.contains("old content"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r-----");
    try (var siblings = Files.list(tmp)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
    }
  }
}
