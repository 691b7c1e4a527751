package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.ExitCode;
import io.omnigraph.cli.Json;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The CLI on an s3:// graph (s3proxy on 127.0.0.1): storage options travel as repeated --option k=v. */
class S3CommandsTest extends ObjectStoreCommandsContract {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Override
  String freshRoot() {
    return "s3://" + S3.server().createBucket() + "/graphs/cli";
  }

  @Override
  List<String> options() {
    S3ProxyServer server = S3.server();
    return List.of(
        "--option", "endpoint=" + server.endpoint(), "--option", "allow-http=true", "--option", "path-style=true",
        "--option", "region=" + S3ProxyServer.REGION, "--option", "access-key-id=" + S3ProxyServer.ACCESS_KEY_ID,
        "--option", "secret-access-key=" + S3ProxyServer.SECRET_ACCESS_KEY);
  }

  @Test
  void wrongCredentialsAreAStorageFailureWithExitCodeFour() {
    List<String> options = options();
    List<String> bad = new ArrayList<>(List.of("commit", "list", freshRoot(), "--json"));
    bad.addAll(options.subList(0, options.size() - 2));
    bad.addAll(List.of("--option", "secret-access-key=wrong"));

    CliRun run = CliRun.of(bad.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.STORAGE);
    ObjectNode error = Json.parseObject(run.err().strip());
    assertThat(error.get("storage").get("kind").asText()).isEqualToIgnoringCase("permission");
  }
}
