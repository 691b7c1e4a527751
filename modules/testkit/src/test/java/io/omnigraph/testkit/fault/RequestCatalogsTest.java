package io.omnigraph.testkit.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The per-backend request catalogs against request targets as the SDKs send them (taken from
 * FaultProxy logs of the adapters' runs), and against their near misses.
 */
class RequestCatalogsTest {
  private static boolean matches(String regex, String target) {
    return Pattern.compile(regex).matcher(target).matches();
  }

  @Test
  void s3ObjectsListingsAndPrefixes() {
    S3Requests b = S3Requests.in("bkt-1");
    assertThat(matches(b.object("p/k"), "/bkt-1/p/k")).isTrue();
    assertThat(matches(b.object("p/k"), "/bkt-1/p/k?x-id=PutObject")).isTrue();
    assertThat(matches(b.object("p/k"), "/bkt-1/p/k2")).isFalse();
    assertThat(matches(b.object("p/k"), "/bkt-2/p/k")).isFalse();
    assertThat(matches(b.objectIn("g/__recovery/"), "/bkt-1/g/__recovery/01.json?x-id=PutObject")).isTrue();
    assertThat(matches(b.objectIn("g/__recovery/"), "/bkt-1/g/__recovery/sub/01.json")).isFalse();
    assertThat(matches(b.objectIn("g/__recovery/"), "/bkt-1/g/nodes/01.lance")).isFalse();
    assertThat(matches(b.anyObject(), "/bkt-1/a/b/c?versionId=1")).isTrue();
    assertThat(matches(b.anyObject(), "/bkt-1?list-type=2")).isFalse();
    assertThat(matches(b.listing(), "/bkt-1?list-type=2&prefix=x%2F")).isTrue();
    assertThat(matches(b.listing(), "/bkt-1/?max-keys=2&list-type=2")).isTrue();
    assertThat(matches(b.listing(), "/bkt-1?list-type=20")).isFalse();
    assertThat(matches(b.listing(), "/bkt-1/k?list-type=2")).isFalse();
    String rec = b.listing("g/__recovery/");
    assertThat(matches(rec, "/bkt-1?list-type=2&prefix=g%2F__recovery%2F")).isTrue();
    assertThat(matches(rec, "/bkt-1?prefix=g/__recovery/&list-type=2&max-keys=100")).isTrue();
    assertThat(matches(rec, "/bkt-1?list-type=2&prefix=g%2f__recovery%2f")).isTrue();
    assertThat(matches(rec, "/bkt-1?list-type=2&prefix=g%2F")).isFalse();
    assertThat(matches(rec, "/bkt-1?list-type=2&prefix=g%2F__recovery%2Fx")).isFalse();
    S3Requests any = S3Requests.anyBucket();
    assertThat(matches(any.anyObject(), "/other/k")).isTrue();
    assertThat(matches(any.listing(), "/other?list-type=2")).isTrue();
  }

  @Test
  void gcsUploadsObjectsDownloadsAndListings() {
    GcsRequests b = GcsRequests.in("bkt");
    assertThat(matches(b.upload(), "/upload/storage/v1/b/bkt/o?uploadType=multipart")).isTrue();
    assertThat(matches(b.creatingUpload(), "/upload/storage/v1/b/bkt/o?uploadType=multipart&ifGenerationMatch=0"))
        .isTrue();
    assertThat(matches(b.creatingUpload(), "/upload/storage/v1/b/bkt/o?ifGenerationMatch=07&uploadType=multipart"))
        .isFalse();
    assertThat(matches(b.creatingUpload(), "/upload/storage/v1/b/bkt/o?uploadType=multipart")).isFalse();
    assertThat(matches(b.object("g/__recovery/a.json"), "/storage/v1/b/bkt/o/g%2F__recovery%2Fa.json")).isTrue();
    assertThat(matches(b.objectIn("g/__recovery/"), "/storage/v1/b/bkt/o/g%2f__recovery%2fa.json?alt=json")).isTrue();
    assertThat(matches(b.objectIn("g/__recovery/"), "/storage/v1/b/bkt/o/g%2Fnodes%2Fa.json")).isFalse();
    assertThat(matches(b.downloadIn("g/__recovery/"), "/download/storage/v1/b/bkt/o/g%2F__recovery%2Fa.json?alt=media"))
        .isTrue();
    assertThat(matches(b.downloadIn("g/__recovery/"), "/storage/v1/b/bkt/o/g%2F__recovery%2Fa.json")).isFalse();
    assertThat(matches(b.listing(), "/storage/v1/b/bkt/o?prefix=x&maxResults=2")).isTrue();
    assertThat(matches(b.listing("g/__recovery/"), "/storage/v1/b/bkt/o?maxResults=10&prefix=g%2F__recovery%2F"))
        .isTrue();
    assertThat(matches(b.listing("g/__recovery/"), "/storage/v1/b/bkt/o?prefix=g%2F")).isFalse();
    GcsRequests any = GcsRequests.anyBucket();
    assertThat(matches(any.anyObject(), "/storage/v1/b/x/o/a%2Fb")).isTrue();
    assertThat(matches(any.anyObject(), "/storage/v1/b/x/o/a/b")).isFalse();
    assertThat(matches(any.anyDownload(), "/download/storage/v1/b/x/o/a%2Fb?alt=media")).isTrue();
    assertThat(matches(any.upload(), "/b/x/o/a")).isFalse();
  }

  @Test
  void azureBlobsListingsAndContainerProperties() {
    AzureRequests c = AzureRequests.in("devstoreaccount1", "c1");
    assertThat(matches(c.blob("root/k"), "/devstoreaccount1/c1/root%2Fk")).isTrue();
    assertThat(matches(c.blob("root/k"), "/devstoreaccount1/c1/root%2Fk?comp=block")).isTrue();
    assertThat(matches(c.blob("root/k"), "/devstoreaccount1/c1/root%2Fk2")).isFalse();
    assertThat(matches(c.blob("root/k"), "/devstoreaccount1/c2/root%2Fk")).isFalse();
    assertThat(matches(c.blobIn("g/__recovery/"), "/devstoreaccount1/c1/g%2F__recovery%2Fa.json")).isTrue();
    assertThat(matches(c.blobIn("g/__recovery/"), "/devstoreaccount1/c1/g%2Fnodes%2Fa")).isFalse();
    assertThat(matches(c.listing(), "/devstoreaccount1/c1?restype=container&comp=list&prefix=x")).isTrue();
    assertThat(matches(c.listing(), "/devstoreaccount1/c1?restype=container")).isFalse();
    assertThat(matches(c.listing("g/__recovery/"), "/devstoreaccount1/c1?restype=container&comp=list&prefix=g/__recovery/"))
        .isTrue();
    assertThat(matches(c.listing("g/__recovery/"), "/devstoreaccount1/c1?restype=container&comp=list&prefix=g/")).isFalse();
    assertThat(matches(c.containerProperties(), "/devstoreaccount1/c1?restype=container")).isTrue();
    assertThat(matches(c.containerProperties(), "/devstoreaccount1/c1?restype=container&comp=list")).isFalse();
    AzureRequests any = AzureRequests.anyContainer("devstoreaccount1");
    assertThat(matches(any.anyBlob(), "/devstoreaccount1/zz/a%2Fb%23123?comp=block")).isTrue();
    assertThat(matches(any.anyBlob(), "/otheraccount/zz/a")).isFalse();
  }

  @Test
  void namesArePercentEncodedAsOneSegment() {
    assertThat(RequestTargets.percentEncode("a/b c#1_~.-é")).isEqualTo("a%2Fb%20c%231_~.-%C3%A9");
  }
}
