/**
 * OmniGraph test kit: storage emulators as JUnit 5 extensions and the FaultProxy. Test scope only.
 *
 * <p>{@code io.omnigraph.testkit.azure}: Azurite (npm, child process) for Azure Blob.
 * <p>{@code io.omnigraph.testkit.fault}: {@link io.omnigraph.testkit.fault.FaultProxy}, an HTTP
 * proxy that injects faults between any client and any emulator.
 * <p>{@code io.omnigraph.testkit.s3}: s3proxy (in-process) for S3. The s3proxy jar cannot be a
 * module (its service file names a shaded-away Jetty class, so no automatic module descriptor can
 * be derived); it must sit on the class path, and this module drives it by reflection.
 * <p>{@code io.omnigraph.testkit.gcs}: {@link io.omnigraph.testkit.gcs.GcsEmulator}, an in-memory
 * GCS emulator (JSON API for google-cloud-storage, XML API for Lance's object_store).
 * <p>{@code io.omnigraph.testkit.graph}: shared test graphs (schemas and NDJSON) and the load/export
 * helpers over the public {@code Graph} API.
 * <p>{@code io.omnigraph.testkit.jvm}: {@link io.omnigraph.testkit.jvm.ChildJvm}, the launcher of
 * child JVMs (crash, kill and cross-process tests, runner jars).
 * <p>{@code io.omnigraph.testkit.tck}: the storage TCK's helpers for HTTP backends:
 * {@link io.omnigraph.testkit.tck.HttpFaultController} (faults and request counts through a
 * FaultProxy), {@link io.omnigraph.testkit.tck.HttpDialects} (S3, GCS, Azure Blob) and
 * {@link io.omnigraph.testkit.tck.HttpStoreBinding} (a whole binding) and
 * {@link io.omnigraph.testkit.tck.HttpStoreBindings} (one binding per adapter path of a test class). They need the TCK
 * ({@code io.omnigraph:omnigraph-conformance}, an optional dependency of the kit) on the path.
 * <p>{@code io.omnigraph.testkit.lance}: {@link io.omnigraph.testkit.lance.LanceSmoke}, the Lance
 * smoke test every backend runs through its {@code lanceLocation}. Lance and Arrow are optional
 * ({@code requires static}): only callers of that package need them, on the class path.
 */
module io.omnigraph.testkit {
  requires transitive io.omnigraph.api;
  requires transitive org.junit.jupiter.api;
  requires transitive com.azure.storage.blob;
  requires jdk.httpserver;
  requires transitive software.amazon.awssdk.services.s3;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.regions;
  requires java.logging;
  requires java.xml;
  requires com.fasterxml.jackson.databind;
  requires static lance.core;
  requires static org.apache.arrow.vector;
  requires static org.apache.arrow.memory.core;
  // the TCK helpers (io.omnigraph.testkit.tck) implement the TCK's types; only their users need it
  requires static io.omnigraph.conformance;
  requires java.net.http; // used by the kit's own tests (the GCS XML API is driven with java.net.http)

  exports io.omnigraph.testkit.azure;
  exports io.omnigraph.testkit.fault;
  exports io.omnigraph.testkit.gcs;
  exports io.omnigraph.testkit.graph;
  exports io.omnigraph.testkit.jvm;
  exports io.omnigraph.testkit.lance;
  exports io.omnigraph.testkit.s3;
  exports io.omnigraph.testkit.tck;
}
