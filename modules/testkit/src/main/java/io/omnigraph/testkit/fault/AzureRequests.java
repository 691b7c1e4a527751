package io.omnigraph.testkit.fault;

import static io.omnigraph.testkit.fault.RequestTargets.ANY_QUERY;
import static io.omnigraph.testkit.fault.RequestTargets.SEGMENT;
import static io.omnigraph.testkit.fault.RequestTargets.encodedName;
import static io.omnigraph.testkit.fault.RequestTargets.param;
import static io.omnigraph.testkit.fault.RequestTargets.quote;

/**
 * Whole-target patterns ({@link FaultRule#target()}) for the requests the Azure Blob SDK makes on
 * an account endpoint with the account in the path (Azurite's style):
 * {@code /<account>/<container>/<blob>[?query]}, where the SDK percent-encodes the whole blob name
 * into one segment ({@code /} as {@code %2F}), and {@code /<account>/<container>?restype=container&comp=list...}
 * for a listing page.
 */
public final class AzureRequests {
  private final String container;

  private AzureRequests(String container) {
    this.container = container;
  }

  /** @return the requests on one container of {@code account} */
  public static AzureRequests in(String account, String container) {
    return new AzureRequests(quote("/" + account + "/" + container));
  }

  /** @return the requests on any container of {@code account} */
  public static AzureRequests anyContainer(String account) {
    return new AzureRequests(quote("/" + account) + "/" + SEGMENT);
  }

  /** @return any request on the blob {@code name} */
  public String blob(String name) {
    return container + "/" + encodedName(name) + ANY_QUERY;
  }

  /** @return any request on a blob directly under {@code namePrefix} (ending with {@code /}) */
  public String blobIn(String namePrefix) {
    return container + "/" + encodedName(namePrefix) + SEGMENT + ANY_QUERY;
  }

  /** @return any request on any blob of the container */
  public String anyBlob() {
    return container + "/" + SEGMENT + ANY_QUERY;
  }

  /** @return a List Blobs page request, whatever its prefix */
  public String listing() {
    return container + "\\?" + param("comp", "list") + ".*";
  }

  /** @return a List Blobs page request whose {@code prefix} is {@code prefix} ({@code /} raw or percent-encoded) */
  public String listing(String prefix) {
    return container + "\\?" + param("comp", "list") + param("prefix", RequestTargets.listPrefix(prefix)) + ".*";
  }

  /** @return a Get Container Properties request ({@code ?restype=container} alone) */
  public String containerProperties() {
    return container + "\\?restype=container";
  }
}
