package io.omnigraph.testkit.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(AzuriteExtension.class)
class AzuriteTest {

  @Test
  void sharedInstanceListensOnLoopbackWithAnAssignedPort(Azurite azurite) {
    assertThat(azurite.isAlive()).isTrue();
    assertThat(azurite.endpoint().getHost()).isEqualTo("127.0.0.1");
    assertThat(azurite.port()).isPositive();
    assertThat(azurite.connectionString()).contains("BlobEndpoint=" + azurite.blobEndpoint() + ";");
  }

  @Test
  void freshContainersAreDistinctAndEmpty(Azurite azurite) {
    String a = azurite.createContainer("Fresh Container!");
    String b = azurite.createContainer("Fresh Container!");
    assertThat(a).isNotEqualTo(b).matches("[a-z0-9]([a-z0-9-]{1,61})[a-z0-9]");
    assertThat(AzuriteClients.serviceClient(azurite).getBlobContainerClient(a).listBlobs()).isEmpty();
  }

  @Test
  void blobRoundTripsThroughTheRealSdk(Azurite azurite) {
    BlobClient blob = AzuriteClients.serviceClient(azurite).getBlobContainerClient(azurite.createContainer()).getBlobClient("dir/x.txt");
    blob.upload(BinaryData.fromString("hello"));
    assertThat(blob.downloadContent().toString()).isEqualTo("hello");
  }

  @Test
  void putBlobWritesWithoutTheSdkAndTheSdkReadsItBack(Azurite azurite) {
    String c = azurite.createContainer();
    azurite.putBlob(c, "dir/odd name#4711+é", "partial".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    azurite.putBlob(c, "dir/empty", new byte[0]);
    var container = AzuriteClients.containerClient(azurite, c);
    assertThat(container.getBlobClient("dir/odd name#4711+é").downloadContent().toString()).isEqualTo("partial");
    assertThat(container.getBlobClient("dir/empty").getProperties().getBlobSize()).isZero();
  }

  @Test
  void ownInstanceWithDataFolderPersistsThereAndStopsOnClose(@TempDir Path data) {
    Azurite own = Azurite.start(data);
    try (own) {
      String c = own.createContainer();
      AzuriteClients.serviceClient(own).getBlobContainerClient(c).getBlobClient("k").upload(BinaryData.fromString("v"));
      assertThat(Files.exists(data.resolve("__azurite_db_blob__.json"))).isTrue();
    }
    assertThat(own.isAlive()).isFalse();
    own.close(); // idempotent
  }

  @Test
  void missingBinaryIsReportedWithTheInstallCommand() {
    String old = System.getProperty(AzuriteBinary.PROPERTY);
    System.setProperty(AzuriteBinary.PROPERTY, "/nonexistent/azurite-blob");
    try {
      assertThatThrownBy(AzuriteBinary::locate).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("/nonexistent/azurite-blob");
    } finally {
      if (old == null) {
        System.clearProperty(AzuriteBinary.PROPERTY);
      } else {
        System.setProperty(AzuriteBinary.PROPERTY, old);
      }
    }
  }

  @Test
  void binaryIsFoundByWalkingUpFromTheModuleDirectory() {
    Path bin = AzuriteBinary.locate();
    assertThat(bin).isExecutable();
    assertThat(bin.toString()).endsWith("modules/testkit/azurite/node_modules/.bin/azurite-blob");
  }
}
