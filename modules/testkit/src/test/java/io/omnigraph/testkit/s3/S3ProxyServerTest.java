package io.omnigraph.testkit.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import io.omnigraph.testkit.fault.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3ProxyServerTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @Test
  void listensOnLoopbackAndServesTheRealSdkClient() {
    S3ProxyServer s3 = S3.server();
    assertThat(s3.endpoint().getHost()).isEqualTo("127.0.0.1");
    String bucket = s3.createBucket();
    s3.client().putObject(b -> b.bucket(bucket).key("dir/a.txt"), RequestBody.fromString("hello"));
    assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("dir/a.txt")).asUtf8String()).isEqualTo("hello");
    assertThatThrownBy(() -> s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("missing")))
        .isInstanceOf(NoSuchKeyException.class);
  }

  @Test
  void everyCreatedBucketIsNewAndEmpty() {
    S3ProxyServer s3 = S3.server();
    String a = s3.createBucket();
    s3.client().putObject(b -> b.bucket(a).key("k"), RequestBody.fromString("x"));
    String b2 = s3.createBucket();
    assertThat(b2).isNotEqualTo(a);
    assertThat(s3.client().listObjectsV2(r -> r.bucket(b2)).contents()).isEmpty();
  }

  @Test
  void wrongCredentialsAreRefusedWith403() {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    try (S3Client wrong = S3Client.builder().endpointOverride(s3.endpoint()).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY_ID, "bad")))
        .forcePathStyle(true).build()) {
      assertThatThrownBy(() -> wrong.getObjectAsBytes(b -> b.bucket(bucket).key("k")))
          .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
    }
  }

  @Test
  void signedRequestsStillVerifyThroughTheFaultProxy() throws IOException {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    byte[] big = new byte[300_000];
    Arrays.fill(big, (byte) 'z');
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint()); S3Client c = s3.newClient(proxy.endpoint())) {
      c.putObject(b -> b.bucket(bucket).key("small"), RequestBody.fromString("hi"));
      c.putObject(b -> b.bucket(bucket).key("big"), RequestBody.fromBytes(big));
      assertThat(c.getObjectAsBytes(b -> b.bucket(bucket).key("big")).asByteArray()).isEqualTo(big);
      assertThat(c.listObjectsV2(b -> b.bucket(bucket)).contents()).hasSize(2);
      c.deleteObject(b -> b.bucket(bucket).key("small"));
      assertThat(proxy.requests()).extracting(RecordedRequest::status).containsExactly(200, 200, 200, 200, 204);
      assertThat(proxy.problems()).isEmpty();
    }
  }

  @Test
  void aThrottlingFaultIsRetriedByTheSdkAndCountedByTheProxy() throws IOException {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint()); S3Client c = s3.newClient(proxy.endpoint())) {
      var armed = proxy.arm(FaultRule.on("PUT", "/" + bucket + "/k(\\?.*)?").then(Fault.s3Error(503, "SlowDown", "slow down")));
      c.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("v"));
      assertThat(armed.fired()).isEqualTo(1);
      assertThat(proxy.requests("PUT", "/" + bucket + "/k(\\?.*)?")).extracting(RecordedRequest::status)
          .containsExactly(503, 200);
      assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asString(StandardCharsets.UTF_8))
          .isEqualTo("v");
    }
  }

  @Test
  void aLostResponseOnEveryAttemptReachesTheSdkAsAClientException() throws IOException {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    try (FaultProxy proxy = FaultProxy.start(s3.endpoint()); S3Client c = s3.newClient(proxy.endpoint())) {
      proxy.arm(FaultRule.on("PUT", "/" + bucket + "/k(\\?.*)?").times(10).then(Fault.forwardThenDrop()));
      assertThatThrownBy(() -> c.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("applied")))
          .isInstanceOf(SdkClientException.class);
      // the write took effect although the client never saw a response
      assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String()).isEqualTo("applied");
    }
  }

  @Test
  void conditionalWritesOfOneKeyAreAtomicAsOnS3() throws Exception {
    // s3proxy alone checks If-Match and writes without a lock; S3ProxyServer serializes writes of
    // one key so that concurrent read-modify-write loops lose no update, as on S3
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    s3.client().putObject(b -> b.bucket(bucket).key("counter"), RequestBody.fromString("0"));
    int threads = 6;
    int perThread = 5;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      java.util.List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int done = 0; done < perThread; ) {
            var current = s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("counter"));
            String next = Integer.toString(Integer.parseInt(current.asUtf8String()) + 1);
            try {
              s3.client().putObject(b -> b.bucket(bucket).key("counter").ifMatch(current.response().eTag()),
                  RequestBody.fromString(next));
              done++;
            } catch (S3Exception e) {
              if (e.statusCode() != 412) {
                throw e;
              }
            }
          }
          return null;
        }));
      }
      for (var f : futures) {
        f.get(5, java.util.concurrent.TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("counter")).asUtf8String())
        .isEqualTo(Integer.toString(threads * perThread));
  }
}
