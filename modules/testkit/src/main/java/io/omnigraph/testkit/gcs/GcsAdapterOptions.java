package io.omnigraph.testkit.gcs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The GCS adapter's options for a {@link GcsEmulator}'s project, no credentials, at the emulator's
 * endpoint or a FaultProxy's in front of it, plus any test-specific ones.
 */
public final class GcsAdapterOptions {
  private GcsAdapterOptions() {}

  /** @return the options for {@code emulator} at its own endpoint, unmodifiable */
  public static Map<String, String> forEmulator(GcsEmulator emulator, String... more) {
    return atEndpoint(emulator, emulator.baseUrl(), more);
  }

  /**
   * A separate name, not an overload of {@link #forEmulator}: with a {@code String} endpoint an
   * overload would bind the endpoint as the first of {@code more}.
   *
   * @param endpoint where the adapter sends its requests
   * @param more further options as key, value pairs (e.g. {@code "max-attempts", "1"})
   * @return the options, unmodifiable
   */
  public static Map<String, String> atEndpoint(GcsEmulator emulator, Object endpoint, String... more) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("endpoint", endpoint.toString());
    o.put("project-id", emulator.projectId());
    o.put("credentials", "no-auth");
    if (more.length % 2 != 0) {
      throw new IllegalArgumentException("options come in key, value pairs");
    }
    for (int i = 0; i < more.length; i += 2) {
      o.put(more[i], more[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(o);
  }
}
