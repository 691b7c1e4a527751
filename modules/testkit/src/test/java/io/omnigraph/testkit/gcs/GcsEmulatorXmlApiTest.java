package io.omnigraph.testkit.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The emulator's XML API, with the requests the Rust object_store crate sends for {@code gs://}
 * (object names fully percent-encoded, {@code x-goog-if-generation-match}, list-type=2). The Lance
 * smoke test in adapter-gcs drives the same routes through the real crate.
 */
class GcsEmulatorXmlApiTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private final HttpClient http = HttpClient.newHttpClient();
  private String bucket;

  @BeforeEach
  void setUp() {
    bucket = gcs.emulator().createBucket();
  }

  @AfterEach
  void noUnsupportedRequests() {
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }

  /** object_store encodes every non-alphanumeric byte of the object name, including '/'. */
  private URI object(String name, String query) {
    return URI.create(gcs.emulator().baseUrl() + "/" + bucket + "/" + JsonApi.pathEscape(name).replace("-", "%2D")
        .replace(".", "%2E").replace("_", "%5F") + (query == null ? "" : "?" + query));
  }

  private HttpResponse<byte[]> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.header("Authorization", "Bearer ").build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> put(String name, String body, String ifGenerationMatch) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(object(name, null)).PUT(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/octet-stream");
    if (ifGenerationMatch != null) {
      b.header("x-goog-if-generation-match", ifGenerationMatch);
    }
    return send(b);
  }

  @Test
  void putReturnsEtagAndGenerationAndGetReturnsTheBytesWithMetadataHeaders() throws Exception {
    HttpResponse<byte[]> p = put("_versions/1.manifest", "hello", null);
    assertThat(p.statusCode()).isEqualTo(200);
    assertThat(p.headers().firstValue("ETag")).hasValue("\"5d41402abc4b2a76b9719d911017c592\"");
    String gen = p.headers().firstValue("x-goog-generation").orElseThrow();
    HttpResponse<byte[]> g = send(HttpRequest.newBuilder(object("_versions/1.manifest", null)).GET());
    assertThat(g.statusCode()).isEqualTo(200);
    assertThat(new String(g.body(), UTF_8)).isEqualTo("hello");
    assertThat(g.headers().firstValue("x-goog-generation")).hasValue(gen);
    assertThat(g.headers().firstValue("Last-Modified")).isPresent();
    assertThat(g.headers().firstValue("ETag")).hasValue("\"5d41402abc4b2a76b9719d911017c592\"");
    assertThat(gcs.emulator().objectNames(bucket)).containsExactly("_versions/1.manifest");
  }

  @Test
  void headCarriesTheObjectSizeAsContentLength() throws Exception {
    put("a.bin", "0123456789", null);
    HttpResponse<byte[]> h = send(HttpRequest.newBuilder(object("a.bin", null))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertThat(h.statusCode()).isEqualTo(200);
    assertThat(h.headers().firstValue("Content-Length")).hasValue("10");
    assertThat(h.body()).isEmpty();
  }

  @Test
  void missingObjectIs404NoSuchKey() throws Exception {
    HttpResponse<byte[]> g = send(HttpRequest.newBuilder(object("nope", null)).GET());
    assertThat(g.statusCode()).isEqualTo(404);
    assertThat(new String(g.body(), UTF_8)).contains("<Code>NoSuchKey</Code>");
    HttpResponse<byte[]> h = send(HttpRequest.newBuilder(object("nope", null))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertThat(h.statusCode()).isEqualTo(404);
  }

  @Test
  void rangeRequestsAnswer206WithContentRange() throws Exception {
    put("r", "0123456789", null);
    HttpResponse<byte[]> bounded = send(HttpRequest.newBuilder(object("r", null)).header("Range", "bytes=2-4").GET());
    assertThat(bounded.statusCode()).isEqualTo(206);
    assertThat(new String(bounded.body(), UTF_8)).isEqualTo("234");
    assertThat(bounded.headers().firstValue("Content-Range")).hasValue("bytes 2-4/10");
    HttpResponse<byte[]> suffix = send(HttpRequest.newBuilder(object("r", null)).header("Range", "bytes=-3").GET());
    assertThat(new String(suffix.body(), UTF_8)).isEqualTo("789");
    HttpResponse<byte[]> offset = send(HttpRequest.newBuilder(object("r", null)).header("Range", "bytes=8-").GET());
    assertThat(new String(offset.body(), UTF_8)).isEqualTo("89");
    HttpResponse<byte[]> beyond = send(HttpRequest.newBuilder(object("r", null)).header("Range", "bytes=10-").GET());
    assertThat(beyond.statusCode()).isEqualTo(416);
  }

  @Test
  void createOnlyPutFails412WhenTheObjectExists() throws Exception {
    assertThat(put("k", "one", "0").statusCode()).isEqualTo(200);
    HttpResponse<byte[]> second = put("k", "two", "0");
    assertThat(second.statusCode()).isEqualTo(412);
    assertThat(new String(second.body(), UTF_8)).contains("PreconditionFailed");
    assertThat(gcs.emulator().objectBytes(bucket, "k")).isEqualTo("one".getBytes(UTF_8));
  }

  @Test
  void conditionalUpdateNeedsTheLiveGeneration() throws Exception {
    String g1 = put("k", "one", null).headers().firstValue("x-goog-generation").orElseThrow();
    assertThat(put("k", "two", g1).statusCode()).isEqualTo(200);
    assertThat(put("k", "three", g1).statusCode()).isEqualTo(412);
  }

  @Test
  void ifNoneMatchWithTheCurrentEtagIs304AndIfMatchWithAnotherIs412() throws Exception {
    String etag = put("k", "one", null).headers().firstValue("ETag").orElseThrow();
    HttpResponse<byte[]> notModified = send(HttpRequest.newBuilder(object("k", null)).header("If-None-Match", etag).GET());
    assertThat(notModified.statusCode()).isEqualTo(304);
    HttpResponse<byte[]> failed = send(HttpRequest.newBuilder(object("k", null)).header("If-Match", "\"other\"").GET());
    assertThat(failed.statusCode()).isEqualTo(412);
  }

  @Test
  void deleteRemovesAndAMissingObjectIs404() throws Exception {
    put("k", "one", null);
    assertThat(send(HttpRequest.newBuilder(object("k", null)).DELETE()).statusCode()).isEqualTo(204);
    assertThat(send(HttpRequest.newBuilder(object("k", null)).DELETE()).statusCode()).isEqualTo(404);
  }

  @Test
  void copyWithCreateOnlyHeaderFails412OnAnExistingDestination() throws Exception {
    put("src", "payload", null);
    String source = bucket + "/" + JsonApi.pathEscape("src");
    HttpResponse<byte[]> ok = send(HttpRequest.newBuilder(object("dst", null)).PUT(HttpRequest.BodyPublishers.noBody())
        .header("x-goog-copy-source", source).header("x-goog-if-generation-match", "0"));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(gcs.emulator().objectBytes(bucket, "dst")).isEqualTo("payload".getBytes(UTF_8));
    HttpResponse<byte[]> again = send(HttpRequest.newBuilder(object("dst", null)).PUT(HttpRequest.BodyPublishers.noBody())
        .header("x-goog-copy-source", source).header("x-goog-if-generation-match", "0"));
    assertThat(again.statusCode()).isEqualTo(412);
  }

  @Test
  void multipartUploadAssemblesPartsInOrder() throws Exception {
    HttpResponse<byte[]> init = send(HttpRequest.newBuilder(object("data/f.lance", "uploads="))
        .POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(init.statusCode()).isEqualTo(200);
    Matcher m = Pattern.compile("<UploadId>(.*)</UploadId>").matcher(new String(init.body(), UTF_8));
    assertThat(m.find()).isTrue();
    String id = m.group(1);
    List<String> etags = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<byte[]> part = send(HttpRequest.newBuilder(object("data/f.lance", "partNumber=" + i + "&uploadId=" + id))
          .PUT(HttpRequest.BodyPublishers.ofString("part" + i)));
      assertThat(part.statusCode()).isEqualTo(200);
      etags.add(part.headers().firstValue("ETag").orElseThrow());
    }
    assertThat(gcs.emulator().objectNames(bucket)).isEmpty();
    StringBuilder xml = new StringBuilder("<CompleteMultipartUpload>");
    for (int i = 0; i < 3; i++) {
      xml.append("<Part><ETag>").append(etags.get(i)).append("</ETag><PartNumber>").append(i + 1)
          .append("</PartNumber></Part>");
    }
    xml.append("</CompleteMultipartUpload>");
    HttpResponse<byte[]> done = send(HttpRequest.newBuilder(object("data/f.lance", "uploadId=" + id))
        .POST(HttpRequest.BodyPublishers.ofString(xml.toString())));
    assertThat(done.statusCode()).isEqualTo(200);
    assertThat(new String(done.body(), UTF_8)).contains("<ETag>");
    assertThat(done.headers().firstValue("x-goog-generation")).isPresent();
    assertThat(gcs.emulator().objectBytes(bucket, "data/f.lance")).isEqualTo("part1part2part3".getBytes(UTF_8));
  }

  @Test
  void listTypeTwoPagesWithContinuationTokensAndFoldsCommonPrefixes() throws Exception {
    for (String n : List.of("dir/a", "dir/b", "dir/sub/c", "dir/sub/d", "dir/e")) {
      put(n, "", null);
    }
    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      String q = "list-type=2&delimiter=%2F&prefix=dir%2F&max-keys=2" + (token == null ? "" : "&continuation-token=" + token);
      HttpResponse<byte[]> l = send(HttpRequest.newBuilder(URI.create(gcs.emulator().baseUrl() + "/" + bucket + "?" + q)).GET());
      assertThat(l.statusCode()).isEqualTo(200);
      String body = new String(l.body(), UTF_8);
      Matcher keys = Pattern.compile("<Key>([^<]*)</Key>|<Prefix>(dir/[^<]+)</Prefix>").matcher(body);
      while (keys.find()) {
        seen.add(keys.group(1) != null ? keys.group(1) : keys.group(2) + "(prefix)");
      }
      Matcher t = Pattern.compile("<NextContinuationToken>([^<]*)</NextContinuationToken>").matcher(body);
      token = t.find() ? t.group(1) : null;
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(2);
    assertThat(seen).containsExactly("dir/a", "dir/b", "dir/e", "dir/sub/(prefix)");
  }

  @Test
  void listOfAMissingBucketIs404NoSuchBucket() throws Exception {
    HttpResponse<byte[]> l = send(HttpRequest.newBuilder(URI.create(gcs.emulator().baseUrl() + "/no-such?list-type=2")).GET());
    assertThat(l.statusCode()).isEqualTo(404);
    assertThat(new String(l.body(), UTF_8)).contains("NoSuchBucket");
  }

  @Test
  void aRouteTheEmulatorDoesNotServeIs501AndRecorded() throws Exception {
    HttpResponse<byte[]> r = send(HttpRequest.newBuilder(URI.create(gcs.emulator().baseUrl() + "/storage/v1/projects/x"))
        .GET());
    assertThat(r.statusCode()).isEqualTo(501);
    assertThat(gcs.emulator().unsupportedRequests()).hasSize(1);
    // This one is expected: clear it so the after-each check stays meaningful for the others.
    gcs.emulator().clearUnsupportedRequests();
  }
}
