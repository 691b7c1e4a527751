package io.omnigraph.api;

import java.util.Map;

/**
 * What {@link Omnigraph#cleanup} removed.
 *
 * @param removedVersions per table key, how many old Lance versions were removed
 */
public record CleanupResult(Map<String, Long> removedVersions) {
  public CleanupResult {
    removedVersions = Map.copyOf(removedVersions);
  }
}
