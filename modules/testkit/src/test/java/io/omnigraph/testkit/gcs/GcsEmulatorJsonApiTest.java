package io.omnigraph.testkit.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.ReadChannel;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.CopyWriter;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The emulator's JSON API, driven by the real google-cloud-storage client. */
class GcsEmulatorJsonApiTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private Storage storage;
  private String bucket;

  @BeforeEach
  void setUp() {
    storage = StorageOptions.newBuilder()
        .setHost(gcs.emulator().baseUrl())
        .setProjectId(gcs.emulator().projectId())
        .setCredentials(NoCredentials.getInstance())
        .setRetrySettings(StorageOptions.getDefaultRetrySettings().toBuilder().setMaxAttempts(1).build())
        .build().getService();
    bucket = gcs.emulator().createBucket();
  }

  @AfterEach
  void noUnsupportedRequests() throws Exception {
    storage.close();
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }

  private BlobInfo info(String name) {
    return BlobInfo.newBuilder(bucket, name).setContentType("text/plain").build();
  }

  @Test
  void bucketCreatedThroughTheClientCanBeReadBackAndNotCreatedTwice() {
    storage.create(BucketInfo.of("made-by-client"));
    assertThat(storage.get("made-by-client").getName()).isEqualTo("made-by-client");
    assertThatThrownBy(() -> storage.create(BucketInfo.of("made-by-client")))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(storage.get("no-such-bucket")).isNull();
  }

  @Test
  void multipartUploadRoundTripsBytesAndReportsAGeneration() {
    Blob b = storage.create(info("k1"), "hello".getBytes(UTF_8));
    assertThat(b.getGeneration()).isPositive();
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k1"))).isEqualTo("hello".getBytes(UTF_8));
    Blob meta = storage.get(BlobId.of(bucket, "k1"));
    assertThat(meta.getGeneration()).isEqualTo(b.getGeneration());
    assertThat(meta.getSize()).isEqualTo(5);
    assertThat(meta.getContentType()).isEqualTo("text/plain");
  }

  @Test
  void generationsStrictlyIncreaseAcrossWrites() {
    long last = 0;
    for (int i = 0; i < 20; i++) {
      long g = storage.create(info("k"), new byte[] {(byte) i}).getGeneration();
      assertThat(g).isGreaterThan(last);
      last = g;
    }
  }

  @Test
  void doesNotExistFailsWith412WhenTheObjectExistsAndLeavesItUnchanged() {
    storage.create(info("k"), "one".getBytes(UTF_8), Storage.BlobTargetOption.doesNotExist());
    assertThatThrownBy(() -> storage.create(info("k"), "two".getBytes(UTF_8), Storage.BlobTargetOption.doesNotExist()))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.getCode()).isEqualTo(412);
          assertThat(e.getReason()).isEqualTo("conditionNotMet");
        });
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k"))).isEqualTo("one".getBytes(UTF_8));
  }

  @Test
  void generationMatchSucceedsOnTheLiveGenerationAndFailsOnAStaleOneOrAnAbsentObject() {
    long g1 = storage.create(info("k"), "one".getBytes(UTF_8)).getGeneration();
    BlobInfo atG1 = BlobInfo.newBuilder(BlobId.of(bucket, "k", g1)).setContentType("text/plain").build();
    long g2 = storage.create(atG1, "two".getBytes(UTF_8), Storage.BlobTargetOption.generationMatch()).getGeneration();
    assertThat(g2).isGreaterThan(g1);
    assertThatThrownBy(() -> storage.create(atG1, "three".getBytes(UTF_8), Storage.BlobTargetOption.generationMatch()))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
    BlobInfo absent = BlobInfo.newBuilder(BlobId.of(bucket, "absent", g1)).build();
    assertThatThrownBy(() -> storage.create(absent, "x".getBytes(UTF_8), Storage.BlobTargetOption.generationMatch()))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k"))).isEqualTo("two".getBytes(UTF_8));
  }

  @Test
  void metagenerationMatchMismatchIs412() {
    storage.create(info("k"), "one".getBytes(UTF_8));
    assertThatThrownBy(() -> storage.readAllBytes(BlobId.of(bucket, "k"), Storage.BlobSourceOption.metagenerationMatch(7)))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k"), Storage.BlobSourceOption.metagenerationMatch(1)))
        .isEqualTo("one".getBytes(UTF_8));
  }

  @Test
  void missingObjectsAreNullOnGetAnd404NotFoundOnRead() {
    assertThat(storage.get(BlobId.of(bucket, "nope"))).isNull();
    assertThatThrownBy(() -> storage.readAllBytes(BlobId.of(bucket, "nope")))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.getCode()).isEqualTo(404);
          assertThat(e.getReason()).isEqualTo("notFound");
        });
  }

  @Test
  void readWithAStaleGenerationMatchIs412() {
    long g = storage.create(info("k"), "one".getBytes(UTF_8)).getGeneration();
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k"), Storage.BlobSourceOption.generationMatch(g)))
        .isEqualTo("one".getBytes(UTF_8));
    assertThatThrownBy(() -> storage.readAllBytes(BlobId.of(bucket, "k"), Storage.BlobSourceOption.generationMatch(g + 1)))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
  }

  @Test
  void resumableWriteInSeveralChunksRoundTrips() throws IOException {
    byte[] data = new byte[600 * 1024];
    new Random(42).nextBytes(data);
    try (WriteChannel w = storage.writer(info("big"), Storage.BlobWriteOption.doesNotExist())) {
      w.setChunkSize(256 * 1024);
      ByteBuffer buf = ByteBuffer.wrap(data);
      while (buf.hasRemaining()) {
        w.write(buf);
      }
    }
    assertThat(storage.readAllBytes(BlobId.of(bucket, "big"))).isEqualTo(data);
    long puts = gcs.emulator().requests().stream().filter(r -> r.startsWith("PUT /upload/")).count();
    assertThat(puts).isGreaterThanOrEqualTo(3);
  }

  @Test
  void resumableWriteOnAnExistingObjectWithDoesNotExistFails412() {
    storage.create(info("k"), "one".getBytes(UTF_8));
    assertThatThrownBy(() -> storage.createFrom(info("k"), new ByteArrayInputStream("two".getBytes(UTF_8)),
        Storage.BlobWriteOption.doesNotExist()))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
    assertThat(storage.readAllBytes(BlobId.of(bucket, "k"))).isEqualTo("one".getBytes(UTF_8));
  }

  @Test
  void readerSeekSendsARangeRequestAndReturnsTheTail() throws IOException {
    byte[] data = new byte[10_000];
    new Random(7).nextBytes(data);
    storage.create(info("r"), data);
    try (ReadChannel r = storage.reader(BlobId.of(bucket, "r"))) {
      r.seek(9_000);
      ByteBuffer buf = ByteBuffer.allocate(2_000);
      while (r.read(buf) >= 0 && buf.hasRemaining()) {
        // keep reading until the end of the object
      }
      buf.flip();
      byte[] tail = new byte[buf.remaining()];
      buf.get(tail);
      assertThat(tail).isEqualTo(java.util.Arrays.copyOfRange(data, 9_000, 10_000));
    }
  }

  @Test
  void flatListingPagesCountItemsAndResumeFromTheToken() {
    for (String n : List.of("dir/a", "dir/b", "dir/sub/c", "dir/sub/d", "dir/e", "other")) {
      storage.create(info(n), new byte[0]);
    }
    List<List<String>> pages = new ArrayList<>();
    var page = storage.list(bucket, Storage.BlobListOption.prefix("dir/"), Storage.BlobListOption.pageSize(2));
    while (page != null) {
      List<String> names = new ArrayList<>();
      page.getValues().forEach(b -> names.add(b.getName()));
      pages.add(names);
      page = page.hasNextPage() ? page.getNextPage() : null;
    }
    assertThat(pages).containsExactly(List.of("dir/a", "dir/b"), List.of("dir/e", "dir/sub/c"), List.of("dir/sub/d"));
  }

  @Test
  void delimitedListingFoldsSubdirectoriesIntoPrefixesThatShareThePageBudget() {
    for (String n : List.of("dir/a", "dir/b", "dir/sub/c", "dir/sub/d", "dir/e")) {
      storage.create(info(n), new byte[0]);
    }
    List<List<String>> pages = new ArrayList<>();
    var page = storage.list(bucket, Storage.BlobListOption.prefix("dir/"), Storage.BlobListOption.currentDirectory(),
        Storage.BlobListOption.pageSize(2));
    while (page != null) {
      List<String> names = new ArrayList<>();
      page.getValues().forEach(b -> names.add(b.getName() + (b.isDirectory() ? "(dir)" : "")));
      pages.add(names);
      page = page.hasNextPage() ? page.getNextPage() : null;
    }
    assertThat(pages).containsExactly(List.of("dir/a", "dir/b"), List.of("dir/e", "dir/sub/(dir)"));
  }

  @Test
  void listingOrderIsUtf8ByteOrder() {
    for (String n : List.of("é", "z", "A", "a", "~")) {
      storage.create(info(n), new byte[0]);
    }
    List<String> names = new ArrayList<>();
    storage.list(bucket).iterateAll().forEach(b -> names.add(b.getName()));
    assertThat(names).containsExactly("A", "a", "z", "~", "é");
  }

  @Test
  void deleteOfAMissingObjectIsFalseAndAStaleGenerationIs412() {
    assertThat(storage.delete(BlobId.of(bucket, "nope"))).isFalse();
    long g = storage.create(info("k"), "one".getBytes(UTF_8)).getGeneration();
    assertThatThrownBy(() -> storage.delete(BlobId.of(bucket, "k"), Storage.BlobSourceOption.generationMatch(g + 1)))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
    assertThat(storage.delete(BlobId.of(bucket, "k"), Storage.BlobSourceOption.generationMatch(g))).isTrue();
    assertThat(storage.get(BlobId.of(bucket, "k"))).isNull();
  }

  @Test
  void deleteOfANonLiveGenerationIsFalse() {
    long g = storage.create(info("k"), "one".getBytes(UTF_8)).getGeneration();
    assertThat(storage.delete(BlobId.of(bucket, "k", g - 1))).isFalse();
    assertThat(storage.delete(BlobId.of(bucket, "k", g))).isTrue();
  }

  @Test
  void copyRewritesIntoTheDestinationWithDestinationPreconditions() {
    storage.create(info("src"), "payload".getBytes(UTF_8));
    CopyWriter w = storage.copy(Storage.CopyRequest.of(bucket, "src", BlobId.of(bucket, "dst")));
    assertThat(w.getResult().getName()).isEqualTo("dst");
    assertThat(storage.readAllBytes(BlobId.of(bucket, "dst"))).isEqualTo("payload".getBytes(UTF_8));
    assertThatThrownBy(() -> storage.copy(Storage.CopyRequest.newBuilder().setSource(BlobId.of(bucket, "src"))
        .setTarget(BlobId.of(bucket, "dst"), Storage.BlobTargetOption.doesNotExist()).build()).getResult())
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(412));
  }

  @Test
  void oddObjectNamesRoundTripThroughPercentEncoding() {
    String name = "odd/with space+plus#?&é";
    storage.create(info(name), "x".getBytes(UTF_8));
    assertThat(storage.readAllBytes(BlobId.of(bucket, name))).isEqualTo("x".getBytes(UTF_8));
    assertThat(gcs.emulator().objectNames(bucket)).containsExactly(name);
  }

  @Test
  void deniedBucketAnswers403() {
    gcs.emulator().denyAccess(bucket, true);
    try {
      assertThatThrownBy(() -> storage.readAllBytes(BlobId.of(bucket, "k")))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    } finally {
      gcs.emulator().denyAccess(bucket, false);
    }
  }

  @Test
  void requiredAuthorizationAnswers401ToAnonymousRequests() {
    gcs.emulator().requireAuthorization(true);
    try {
      assertThatThrownBy(() -> storage.create(info("k"), new byte[1]))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getCode()).isEqualTo(401));
    } finally {
      gcs.emulator().requireAuthorization(false);
    }
  }
}
