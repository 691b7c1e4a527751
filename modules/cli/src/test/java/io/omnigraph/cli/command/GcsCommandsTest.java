package io.omnigraph.cli.command;

import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The CLI on a gs:// graph (the in-repo GCS emulator on 127.0.0.1). */
class GcsCommandsTest extends ObjectStoreCommandsContract {
  @RegisterExtension static final GcsEmulatorExtension GCS = new GcsEmulatorExtension();

  @Override
  String freshRoot() {
    return "gs://" + GCS.emulator().createBucket() + "/graphs/cli";
  }

  @Override
  List<String> options() {
    GcsEmulator e = GCS.emulator();
    return List.of("--option", "endpoint=" + e.baseUrl(), "--option", "project-id=" + e.projectId(),
        "--option", "credentials=no-auth");
  }
}
