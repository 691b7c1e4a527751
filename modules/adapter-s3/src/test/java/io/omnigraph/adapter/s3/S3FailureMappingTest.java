package io.omnigraph.adapter.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import io.omnigraph.testkit.fault.RecordedRequest;
import io.omnigraph.testkit.fault.S3Requests;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every failure kind the issue names, produced by s3proxy itself or by a FaultProxy between the
 * real SDK client and s3proxy, so each passes through the SDK's retry and error paths.
 */
class S3FailureMappingTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();
  private static final int ATTEMPTS = 3;

  private S3ProxyServer server;
  private FaultProxy proxy;
  private String bucket;
  private StorageAdapter adapter;

  @BeforeEach
  void open() throws IOException {
    server = S3.server();
    bucket = server.createBucket();
    proxy = FaultProxy.start(server.endpoint());
    adapter = S3Fixture.open(bucket, "p", proxy.endpoint(), "max-attempts", Integer.toString(ATTEMPTS));
    proxy.clearLog();
  }

  @AfterEach
  void close() throws StorageException {
    adapter.close();
    proxy.close();
  }

  private static void assertKind(ThrowingCallable call, Kind kind) {
    assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private String objectTarget(String path) {
    return S3Requests.in(bucket).object("p/" + path);
  }

  // --- configuration ---

  @Test
  void aMissingBucketIsAConfigurationErrorAtOpen() {
    assertKind(() -> S3Fixture.open("no-such-bucket-here", "", server.endpoint()), Kind.CONFIGURATION);
  }

  @Test
  void aBucketDeletedAfterOpenIsAConfigurationErrorOnTheNextRequest() throws StorageException {
    String other = server.createBucket();
    try (StorageAdapter a = S3Fixture.open(other, "", server.endpoint())) {
      server.client().deleteBucket(b -> b.bucket(other));
      assertKind(() -> a.readIfExists("x"), Kind.CONFIGURATION);
      assertKind(() -> a.put("x", utf8("x"), WriteCondition.overwrite()), Kind.CONFIGURATION);
    }
  }

  @Test
  void anUnreachableEndpointIsAConfigurationErrorAtOpen() throws IOException {
    int freePort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      freePort = s.getLocalPort();
    }
    assertKind(() -> S3Fixture.open(bucket, "", URI.create("http://127.0.0.1:" + freePort)), Kind.CONFIGURATION);
  }

  @Test
  void unknownOptionsAndBadValuesAreConfigurationErrors() {
    URI root = URI.create("s3://" + bucket);
    assertKind(() -> StorageAdapters.open(root, S3Fixture.options(server.endpoint(), "endpiont", "x")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(root, S3Fixture.options(server.endpoint(), "allow-http", null)), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(root, S3Fixture.options(server.endpoint(), "list-page-size", "0")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(root, S3Fixture.options(server.endpoint(), "path-style", "yes")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(root, S3Fixture.options(server.endpoint(), "secret-access-key", null)),
        Kind.CONFIGURATION);
  }

  @Test
  void malformedRootsAreConfigurationErrors() {
    Map<String, String> o = S3Fixture.options(server.endpoint());
    for (String bad : new String[] {"s3:///nobucket", "s3://Upper_Case/x", "s3://b:9000/x", "s3://bucket/a/../b", "s3://bucket/x?y=1"}) {
      assertKind(() -> StorageAdapters.open(URI.create(bad), o), Kind.CONFIGURATION);
    }
  }

  // --- permission ---

  @Test
  void refusedCredentialsArePermissionErrorsAtOpen() {
    assertKind(() -> S3Fixture.open(bucket, "", server.endpoint(), "secret-access-key", "wrong"), Kind.PERMISSION);
  }

  @Test
  void refusedCredentialsArePermissionErrorsOnEveryOperationNeverNotFound() throws StorageException {
    try (StorageAdapter a = S3Fixture.open(bucket, "", server.endpoint(), "secret-access-key", "wrong", "check-bucket", "false")) {
      assertKind(() -> a.readIfExists("missing"), Kind.PERMISSION);
      assertKind(() -> a.exists("missing"), Kind.PERMISSION);
      assertKind(() -> a.list(""), Kind.PERMISSION);
      assertKind(() -> a.put("x", utf8("x"), WriteCondition.ifAbsent()), Kind.PERMISSION);
      assertKind(() -> a.delete("x"), Kind.PERMISSION);
    }
  }

  @Test
  void a403FromTheServiceIsPermission() {
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).then(Fault.s3Error(403, "AccessDenied", "denied")));
    assertKind(() -> adapter.put("k", utf8("x"), WriteCondition.overwrite()), Kind.PERMISSION);
  }

  // --- precondition ---

  @Test
  void a409ConditionalRequestConflictOnIfAbsentIsAPreconditionFailure() {
    // real S3 answers the loser of a race of conditional writes with 409; s3proxy never does,
    // so the FaultProxy plays S3 here
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).times(ATTEMPTS)
        .then(Fault.s3Error(409, "ConditionalRequestConflict", "conflict")));
    assertKind(() -> adapter.put("k", utf8("x"), WriteCondition.ifAbsent()), Kind.PRECONDITION_FAILED);
  }

  // --- transient ---

  @Test
  void throttlingIsRetriedByTheSdkAndSucceedsWhenItStops() throws StorageException {
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).times(ATTEMPTS - 1).then(Fault.s3Error(503, "SlowDown", "slow")));
    adapter.put("k", utf8("x"), WriteCondition.overwrite());
    assertThat(proxy.requests("PUT", objectTarget("k"))).extracting(RecordedRequest::status).containsExactly(503, 503, 200);
  }

  @Test
  void throttlingThatOutlivesTheSdkRetriesIsTransient() {
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).times(ATTEMPTS).then(Fault.s3Error(503, "SlowDown", "slow")));
    assertKind(() -> adapter.put("k", utf8("x"), WriteCondition.ifAbsent()), Kind.TRANSIENT);
    assertThat(proxy.count("PUT", objectTarget("k"))).isEqualTo(ATTEMPTS);
  }

  @Test
  void a500OnEveryAttemptOfAReadIsTransient() {
    proxy.arm(FaultRule.on("GET", objectTarget("k")).times(ATTEMPTS).then(Fault.s3Error(500, "InternalError", "oops")));
    assertKind(() -> adapter.readIfExists("k"), Kind.TRANSIENT);
  }

  @Test
  void aListPageFailingOnEveryAttemptIsTransientAndNeverAShortListing() throws StorageException {
    for (int i = 0; i < 5; i++) {
      adapter.put("d/k" + i, utf8("v"), WriteCondition.overwrite());
    }
    try (StorageAdapter paged = S3Fixture.open(bucket, "p", proxy.endpoint(), "list-page-size", "2",
        "max-attempts", Integer.toString(ATTEMPTS))) {
      proxy.arm(FaultRule.on("GET", S3Requests.in(bucket).listing()).nth(2).times(ATTEMPTS)
          .then(Fault.s3Error(503, "SlowDown", "slow")));
      ObjectListing listing = paged.list("d");
      assertThat(listing.next()).isEqualTo("d/k0");
      assertThat(listing.next()).isEqualTo("d/k1");
      assertKind(listing::hasNext, Kind.TRANSIENT);
    }
  }

  @Test
  void aReadWhoseConnectionIsResetOnEveryAttemptIsTransient() {
    proxy.arm(FaultRule.on("GET", objectTarget("k")).times(ATTEMPTS).then(Fault.reset()));
    assertKind(() -> adapter.readIfExists("k"), Kind.TRANSIENT);
  }

  @Test
  void aWriteThatCannotConnectSentNothingAndIsTransient() throws StorageException {
    proxy.close(); // the endpoint now refuses connections
    // a new adapter, so no pooled connection from before the close is reused (a request written
    // on such a connection may have been read, which would rightly be OUTCOME_UNKNOWN)
    try (StorageAdapter fresh = S3Fixture.open(bucket, "p", proxy.endpoint(), "check-bucket", "false",
        "max-attempts", Integer.toString(ATTEMPTS))) {
      assertKind(() -> fresh.put("k", utf8("x"), WriteCondition.ifAbsent()), Kind.TRANSIENT);
      assertKind(() -> fresh.delete("k"), Kind.TRANSIENT);
    }
    assertThat(server.client().listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
  }

  // --- outcome unknown ---

  @Test
  void aWriteWhoseResponseIsLostOnEveryAttemptIsOutcomeUnknownAndWasApplied() throws StorageException {
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).times(ATTEMPTS).then(Fault.forwardThenDrop()));
    assertKind(() -> adapter.put("k", utf8("applied"), WriteCondition.overwrite()), Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readTextIfExists("k")).contains("applied");
  }

  @Test
  void anIfAbsentWriteWhoseFirstResponseIsLostIsOutcomeUnknownNotPreconditionFailed() throws StorageException {
    // attempt 1 creates the object, its response is lost; the SDK's retry then meets our own
    // object and gets 412. Reporting PRECONDITION_FAILED would tell the caller another writer
    // won when in fact its own write is in place.
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).then(Fault.forwardThenDrop()));
    assertKind(() -> adapter.put("k", utf8("mine"), WriteCondition.ifAbsent()), Kind.OUTCOME_UNKNOWN);
    assertThat(proxy.requests("PUT", objectTarget("k"))).extracting(RecordedRequest::status).containsExactly(-1, 412);
    assertThat(adapter.readTextIfExists("k")).contains("mine");
  }

  @Test
  void anOverwriteWhoseFirstResponseIsLostIsRetriedAndSucceeds() throws StorageException {
    // an unconditional PUT is idempotent, so the SDK's retry settles the outcome
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).then(Fault.forwardThenDrop()));
    String version = adapter.put("k", utf8("v"), WriteCondition.overwrite());
    assertThat(adapter.readIfExists("k")).hasValueSatisfying(o -> assertThat(o.version()).isEqualTo(version));
  }

  @Test
  void aWriteWhoseConnectionIsResetAfterSendingIsOutcomeUnknown() {
    // the adapter cannot see how far the request got before the reset, so it may have been applied
    proxy.arm(FaultRule.on("PUT", objectTarget("k")).times(ATTEMPTS).then(Fault.reset()));
    assertKind(() -> adapter.put("k", utf8("x"), WriteCondition.overwrite()), Kind.OUTCOME_UNKNOWN);
  }

  @Test
  void aDeleteWhoseResponseIsLostOnEveryAttemptIsOutcomeUnknown() throws StorageException {
    adapter.put("k", utf8("x"), WriteCondition.overwrite());
    proxy.arm(FaultRule.on("DELETE", objectTarget("k")).times(ATTEMPTS).then(Fault.forwardThenDrop()));
    assertKind(() -> adapter.delete("k"), Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.exists("k")).isFalse();
  }

  // --- not found ---

  @Test
  void readTextOfAMissingObjectIsNotFound() {
    assertKind(() -> adapter.readText("missing"), Kind.NOT_FOUND);
  }
}
