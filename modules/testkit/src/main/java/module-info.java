/**
 * OmniGraph test kit: storage emulators as JUnit 5 extensions and the FaultProxy. Test scope only.
 *
 * <p>{@code io.omnigraph.testkit.azure}: Azurite (npm, child process) for Azure Blob.
 * <p>{@code io.omnigraph.testkit.fault}: {@link io.omnigraph.testkit.fault.FaultProxy}, an HTTP
 * proxy that injects faults between any client and any emulator.
 */
module io.omnigraph.testkit {
  requires transitive io.omnigraph.api;
  requires transitive org.junit.jupiter.api;
  requires transitive com.azure.storage.blob;
  requires jdk.httpserver;

  exports io.omnigraph.testkit.azure;
  exports io.omnigraph.testkit.fault;
}
