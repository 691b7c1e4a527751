package io.omnigraph.api;

import java.util.Locale;

/** How {@link Graph#load} combines the input with the rows already in the graph. */
public enum LoadMode {
  /**
   * Strict insert. A row whose id already exists (in the graph, or earlier in the same input) fails
   * the whole load with a {@link ConflictException} carrying {@link ErrorDetail.KeyConflict}; nothing
   * is updated. Limited to 8,192 rows and 32 MiB per table per load ({@link ResourceLimitException}).
   */
  APPEND,
  /**
   * Upsert by id: existing rows are replaced, new rows inserted; within one input the last row for
   * an id wins. Same per-table limits as {@link #APPEND}.
   */
  MERGE,
  /**
   * Replace the contents of every table the input touches (tables it does not mention are left as
   * they are). Constraints, referential integrity and edge cardinality are validated before anything
   * is written. No size limit.
   */
  OVERWRITE;

  /**
   * Parses a mode name, case-insensitively ({@code append}, {@code merge}, {@code overwrite}).
   *
   * @throws InvalidInputException for any other name
   */
  public static LoadMode parse(String name) {
    if (name != null) {
      for (LoadMode m : values()) {
        if (m.name().equalsIgnoreCase(name.trim())) {
          return m;
        }
      }
    }
    throw new InvalidInputException("unknown load mode '" + name + "'; expected append, merge or overwrite",
        new ErrorDetail.Validation(null, null, "mode", "unknown_load_mode"));
  }

  /** @return the lower-case name used on the command line and in commit records */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
