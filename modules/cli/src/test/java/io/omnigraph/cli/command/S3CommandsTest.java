package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on an s3:// graph (s3proxy on 127.0.0.1): storage options travel as repeated --option k=v. */
class S3CommandsTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path tmp;
  String uri;
  List<String> options;

  @BeforeEach
  void bucket() {
    S3ProxyServer server = S3.server();
    uri = "s3://" + server.createBucket() + "/graphs/cli";
    options = List.of(
        "--option", "endpoint=" + server.endpoint(), "--option", "allow-http=true", "--option", "path-style=true",
        "--option", "region=" + S3ProxyServer.REGION, "--option", "access-key-id=" + S3ProxyServer.ACCESS_KEY_ID,
        "--option", "secret-access-key=" + S3ProxyServer.SECRET_ACCESS_KEY);
  }

  private CliRun cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(options);
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void initLoadExportAndCommitListWorkOnS3() throws IOException {
    Path schema = Files.writeString(tmp.resolve("people.pg"), GraphCommandsTest.SCHEMA);
    Path data = Files.writeString(tmp.resolve("people.ndjson"), LoadExportTest.DATA);

    assertThat(cli("init", "--schema", schema.toString(), "--store", uri).exitCode()).isZero();
    CliRun load = cli("load", "--mode", "overwrite", "--data", data.toString(), uri, "--json");
    CliRun export = cli("export", uri);
    CliRun commits = cli("commit", "list", uri, "--json");

    assertThat(load.exitCode()).as(load.err()).isZero();
    assertThat(Json.parseObject(load.out().strip()).get("rows_read").asLong()).isEqualTo(4);
    assertThat(export.out().lines()).hasSize(4);
    assertThat(Json.parseObject(commits.out().strip()).get("commits")).hasSize(2);
  }

  @Test
  void wrongCredentialsAreAStorageFailureWithExitCodeFour() {
    List<String> bad = new ArrayList<>(List.of("commit", "list", uri, "--json"));
    bad.addAll(options.subList(0, options.size() - 2));
    bad.addAll(List.of("--option", "secret-access-key=wrong"));

    CliRun run = CliRun.of(bad.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.STORAGE);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("storage").get("kind").asText()).isEqualToIgnoringCase("permission");
  }
}
