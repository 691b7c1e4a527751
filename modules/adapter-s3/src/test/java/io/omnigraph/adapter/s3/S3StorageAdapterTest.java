package io.omnigraph.adapter.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.RecordedRequest;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/** The adapter's behaviour against s3proxy, every request counted through a FaultProxy. */
class S3StorageAdapterTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  private S3ProxyServer server;
  private FaultProxy proxy;
  private String bucket;
  private StorageAdapter adapter;

  @BeforeEach
  void open() throws IOException {
    server = S3.server();
    bucket = server.createBucket();
    proxy = FaultProxy.start(server.endpoint());
    adapter = S3Fixture.open(bucket, "graphs/g1", proxy.endpoint(), "list-page-size", "2");
    proxy.clearLog();
  }

  @AfterEach
  void close() throws StorageException {
    adapter.close();
    assertThat(proxy.problems()).isEmpty();
    proxy.close();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private void rawPut(String key, String content) {
    server.client().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(content));
  }

  @Test
  void putThenReadReturnsTheBytesAndTheQuotedEtagAsVersion() throws StorageException {
    String v = adapter.put("a/b.json", utf8("{\"x\":1}"), WriteCondition.overwrite());
    assertThat(v).matches("\"[0-9a-f]{32}\"");
    Optional<StoredObject> read = adapter.readIfExists("a/b.json");
    assertThat(read).hasValueSatisfying(o -> {
      assertThat(o.text()).isEqualTo("{\"x\":1}");
      assertThat(o.version()).isEqualTo(v);
    });
    // stored under the root's prefix
    assertThat(server.client().getObjectAsBytes(b -> b.bucket(bucket).key("graphs/g1/a/b.json")).asUtf8String())
        .isEqualTo("{\"x\":1}");
  }

  @Test
  void readTextIfExistsOfAMissingObjectIsEmptyAfterExactlyOneGetObject() throws StorageException {
    assertThat(adapter.readTextIfExists("missing.json")).isEmpty();
    assertThat(proxy.requests()).singleElement().satisfies(r -> {
      assertThat(r.method()).isEqualTo("GET");
      assertThat(r.path()).isEqualTo("/" + bucket + "/graphs/g1/missing.json");
      assertThat(r.status()).isEqualTo(404);
    });
  }

  @Test
  void readTextIfExistsOfAnExistingObjectIsOneGetObject() throws StorageException {
    adapter.put("k", utf8("v"), WriteCondition.overwrite());
    proxy.clearLog();
    assertThat(adapter.readTextIfExists("k")).contains("v");
    assertThat(proxy.requests()).extracting(RecordedRequest::method).containsExactly("GET");
  }

  @Test
  void ifAbsentSendsIfNoneMatchStarAndFailsWhenTheObjectExists() throws StorageException {
    String first = adapter.put("lock", utf8("one"), WriteCondition.ifAbsent());
    assertThatThrownBy(() -> adapter.put("lock", utf8("two"), WriteCondition.ifAbsent()))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    assertThat(adapter.readIfExists("lock")).hasValueSatisfying(o -> {
      assertThat(o.text()).isEqualTo("one");
      assertThat(o.version()).isEqualTo(first);
    });
    assertThat(proxy.requests("PUT", ".*")).allSatisfy(r -> assertThat(r.header("If-None-Match")).contains("*"))
        .extracting(RecordedRequest::status).containsExactly(200, 412);
  }

  @Test
  void ifMatchWithTheCurrentEtagReplacesTheObjectAndSendsIfMatch() throws StorageException {
    String v1 = adapter.put("m", utf8("1"), WriteCondition.overwrite());
    String v2 = adapter.put("m", utf8("2"), WriteCondition.ifMatch(v1));
    assertThat(v2).isNotEqualTo(v1);
    assertThat(adapter.readTextIfExists("m")).contains("2");
    assertThat(proxy.requests("PUT", ".*").get(1).header("If-Match")).contains(v1);
  }

  @Test
  void ifMatchWithAStaleEtagFailsAndKeepsTheObject() throws StorageException {
    String v1 = adapter.put("m", utf8("1"), WriteCondition.overwrite());
    adapter.put("m", utf8("2"), WriteCondition.overwrite());
    assertThatThrownBy(() -> adapter.put("m", utf8("3"), WriteCondition.ifMatch(v1)))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    assertThat(adapter.readTextIfExists("m")).contains("2");
  }

  @Test
  void ifMatchOnAnAbsentObjectIsAPreconditionFailureNotNotFound() throws StorageException {
    // S3 (and s3proxy) answer 404 NoSuchKey to If-Match on a missing key; the SPI says
    // "stale token or absent object: PRECONDITION_FAILED", so the adapter maps that 404
    assertThatThrownBy(() -> adapter.put("absent", utf8("x"), WriteCondition.ifMatch("\"0123\"")))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    assertThat(proxy.requests("PUT", ".*")).extracting(RecordedRequest::status).containsExactly(404);
    assertThat(adapter.exists("absent")).isFalse();
  }

  @Test
  void existsIsTrueOnlyForObjectsNotForDirectories() throws StorageException {
    adapter.put("dir/file", utf8("x"), WriteCondition.overwrite());
    assertThat(adapter.exists("dir/file")).isTrue();
    assertThat(adapter.exists("dir")).isFalse();
    assertThat(adapter.exists("nope")).isFalse();
  }

  @Test
  void deletingAMissingObjectSucceeds() throws StorageException {
    adapter.delete("never-written");
    assertThat(proxy.requests()).singleElement().satisfies(r -> {
      assertThat(r.method()).isEqualTo("DELETE");
      assertThat(r.status()).isEqualTo(204);
    });
  }

  @Test
  void deleteRemovesTheObject() throws StorageException {
    adapter.put("d", utf8("x"), WriteCondition.overwrite());
    adapter.delete("d");
    assertThat(adapter.readIfExists("d")).isEmpty();
  }

  @Test
  void listReturnsOnlyDirectChildrenSortedByUtf8AcrossPages() throws StorageException {
    for (String p : List.of("dir/b", "dir/a", "dir/é", "dir/z", "dir/sub/c", "dir/sub/d", "dir/Z", "other/x", "dir0")) {
      adapter.put(p, utf8(p), WriteCondition.overwrite());
    }
    proxy.clearLog();
    assertThat(adapter.list("dir").toList()).containsExactly("dir/Z", "dir/a", "dir/b", "dir/z", "dir/é");
    // page size 2, keys and common prefixes share it: several pages, each with delimiter '/'
    List<RecordedRequest> pages = proxy.requests("GET", "/" + bucket + "\\?.*list-type=2.*");
    assertThat(pages).hasSizeGreaterThanOrEqualTo(3)
        .allSatisfy(r -> assertThat(r.query()).contains("delimiter=%2F").contains("max-keys=2")
            .contains("prefix=graphs%2Fg1%2Fdir%2F"));
  }

  @Test
  void listKeepsFetchingPastPagesThatHoldOnlySubdirectories() throws StorageException {
    // with page size 2 the first two pages are [s1/, s2/] and [s3/, s4/]: no entries, but truncated
    for (String p : List.of("d/s1/x", "d/s2/x", "d/s3/x", "d/s4/x", "d/z")) {
      adapter.put(p, utf8(p), WriteCondition.overwrite());
    }
    proxy.clearLog();
    assertThat(adapter.list("d").toList()).containsExactly("d/z");
    assertThat(proxy.requests("GET", ".*list-type=2.*")).hasSize(3);
  }

  @Test
  void listOfTheRootAndOfAMissingDirectory() throws StorageException {
    adapter.put("top", utf8("t"), WriteCondition.overwrite());
    adapter.put("x/y", utf8("y"), WriteCondition.overwrite());
    assertThat(adapter.list("").toList()).containsExactly("top");
    assertThat(adapter.list("nothing/here").toList()).isEmpty();
  }

  @Test
  void listSkipsTempNamesDirectoryMarkersAndKeysThatAreNotLegalPaths() throws StorageException {
    rawPut("graphs/g1/dir/real", "r");
    rawPut("graphs/g1/dir/real#123", "temp");
    rawPut("graphs/g1/dir/", "marker");
    rawPut("graphs/g1/dir/back\\slash", "b");
    assertThat(adapter.list("dir").toList()).containsExactly("dir/real");
  }

  @Test
  void listIsLazyAndItsEntriesAreUsablePaths() throws StorageException {
    for (int i = 0; i < 5; i++) {
      adapter.put("l/k" + i, utf8("v" + i), WriteCondition.overwrite());
    }
    proxy.clearLog();
    try (ObjectListing listing = adapter.list("l")) {
      assertThat(proxy.count("GET", ".*list-type=2.*")).isEqualTo(1); // only the first page so far
      String first = listing.next();
      assertThat(adapter.readTextIfExists(first)).contains("v0");
    }
  }

  @Test
  void deletePrefixRemovesEverythingBelowAcrossPagesAndNothingElse() throws StorageException {
    for (String p : List.of("t/a", "t/b", "t/sub/c", "t/sub/deeper/d", "t/e", "t2/keep", "keep")) {
      adapter.put(p, utf8(p), WriteCondition.overwrite());
    }
    rawPut("graphs/g1/t/temp#42", "residue");
    adapter.deletePrefix("t");
    assertThat(server.client().listObjectsV2(b -> b.bucket(bucket).prefix("graphs/g1/")).contents())
        .extracting(o -> o.key()).containsExactly("graphs/g1/keep", "graphs/g1/t2/keep");
    adapter.deletePrefix("t"); // empty now: still fine
    adapter.deletePrefix("never/existed");
  }

  @Test
  void invalidPathsAreRefusedBeforeAnyRequest() {
    for (String bad : List.of("", "/abs", "a//b", "a/../b", "x#12", "back\\slash", "ctl\u0001")) {
      assertThatThrownBy(() -> adapter.readIfExists(bad))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_PATH));
      assertThatThrownBy(() -> adapter.put(bad, new byte[0], WriteCondition.overwrite()))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_PATH));
    }
    assertThat(proxy.requests()).isEmpty();
  }

  @Test
  void lanceLocationPointsLanceAtTheSameBucketEndpointAndKeys() throws StorageException {
    LanceLocation loc = adapter.lanceLocation("tables/person");
    assertThat(loc.uri()).isEqualTo("s3://" + bucket + "/graphs/g1/tables/person");
    assertThat(loc.storageOptions()).isEqualTo(Map.of(
        "aws_endpoint", proxy.endpoint().toString(),
        "aws_allow_http", "true",
        "aws_region", "us-east-1",
        "aws_virtual_hosted_style_request", "false",
        "aws_access_key_id", S3ProxyServer.ACCESS_KEY_ID,
        "aws_secret_access_key", S3ProxyServer.SECRET_ACCESS_KEY));
  }

  @Test
  void capabilitiesDescribeAPagedObjectStore() {
    assertThat(adapter.capabilities().scheme()).isEqualTo("s3");
    assertThat(adapter.capabilities().localFilesystem()).isFalse();
    assertThat(adapter.capabilities().listPageSize()).isEqualTo(2);
  }

  @Test
  void aRootWithoutPrefixAddressesKeysAtTheBucketTop() throws StorageException {
    try (StorageAdapter top = S3Fixture.open(bucket, "", server.endpoint())) {
      top.put("k", utf8("top"), WriteCondition.overwrite());
      assertThat(server.client().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String()).isEqualTo("top");
      assertThat(top.lanceLocation("ds").uri()).isEqualTo("s3://" + bucket + "/ds");
    }
  }

  @Test
  void listingIsInUtf8OrderEvenWhereS3proxyListsInUtf16Order() throws StorageException {
    String replacement = "\uFFFD"; // UTF-8 EF BF BD
    String emoji = "\uD83D\uDE00"; // U+1F600, UTF-8 F0 9F 98 80; UTF-16 D83D DE00 sorts before FFFD
    adapter.put("u/" + replacement, utf8("r"), WriteCondition.overwrite());
    adapter.put("u/" + emoji, utf8("e"), WriteCondition.overwrite());
    // the emulator's own order differs from S3's (UTF-8 binary) ...
    assertThat(server.client().listObjectsV2(b -> b.bucket(bucket).prefix("graphs/g1/u/")).contents())
        .extracting(o -> o.key()).containsExactly("graphs/g1/u/" + emoji, "graphs/g1/u/" + replacement);
    // ... and the adapter normalizes to S3's
    assertThat(adapter.list("u").toList()).containsExactly("u/" + replacement, "u/" + emoji);
  }
}
