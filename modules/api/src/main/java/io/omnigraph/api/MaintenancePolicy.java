package io.omnigraph.api;

/**
 * When a write schedules compaction by itself (docs/maintenance.md, "Automatic maintenance").
 *
 * <p>Every write adds a fragment to {@code __manifest} and to each table it touches, and the write
 * path reads every fragment left behind (the manifest merge-insert, the id probe). With
 * {@code automatic} on, a write on {@code main} that leaves {@code __manifest} with at least
 * {@code manifestFragments} fragments, or a table it touched with at least {@code tableFragments},
 * runs a bounded optimize of exactly those (compaction and BTREE index folds; no new index builds)
 * right after its own commit is published, in the same call. The write's outcome is decided before
 * that: a maintenance failure never fails the write, it is returned as a {@link WriteWarning}
 * (and logged), and the interrupted optimize is recoverable like every optimize.
 *
 * <p>The defaults come from the environment (read once per {@link #fromEnvironment()} call): the
 * system property {@value #PROPERTY} or the environment variable {@value #ENV}, either {@code off}
 * or a fragment threshold for both ({@code 16}) or {@code <manifest>,<table>} ({@code 16,32});
 * unset: on, {@value #DEFAULT_FRAGMENTS} for both.
 *
 * @param automatic whether writes schedule maintenance at all
 * @param manifestFragments the {@code __manifest} fragment count that makes a write compact it (at least 2)
 * @param tableFragments the fragment count of a touched table that makes a write compact it (at least 2)
 */
public record MaintenancePolicy(boolean automatic, int manifestFragments, int tableFragments) {
  /** The system property read by {@link #fromEnvironment()}. */
  public static final String PROPERTY = "omnigraph.maintenance";
  /** The environment variable read by {@link #fromEnvironment()} when the property is unset. */
  public static final String ENV = "OMNIGRAPH_MAINTENANCE";
  /** The message of the commit an automatic maintenance run publishes (rows unchanged). */
  public static final String COMMIT_MESSAGE = "optimize (automatic)";
  /** The actor of the commit an automatic maintenance run publishes. */
  public static final String COMMIT_ACTOR = "omnigraph:maintenance";
  /** The default threshold of both counts. */
  public static final int DEFAULT_FRAGMENTS = 16;

  public MaintenancePolicy {
    if (manifestFragments < 2 || tableFragments < 2) {
      throw new InvalidInputException("maintenance fragment thresholds must be at least 2, got "
          + manifestFragments + " and " + tableFragments, null);
    }
  }

  /** @return automatic maintenance at {@code fragments} for both counts */
  public static MaintenancePolicy atFragments(int fragments) {
    return new MaintenancePolicy(true, fragments, fragments);
  }

  /** @return no automatic maintenance (run {@code optimize} yourself) */
  public static MaintenancePolicy off() {
    return new MaintenancePolicy(false, DEFAULT_FRAGMENTS, DEFAULT_FRAGMENTS);
  }

  /** @return the built-in default: automatic, {@value #DEFAULT_FRAGMENTS} fragments for both counts */
  public static MaintenancePolicy builtIn() {
    return atFragments(DEFAULT_FRAGMENTS);
  }

  /**
   * @return the policy {@value #PROPERTY} (or {@value #ENV}) spells, else {@link #builtIn()}
   * @throws InvalidInputException the setting is not {@code off}, {@code on}, {@code <n>} or {@code <n>,<m>}
   */
  public static MaintenancePolicy fromEnvironment() {
    String spec = System.getProperty(PROPERTY);
    if (spec == null) {
      spec = System.getenv(ENV);
    }
    return spec == null || spec.isBlank() ? builtIn() : parse(spec);
  }

  /**
   * @param spec {@code off}, {@code on}, {@code <n>} (both thresholds) or {@code <manifest>,<table>}
   * @return the policy it spells
   * @throws InvalidInputException for anything else
   */
  public static MaintenancePolicy parse(String spec) {
    String s = spec.trim().toLowerCase(java.util.Locale.ROOT);
    if (s.equals("off") || s.equals("false") || s.equals("0")) {
      return off();
    }
    if (s.equals("on") || s.equals("true")) {
      return builtIn();
    }
    try {
      int comma = s.indexOf(',');
      if (comma < 0) {
        return atFragments(Integer.parseInt(s));
      }
      return new MaintenancePolicy(true, Integer.parseInt(s.substring(0, comma).trim()),
          Integer.parseInt(s.substring(comma + 1).trim()));
    } catch (NumberFormatException e) {
      throw new InvalidInputException("maintenance setting must be off, on, <fragments> or"
          + " <manifest fragments>,<table fragments>; got '" + spec + "'", null, e);
    }
  }
}
