/**
 * OmniGraph test kit: storage emulators as JUnit 5 extensions and the FaultProxy. Test scope only.
 *
 * <p>{@code io.omnigraph.testkit.azure}: Azurite (npm, child process) for Azure Blob.
 */
module io.omnigraph.testkit {
  requires transitive io.omnigraph.api;
  requires transitive org.junit.jupiter.api;
  requires transitive com.azure.storage.blob;

  exports io.omnigraph.testkit.azure;
}
