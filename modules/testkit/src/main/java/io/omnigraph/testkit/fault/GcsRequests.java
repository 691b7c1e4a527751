package io.omnigraph.testkit.fault;

import static io.omnigraph.testkit.fault.RequestTargets.ANY_QUERY;
import static io.omnigraph.testkit.fault.RequestTargets.SEGMENT;
import static io.omnigraph.testkit.fault.RequestTargets.encodedName;
import static io.omnigraph.testkit.fault.RequestTargets.param;
import static io.omnigraph.testkit.fault.RequestTargets.quote;

/**
 * Whole-target patterns ({@link FaultRule#target()}) for the requests google-cloud-storage makes
 * on the GCS JSON API: uploads ({@code POST /upload/storage/v1/b/<bucket>/o?...}, the object name
 * in the body), media downloads ({@code GET /download/storage/v1/b/<bucket>/o/<name>}), metadata
 * reads and deletes ({@code /storage/v1/b/<bucket>/o/<name>}) and listings
 * ({@code GET /storage/v1/b/<bucket>/o?prefix=...}). Object names are one percent-encoded path
 * segment ({@code /} as {@code %2F}). Lance's XML-API requests match none of these.
 */
public final class GcsRequests {
  private final String bucket;

  private GcsRequests(String bucket) {
    this.bucket = bucket;
  }

  /** @return the requests on one bucket */
  public static GcsRequests in(String bucket) {
    return new GcsRequests(quote(bucket));
  }

  /** @return the requests on any bucket */
  public static GcsRequests anyBucket() {
    return new GcsRequests("[^/]+");
  }

  /** @return any upload (multipart or resumable) to the bucket */
  public String upload() {
    return "/upload/storage/v1/b/" + bucket + "/o\\?.*";
  }

  /**
   * @return an upload that creates its object only if absent ({@code ifGenerationMatch=0}); the
   *     name travels in the body, so this is how a create is told from an overwrite
   */
  public String creatingUpload() {
    return "/upload/storage/v1/b/" + bucket + "/o\\?" + param("ifGenerationMatch", "0") + ".*";
  }

  /** @return a metadata request (read, delete, patch) on the object {@code name} */
  public String object(String name) {
    return "/storage/v1/b/" + bucket + "/o/" + encodedName(name) + ANY_QUERY;
  }

  /** @return a metadata request on an object directly under {@code namePrefix} (ending with {@code /}) */
  public String objectIn(String namePrefix) {
    return "/storage/v1/b/" + bucket + "/o/" + encodedName(namePrefix) + SEGMENT + ANY_QUERY;
  }

  /** @return a metadata request on any object of the bucket */
  public String anyObject() {
    return "/storage/v1/b/" + bucket + "/o/" + SEGMENT + ANY_QUERY;
  }

  /** @return a media download of the object {@code name} */
  public String download(String name) {
    return "/download/storage/v1/b/" + bucket + "/o/" + encodedName(name) + ANY_QUERY;
  }

  /** @return a media download of an object directly under {@code namePrefix} (ending with {@code /}) */
  public String downloadIn(String namePrefix) {
    return "/download/storage/v1/b/" + bucket + "/o/" + encodedName(namePrefix) + SEGMENT + ANY_QUERY;
  }

  /** @return a media download of any object of the bucket */
  public String anyDownload() {
    return "/download/storage/v1/b/" + bucket + "/o/" + SEGMENT + ANY_QUERY;
  }

  /** @return a listing page request, whatever its query */
  public String listing() {
    return "/storage/v1/b/" + bucket + "/o" + ANY_QUERY;
  }

  /** @return a listing page request whose {@code prefix} is {@code prefix} ({@code /} raw or percent-encoded) */
  public String listing(String prefix) {
    return "/storage/v1/b/" + bucket + "/o\\?" + param("prefix", RequestTargets.listPrefix(prefix)) + ".*";
  }
}
