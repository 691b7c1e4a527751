package io.omnigraph.adapter.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.fault.ArmedFault;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import io.omnigraph.testkit.fault.GcsRequests;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import io.omnigraph.testkit.gcs.GcsFaults;
import java.net.URI;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Error mapping through the real client's retry and error paths: a FaultProxy between the
 * adapter and the emulator injects statuses, resets and lost responses.
 */
class GcsErrorMappingTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private static final String UPLOAD = GcsRequests.anyBucket().upload();
  private static final String DOWNLOAD = GcsRequests.anyBucket().anyDownload();
  private static final String OBJECT = GcsRequests.anyBucket().anyObject();
  private static final String LIST = GcsRequests.anyBucket().listing();

  private FaultProxy proxy;
  private String bucket;

  @BeforeEach
  void start() throws Exception {
    proxy = FaultProxy.start(URI.create(gcs.emulator().baseUrl()));
    bucket = gcs.emulator().createBucket();
  }

  @AfterEach
  void stop() {
    proxy.close();
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }

  private StorageAdapter open(int maxAttempts) throws StorageException {
    return StorageAdapters.open("gs://" + bucket + "/r", GcsAdapterOptions.atEndpoint(gcs.emulator(),
        proxy.endpoint(), "max-attempts", Integer.toString(maxAttempts)));
  }

  private static void assertKind(ThrowingCallable call, Kind kind) {
    assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  private ArmedFault arm(String method, String target, int times, Fault fault) {
    return proxy.arm(FaultRule.on(method, target).times(times).then(fault));
  }

  @Test
  void serviceUnavailableThatOutlivesTheClientsRetriesIsTransient() throws Exception {
    try (StorageAdapter a = open(3)) {
      ArmedFault f = arm("POST", UPLOAD, 3, GcsFaults.jsonError(503, "backendError"));
      assertKind(() -> a.put("k", "x".getBytes(UTF_8), WriteCondition.ifAbsent()), Kind.TRANSIENT);
      assertThat(f.fired()).isEqualTo(3); // the client really retried, through the proxy
      assertThat(gcs.emulator().objectNames(bucket)).isEmpty();
    }
  }

  @Test
  void aTransientFailureShorterThanTheRetryBudgetIsInvisible() throws Exception {
    try (StorageAdapter a = open(3)) {
      ArmedFault f = arm("POST", UPLOAD, 2, GcsFaults.jsonError(503, "backendError"));
      a.put("k", "x".getBytes(UTF_8), WriteCondition.ifAbsent());
      assertThat(f.fired()).isEqualTo(2);
      assertThat(a.readText("k")).isEqualTo("x");
    }
  }

  @Test
  void throttlingOnAReadIsTransient() throws Exception {
    try (StorageAdapter a = open(1)) {
      a.put("k", "x".getBytes(UTF_8), WriteCondition.overwrite());
      arm("GET", DOWNLOAD, 1, GcsFaults.jsonError(429, "rateLimitExceeded"));
      assertKind(() -> a.readIfExists("k"), Kind.TRANSIENT);
    }
  }

  @Test
  void readRetriesTransientFailuresUpToMaxAttempts() throws Exception {
    try (StorageAdapter a = open(3)) {
      a.put("k", "x".getBytes(UTF_8), WriteCondition.overwrite());
      ArmedFault f = arm("GET", DOWNLOAD, 2, GcsFaults.jsonError(503, "backendError"));
      assertThat(a.readText("k")).isEqualTo("x");
      assertThat(f.fired()).isEqualTo(2);
    }
  }

  @Test
  void unauthorizedAndForbiddenArePermission() throws Exception {
    try (StorageAdapter a = open(1)) {
      arm("GET", DOWNLOAD, 1, GcsFaults.jsonError(401, "required"));
      assertKind(() -> a.readIfExists("k"), Kind.PERMISSION);
      arm("POST", UPLOAD, 1, GcsFaults.jsonError(403, "forbidden"));
      assertKind(() -> a.put("k", new byte[0], WriteCondition.overwrite()), Kind.PERMISSION);
      arm("GET", OBJECT, 1, GcsFaults.jsonError(403, "forbidden"));
      assertKind(() -> a.exists("k"), Kind.PERMISSION);
    }
  }

  @Test
  void conflictOnAConditionalWriteIsPreconditionFailed() throws Exception {
    // Real GCS can answer 409 to racing conditional mutations; the emulator only ever says 412.
    try (StorageAdapter a = open(1)) {
      arm("POST", UPLOAD, 1, GcsFaults.jsonError(409, "conflict"));
      assertKind(() -> a.put("k", new byte[0], WriteCondition.ifAbsent()), Kind.PRECONDITION_FAILED);
    }
  }

  @Test
  void aWriteWhoseResponseWasLostIsOutcomeUnknownAndWasApplied() throws Exception {
    try (StorageAdapter a = open(1)) {
      arm("POST", UPLOAD, 1, Fault.forwardThenDrop());
      assertKind(() -> a.put("k", "applied".getBytes(UTF_8), WriteCondition.ifAbsent()), Kind.OUTCOME_UNKNOWN);
      assertThat(gcs.emulator().objectBytes(bucket, "r/k")).isEqualTo("applied".getBytes(UTF_8));
    }
  }

  @Test
  void aConnectionResetAfterTheWriteWasSentIsOutcomeUnknown() throws Exception {
    try (StorageAdapter a = open(1)) {
      arm("POST", UPLOAD, 1, Fault.reset());
      assertKind(() -> a.put("k", "x".getBytes(UTF_8), WriteCondition.overwrite()), Kind.OUTCOME_UNKNOWN);
    }
  }

  @Test
  void aDeleteWhoseResponseWasLostIsOutcomeUnknown() throws Exception {
    try (StorageAdapter a = open(1)) {
      a.put("k", "x".getBytes(UTF_8), WriteCondition.overwrite());
      arm("DELETE", OBJECT, 1, Fault.forwardThenDrop());
      assertKind(() -> a.delete("k"), Kind.OUTCOME_UNKNOWN);
      assertThat(gcs.emulator().objectBytes(bucket, "r/k")).isNull();
    }
  }

  @Test
  void aReadWhoseConnectionIsResetIsTransient() throws Exception {
    try (StorageAdapter a = open(1)) {
      a.put("k", "x".getBytes(UTF_8), WriteCondition.overwrite());
      // times(2): the JDK's HttpURLConnection silently resends a GET once when a kept-alive
      // connection breaks, so one reset alone may never reach the adapter.
      ArmedFault f = arm("GET", DOWNLOAD, 2, Fault.reset());
      assertKind(() -> a.readIfExists("k"), Kind.TRANSIENT);
      assertThat(f.fired()).isPositive();
      f.disarm();
    }
  }

  @Test
  void aFailingLaterListingPageThrowsFromTheListingInsteadOfEndingIt() throws Exception {
    try (StorageAdapter a = StorageAdapters.open("gs://" + bucket + "/r", GcsAdapterOptions.atEndpoint(gcs.emulator(),
        proxy.endpoint(), "max-attempts", "1", "list-page-size", "2"))) {
      for (String p : new String[] {"d/1", "d/2", "d/3", "d/4", "d/5"}) {
        a.put(p, new byte[0], WriteCondition.overwrite());
      }
      ArmedFault f = proxy.arm(FaultRule.on("GET", LIST).nth(2).then(GcsFaults.jsonError(503, "backendError")));
      ObjectListing l = a.list("d");
      assertThat(l.next()).isEqualTo("d/1");
      assertThat(l.next()).isEqualTo("d/2");
      assertKind(l::hasNext, Kind.TRANSIENT);
      assertThat(f.fired()).isEqualTo(1);
    }
  }
}
