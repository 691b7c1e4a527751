package io.omnigraph.cli.command;

import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The CLI on an az:// graph (Azurite on 127.0.0.1). */
class AzureCommandsTest extends ObjectStoreCommandsContract {
  @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();

  @Override
  String freshRoot() {
    return "az://" + AZURITE.azurite().createContainer("cli") + "/graphs/cli";
  }

  @Override
  List<String> options() {
    return List.of("--option", "account=" + Azurite.ACCOUNT_NAME, "--option", "account-key=" + Azurite.ACCOUNT_KEY,
        "--option", "endpoint=" + AZURITE.azurite().blobEndpoint(), "--option", "allow-http=true");
  }
}
