package io.omnigraph.testkit.azure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Azure adapter's options for Azurite's well-known account over plain HTTP, at Azurite's blob
 * endpoint ({@link Azurite#blobEndpoint()}) or a FaultProxy's in front of it (then
 * {@code <proxy>/<account>}), plus any test-specific ones.
 */
public final class AzureAdapterOptions {
  private AzureAdapterOptions() {}

  /**
   * @param blobEndpoint the account's blob endpoint (its path is the account name)
   * @param more further options as key, value pairs (e.g. {@code "max-retries", "1"})
   * @return the options, unmodifiable
   */
  public static Map<String, String> forAzurite(Object blobEndpoint, String... more) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("account", Azurite.ACCOUNT_NAME);
    o.put("account-key", Azurite.ACCOUNT_KEY);
    o.put("endpoint", blobEndpoint.toString());
    o.put("allow-http", "true");
    if (more.length % 2 != 0) {
      throw new IllegalArgumentException("options come in key, value pairs");
    }
    for (int i = 0; i < more.length; i += 2) {
      o.put(more[i], more[i + 1]);
    }
    return Collections.unmodifiableMap(o);
  }
}
