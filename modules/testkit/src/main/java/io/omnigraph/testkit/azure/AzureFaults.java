package io.omnigraph.testkit.azure;

import io.omnigraph.testkit.fault.Fault;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@link Fault}s shaped like real Azure Blob errors (status, {@code x-ms-error-code} header and the
 * XML error body), so the SDK classifies them exactly as it would the service's, e.g. 503
 * {@code ServerBusy}, 403 {@code AuthorizationPermissionMismatch}.
 */
public final class AzureFaults {
  private AzureFaults() {}

  /** @return a fault answering {@code status} with an Azure error carrying {@code code} */
  public static Fault error(int status, String code) {
    return new Fault.Respond(status, Map.of("x-ms-error-code", code, "Content-Type", "application/xml"),
        ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code>"
            + "<Message>injected by FaultProxy: " + status + " " + code + "</Message></Error>")
            .getBytes(StandardCharsets.UTF_8));
  }
}
