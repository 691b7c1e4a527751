package io.omnigraph.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How much history {@link Omnigraph#cleanup(String, OpenOptions, CleanupOptions)} may remove
 * (docs/maintenance.md, "cleanup"). A version any commit pins is never removed, whatever these say.
 *
 * @param keep always keep at least this many newest versions of each table (at least 1)
 * @param olderThan only remove versions created longer ago than this
 * @param confirm {@code false}: only report what would be removed (a preview)
 */
public record CleanupOptions(int keep, Duration olderThan, boolean confirm) {
  public CleanupOptions {
    if (keep < 1) {
      throw new InvalidInputException("cleanup --keep must be at least 1, got " + keep, null);
    }
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new InvalidInputException("cleanup --older-than must not be negative, got " + olderThan, null);
    }
  }

  /** @return keep 1, any age, act (what {@link Omnigraph#cleanup(String, OpenOptions)} does) */
  public static CleanupOptions defaults() {
    return new CleanupOptions(1, Duration.ZERO, true);
  }
}
