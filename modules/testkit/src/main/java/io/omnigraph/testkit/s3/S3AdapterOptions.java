package io.omnigraph.testkit.s3;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The S3 adapter's options for the emulator's identity at a plain-HTTP, path-style endpoint (the
 * emulator's own or a FaultProxy's in front of it), plus any test-specific ones.
 */
public final class S3AdapterOptions {
  private S3AdapterOptions() {}

  /**
   * @param endpoint where the adapter sends its requests
   * @param more further options as key, value pairs (e.g. {@code "max-attempts", "2"})
   * @return the options, unmodifiable
   */
  public static Map<String, String> forEmulator(Object endpoint, String... more) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("endpoint", endpoint.toString());
    o.put("allow-http", "true");
    o.put("path-style", "true");
    o.put("region", S3ProxyServer.REGION);
    o.put("access-key-id", S3ProxyServer.ACCESS_KEY_ID);
    o.put("secret-access-key", S3ProxyServer.SECRET_ACCESS_KEY);
    if (more.length % 2 != 0) {
      throw new IllegalArgumentException("options come in key, value pairs");
    }
    for (int i = 0; i < more.length; i += 2) {
      o.put(more[i], more[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(o);
  }
}
