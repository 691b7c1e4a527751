package io.omnigraph.testkit.fault;

import static io.omnigraph.testkit.fault.RequestTargets.ANY_QUERY;
import static io.omnigraph.testkit.fault.RequestTargets.SEGMENT;
import static io.omnigraph.testkit.fault.RequestTargets.param;
import static io.omnigraph.testkit.fault.RequestTargets.quote;

/**
 * Whole-target patterns ({@link FaultRule#target()}) for the requests an S3 client makes in
 * path-style addressing: {@code /<bucket>/<key>[?query]} for an object (the key's {@code /} sent
 * raw), {@code /<bucket>?list-type=2&prefix=...} for a ListObjectsV2 page. One catalog serves
 * every binding, contract and adapter test that arms faults on an S3 endpoint.
 *
 * <pre>{@code proxy.arm(FaultRule.on("PUT", S3Requests.in(bucket).object("p/k")).then(Fault.s3Error(...)))}</pre>
 */
public final class S3Requests {
  private final String bucket;

  private S3Requests(String bucket) {
    this.bucket = bucket;
  }

  /** @return the requests on one bucket */
  public static S3Requests in(String bucket) {
    return new S3Requests(quote(bucket));
  }

  /** @return the requests on any bucket */
  public static S3Requests anyBucket() {
    return new S3Requests(SEGMENT);
  }

  /** @return any request on the object {@code key} (any method, any query) */
  public String object(String key) {
    return "/" + bucket + "/" + quote(key) + ANY_QUERY;
  }

  /** @return any request on an object directly under {@code keyPrefix} (which ends with {@code /}) */
  public String objectIn(String keyPrefix) {
    return "/" + bucket + "/" + quote(keyPrefix) + SEGMENT + ANY_QUERY;
  }

  /** @return any request on any object of the bucket */
  public String anyObject() {
    return "/" + bucket + "/[^?]+" + ANY_QUERY;
  }

  /** @return a ListObjectsV2 page request, whatever its prefix */
  public String listing() {
    return "/" + bucket + "/?\\?" + param("list-type", "2") + ".*";
  }

  /**
   * @return a ListObjectsV2 page request whose {@code prefix} is {@code prefix} ({@code /} raw or
   *     percent-encoded)
   */
  public String listing(String prefix) {
    return "/" + bucket + "/?\\?" + param("list-type", "2") + param("prefix", RequestTargets.listPrefix(prefix))
        + ".*";
  }
}
