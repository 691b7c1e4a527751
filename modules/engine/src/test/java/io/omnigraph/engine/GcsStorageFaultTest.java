package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.GcsRequests;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import io.omnigraph.testkit.gcs.GcsFaults;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The storage-fault contract on the in-repo GCS emulator behind a FaultProxy. The adapter speaks
 * the JSON API (Lance the XML API, which no rule selects). A failed request is GCS's
 * {@code 503 backendError} on every one of the client's {@value #ATTEMPTS} attempts:
 * {@code TRANSIENT}.
 *
 * <p>Sidecar puts are multipart uploads, whose object name travels in the request body, not the
 * target, so the put rule selects the JSON-API uploads that create an object
 * ({@code ifGenerationMatch=0}, the adapter's {@code IfAbsent}). During a write on a graph that
 * has been written before, the only such upload is the sidecar's Phase A put: schema files are
 * written at init, the write lease already exists and is taken and released with {@code IfMatch},
 * the sidecar's confirmation is an {@code IfMatch} put, and table data goes through Lance's XML
 * API. The contract checks that the failure the write reports names the sidecar's path.
 */
class GcsStorageFaultTest extends ProxiedStorageFaultContract {
  @RegisterExtension static final GcsEmulatorExtension GCS = new GcsEmulatorExtension();
  static final int ATTEMPTS = 2;

  private String bucket;

  @Override
  String freshRoot() {
    bucket = GCS.emulator().createBucket();
    return "gs://" + bucket + "/" + PREFIX;
  }

  @AfterEach
  void everyRequestWasOneTheEmulatorServes() {
    assertThat(GCS.emulator().unsupportedRequests()).isEmpty();
  }

  @Override
  URI upstream() {
    return URI.create(GCS.emulator().baseUrl());
  }

  @Override
  Map<String, String> options(String endpoint) {
    GcsEmulator e = GCS.emulator();
    return GcsAdapterOptions.atEndpoint(e, endpoint, "max-attempts", Integer.toString(ATTEMPTS));
  }

  @Override
  String method(SidecarIo io) {
    return switch (io) {
      case PUT, PUT_RESPONSE_LOST -> "POST";
      case DELETE -> "DELETE";
      case LIST, READ -> "GET";
    };
  }

  @Override
  String target(SidecarIo io) {
    GcsRequests gcs = GcsRequests.in(bucket);
    return switch (io) {
      case PUT, PUT_RESPONSE_LOST -> gcs.creatingUpload();
      case DELETE -> gcs.objectIn(RECOVERY_DIR);
      case READ -> gcs.downloadIn(RECOVERY_DIR);
      case LIST -> gcs.listing(RECOVERY_DIR);
    };
  }

  @Override
  Fault failure() {
    return GcsFaults.jsonError(503, "backendError");
  }

  @Override
  void plantRaw(String root, String name, byte[] bytes) {
    GCS.emulator().putObject(bucket, PREFIX + "/" + name, bytes);
  }

  @Override
  boolean rawExists(String root, String name) {
    return GCS.emulator().objectNames(bucket).contains(PREFIX + "/" + name);
  }
}
