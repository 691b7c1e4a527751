package io.omnigraph.testkit.gcs;

import io.omnigraph.testkit.fault.Fault;
import java.util.Map;

/**
 * {@link Fault}s shaped like real GCS JSON API errors, so the client parses code and reason
 * exactly as it would from the service (e.g. 503 {@code backendError}, 429 {@code rateLimitExceeded}).
 */
public final class GcsFaults {
  private GcsFaults() {}

  /** @return a fault answering {@code status} with a GCS JSON error body carrying {@code reason} */
  public static Fault jsonError(int status, String reason) {
    GcsError e = new GcsError(status, reason, reason, "injected by FaultProxy: " + status + " " + reason);
    return new Fault.Respond(status, Map.of("Content-Type", "application/json; charset=UTF-8"), JsonApi.errorBody(e));
  }
}
