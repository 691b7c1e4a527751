package io.omnigraph.testkit.tck;

import io.omnigraph.conformance.FaultController.Operation;
import io.omnigraph.testkit.azure.AzureFaults;
import io.omnigraph.testkit.fault.AzureRequests;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.GcsRequests;
import io.omnigraph.testkit.fault.S3Requests;
import io.omnigraph.testkit.gcs.GcsFaults;
import io.omnigraph.testkit.tck.HttpFaultController.Dialect;
import io.omnigraph.testkit.tck.HttpFaultController.Request;
import java.util.Map;

/**
 * The {@link Dialect}s of the three HTTP object-store APIs the built-in adapters speak: which
 * request is a read, an exists check, a put, a delete and a listing page, and the service's own
 * "busy" and "refused" answers. An S3-, GCS- or Azure-compatible backend reuses them as they are.
 */
public final class HttpDialects {
  private HttpDialects() {}

  /**
   * The S3 REST API, path-style ({@code /<bucket>/<key>}): busy is {@code 503 SlowDown}, a refusal
   * {@code 403 AccessDenied}.
   *
   * @param tries how many times the SDK sends a request that keeps failing (its max attempts)
   */
  public static Dialect s3(int tries) {
    String object = S3Requests.anyBucket().anyObject();
    return new Dialect(Map.of(
        Operation.READ, new Request("GET", object),
        Operation.EXISTS, new Request("HEAD", object),
        Operation.PUT, new Request("PUT", object),
        Operation.DELETE, new Request("DELETE", object),
        Operation.LIST_PAGE, new Request("GET", S3Requests.anyBucket().listing())),
        Fault.s3Error(503, "SlowDown", "injected fault: slow down"),
        Fault.s3Error(403, "AccessDenied", "injected fault: access denied"), tries);
  }

  /**
   * The GCS JSON API (google-cloud-storage): busy is {@code 503 backendError}, a refusal
   * {@code 403 forbidden}.
   *
   * @param tries how many times the client sends a request that keeps failing
   */
  public static Dialect gcs(int tries) {
    GcsRequests requests = GcsRequests.anyBucket();
    return new Dialect(Map.of(
        Operation.READ, new Request("GET", requests.anyDownload()),
        Operation.EXISTS, new Request("GET", requests.anyObject()),
        Operation.PUT, new Request("POST", requests.upload()),
        Operation.DELETE, new Request("DELETE", requests.anyObject()),
        Operation.LIST_PAGE, new Request("GET", requests.listing())),
        GcsFaults.jsonError(503, "backendError"), GcsFaults.jsonError(403, "forbidden"), tries);
  }

  /**
   * The Azure Blob service REST API of one account: busy is {@code 503 ServerBusy}, a refusal
   * {@code 403 AuthorizationPermissionMismatch}.
   *
   * @param account the storage account (the first path segment of every request)
   * @param tries how many times the SDK sends a request that keeps failing (retries + 1)
   */
  public static Dialect azure(String account, int tries) {
    AzureRequests requests = AzureRequests.anyContainer(account);
    return new Dialect(Map.of(
        Operation.READ, new Request("GET", requests.anyBlob()),
        Operation.EXISTS, new Request("HEAD", requests.anyBlob()),
        Operation.PUT, new Request("PUT", requests.anyBlob()),
        Operation.DELETE, new Request("DELETE", requests.anyBlob()),
        Operation.LIST_PAGE, new Request("GET", requests.listing())),
        AzureFaults.error(503, "ServerBusy"), AzureFaults.error(403, "AuthorizationPermissionMismatch"), tries);
  }

}
