package io.omnigraph.adapter.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gs:// adapter against the in-repo emulator, opened through ServiceLoader discovery. */
class GcsStorageAdapterTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private String bucket;
  private StorageAdapter adapter;

  static Map<String, String> emulatorOptions(GcsEmulator e) {
    return new HashMap<>(GcsAdapterOptions.forEmulator(e, "max-attempts", "1"));
  }

  @BeforeEach
  void open() throws Exception {
    bucket = gcs.emulator().createBucket();
    adapter = StorageAdapters.open("gs://" + bucket + "/root", emulatorOptions(gcs.emulator()));
  }

  @AfterEach
  void close() throws Exception {
    adapter.close();
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }

  private static void assertKind(ThrowingCallable call, Kind kind) {
    assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  @Test
  void putThenReadReturnsTheBytesAndTheGenerationAsVersion() throws Exception {
    String v = adapter.put("a/b.json", "{}".getBytes(UTF_8), WriteCondition.overwrite());
    assertThat(Long.parseLong(v)).isEqualTo(gcs.emulator().generation(bucket, "root/a/b.json"));
    Optional<StoredObject> read = adapter.readIfExists("a/b.json");
    assertThat(read).isPresent();
    assertThat(read.get().text()).isEqualTo("{}");
    assertThat(read.get().version()).isEqualTo(v);
  }

  @Test
  void readIfExistsIsExactlyOneRequestWhetherOrNotTheObjectExists() throws Exception {
    adapter.put("x", "1".getBytes(UTF_8), WriteCondition.overwrite());
    gcs.emulator().clearRequests();
    assertThat(adapter.readIfExists("x")).isPresent();
    assertThat(gcs.emulator().requests()).hasSize(1);
    gcs.emulator().clearRequests();
    assertThat(adapter.readIfExists("missing")).isEmpty();
    assertThat(gcs.emulator().requests()).hasSize(1);
  }

  @Test
  void readTextOfAMissingObjectIsNotFound() {
    assertKind(() -> adapter.readText("missing"), Kind.NOT_FOUND);
  }

  @Test
  void ifAbsentWritesOnceAndThenFailsWithPreconditionFailed() throws Exception {
    adapter.put("k", "one".getBytes(UTF_8), WriteCondition.ifAbsent());
    assertKind(() -> adapter.put("k", "two".getBytes(UTF_8), WriteCondition.ifAbsent()), Kind.PRECONDITION_FAILED);
    assertThat(adapter.readText("k")).isEqualTo("one");
  }

  @Test
  void ifMatchSucceedsOnTheCurrentVersionAndFailsOnAStaleOne() throws Exception {
    String v1 = adapter.put("k", "one".getBytes(UTF_8), WriteCondition.overwrite());
    String v2 = adapter.put("k", "two".getBytes(UTF_8), WriteCondition.ifMatch(v1));
    assertThat(v2).isNotEqualTo(v1);
    assertKind(() -> adapter.put("k", "three".getBytes(UTF_8), WriteCondition.ifMatch(v1)), Kind.PRECONDITION_FAILED);
    assertThat(adapter.readText("k")).isEqualTo("two");
  }

  @Test
  void ifMatchOnAnAbsentObjectOrAForeignTokenIsPreconditionFailed() {
    assertKind(() -> adapter.put("absent", "x".getBytes(UTF_8), WriteCondition.ifMatch("12345")), Kind.PRECONDITION_FAILED);
    assertKind(() -> adapter.put("absent", "x".getBytes(UTF_8), WriteCondition.ifMatch("\"etag\"")), Kind.PRECONDITION_FAILED);
    assertThat(gcs.emulator().objectNames(bucket)).isEmpty();
  }

  @Test
  void existsSeesObjectsButNotPrefixes() throws Exception {
    adapter.put("dir/file", new byte[0], WriteCondition.overwrite());
    assertThat(adapter.exists("dir/file")).isTrue();
    assertThat(adapter.exists("dir")).isFalse();
    assertThat(adapter.exists("nope")).isFalse();
  }

  @Test
  void deleteIsIdempotent() throws Exception {
    adapter.put("k", new byte[1], WriteCondition.overwrite());
    adapter.delete("k");
    adapter.delete("k");
    assertThat(adapter.exists("k")).isFalse();
  }

  @Test
  void listReturnsDirectChildrenSortedAcrossPagesAndSkipsPrefixesAndPlaceholders() throws Exception {
    try (StorageAdapter paged = StorageAdapters.open("gs://" + bucket + "/root",
        withOption(emulatorOptions(gcs.emulator()), "list-page-size", "2"))) {
      for (String p : List.of("d/e", "d/a", "d/c", "d/sub/x", "d/b", "d/é", "other")) {
        paged.put(p, new byte[0], WriteCondition.overwrite());
      }
      // A "directory" placeholder written by another tool (gsutil, the console) is not a child.
      writeRaw("root/d/", new byte[0]);
      gcs.emulator().clearRequests();
      assertThat(paged.list("d").toList()).containsExactly("d/a", "d/b", "d/c", "d/e", "d/é");
      long pages = gcs.emulator().requests().stream().filter(r -> r.startsWith("GET /storage/v1/b/")).count();
      assertThat(pages).isGreaterThanOrEqualTo(3);
      assertThat(paged.list("").toList()).containsExactly("other");
      assertThat(paged.list("missing").toList()).isEmpty();
    }
  }

  @Test
  void deletePrefixRemovesEverythingBelowAtAnyDepthAndNothingElse() throws Exception {
    for (String p : List.of("t/a", "t/b/c", "t/b/d/e", "tt", "u")) {
      adapter.put(p, new byte[0], WriteCondition.overwrite());
    }
    adapter.deletePrefix("t");
    assertThat(gcs.emulator().objectNames(bucket)).containsExactly("root/tt", "root/u");
    adapter.deletePrefix("nothing-here");
  }

  @Test
  void rootWithoutPrefixAddressesTheBucketRoot() throws Exception {
    try (StorageAdapter whole = StorageAdapters.open("gs://" + bucket, emulatorOptions(gcs.emulator()))) {
      whole.put("top", "x".getBytes(UTF_8), WriteCondition.overwrite());
      assertThat(gcs.emulator().objectNames(bucket)).contains("top");
      assertThat(whole.list("").toList()).containsExactly("top");
    }
  }

  @Test
  void invalidPathsAreRefusedWithoutARequest() {
    gcs.emulator().clearRequests();
    assertKind(() -> adapter.put("a//b", new byte[0], WriteCondition.overwrite()), Kind.INVALID_PATH);
    assertKind(() -> adapter.readIfExists("../x"), Kind.INVALID_PATH);
    assertKind(() -> adapter.readIfExists("x#12"), Kind.INVALID_PATH);
    assertThat(gcs.emulator().requests()).isEmpty();
  }

  @Test
  void missingBucketIsConfigurationAtOpen() {
    assertKind(() -> StorageAdapters.open("gs://no-such-bucket/p", emulatorOptions(gcs.emulator())), Kind.CONFIGURATION);
  }

  @Test
  void unreachableEndpointIsConfiguration() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertKind(() -> StorageAdapters.open("gs://" + bucket,
        withOption(emulatorOptions(gcs.emulator()), "endpoint", "http://127.0.0.1:" + port)), Kind.CONFIGURATION);
  }

  @Test
  void unknownOrMalformedOptionsAreConfiguration() {
    assertKind(() -> StorageAdapters.open("gs://" + bucket, withOption(emulatorOptions(gcs.emulator()), "regoin", "x")),
        Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open("gs://" + bucket,
        withOption(emulatorOptions(gcs.emulator()), "list-page-size", "0")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open("gs://" + bucket,
        withOption(emulatorOptions(gcs.emulator()), "endpoint", "127.0.0.1:80")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open("gs://" + bucket,
        withOption(emulatorOptions(gcs.emulator()), "credentials", "/no/such/key.json")), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open("gs:///nobucket", emulatorOptions(gcs.emulator())), Kind.CONFIGURATION);
  }

  @Test
  void refusedCredentialsAre401AndPermissionAtOpen() {
    gcs.emulator().requireAuthorization(true);
    try {
      assertKind(() -> StorageAdapters.open("gs://" + bucket, emulatorOptions(gcs.emulator())), Kind.PERMISSION);
    } finally {
      gcs.emulator().requireAuthorization(false);
    }
  }

  @Test
  void forbiddenBucketIsPermissionOnEveryOperationNeverNotFoundOrFalse() {
    gcs.emulator().denyAccess(bucket, true);
    try {
      assertKind(() -> adapter.readIfExists("k"), Kind.PERMISSION);
      assertKind(() -> adapter.exists("k"), Kind.PERMISSION);
      assertKind(() -> adapter.put("k", new byte[0], WriteCondition.ifAbsent()), Kind.PERMISSION);
      assertKind(() -> adapter.delete("k"), Kind.PERMISSION);
      assertKind(() -> adapter.list("").toList(), Kind.PERMISSION);
    } finally {
      gcs.emulator().denyAccess(bucket, false);
    }
  }

  @Test
  void aBucketDeletedAfterOpenIsConfigurationNotNotFound() throws Exception {
    String b2 = gcs.emulator().createBucket();
    try (StorageAdapter a2 = StorageAdapters.open("gs://" + b2, emulatorOptions(gcs.emulator()))) {
      deleteBucket(b2);
      assertKind(() -> a2.readIfExists("k"), Kind.CONFIGURATION);
      assertKind(() -> a2.put("k", new byte[0], WriteCondition.overwrite()), Kind.CONFIGURATION);
      assertKind(() -> a2.list("").toList(), Kind.CONFIGURATION);
    }
  }

  @Test
  void lanceLocationPointsObjectStoreAtTheSameEndpointWithoutOAuth() throws Exception {
    LanceLocation loc = adapter.lanceLocation("tables/person");
    assertThat(loc.uri()).isEqualTo("gs://" + bucket + "/root/tables/person");
    assertThat(loc.storageOptions()).containsEntry("allow_http", "true");
    assertThat(loc.storageOptions().get("google_service_account_key"))
        .contains("\"gcs_base_url\":\"" + gcs.emulator().baseUrl() + "\"")
        .contains("\"disable_oauth\":true");
    assertKind(() -> adapter.lanceLocation("/abs"), Kind.INVALID_PATH);
  }

  @Test
  void capabilitiesReportTheSchemeAndPageSize() {
    assertThat(adapter.capabilities().scheme()).isEqualTo("gs");
    assertThat(adapter.capabilities().localFilesystem()).isFalse();
    assertThat(adapter.capabilities().listPageSize()).isEqualTo(1000);
  }

  static Map<String, String> withOption(Map<String, String> o, String k, String v) {
    Map<String, String> copy = new HashMap<>(o);
    copy.put(k, v);
    return copy;
  }

  private void writeRaw(String name, byte[] data) {
    gcs.emulator().putObject(bucket, name, data);
  }

  private void deleteBucket(String b) {
    gcs.emulator().deleteBucket(b);
  }
}
