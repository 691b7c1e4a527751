package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CleanupOptions;
import io.omnigraph.api.CleanupReport;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.cli.Json;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph cleanup <uri> [--keep n] [--older-than d] [--confirm]}: previews (or, with
 * {@code --confirm}, removes) table history no graph commit needs; refused while recovery is pending.
 */
@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    description = {
      "Preview, or with --confirm remove, the Lance versions of the graph's tables that no commit needs, and the files"
          + " only they reference (docs/maintenance.md, \"cleanup\"). A version goes only when it is not among the"
          + " --keep newest of its table, was created longer ago than --older-than, and no commit of main or of any"
          + " live branch pins it: every commit stays readable. Unreferenced files younger than 7 days are kept;"
          + " __manifest and the recovery audit are never cleaned.",
      "The preview lists, per table, the versions it would remove and the bytes of the data files only they reference.",
      "Refused (exit 3, recovery required) while any recovery sidecar is pending: run 'omnigraph repair' first."
    })
public final class CleanupCommand extends GraphCommand implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "<uri>", description = "Graph root (or --store).")
  String positional;

  @Option(names = "--keep", paramLabel = "<n>", defaultValue = "1",
      description = "Always keep the n newest versions of each table (default 1).")
  int keep;

  @Option(names = "--older-than", paramLabel = "<duration>", defaultValue = "0",
      description = "Only remove versions older than this: 0, or a number with s, m, h or d (e.g. 7d), or ISO-8601"
          + " (PT12H). Default 0.")
  String olderThan;

  @Option(names = "--confirm", description = "Remove what the preview lists (without it nothing is removed).")
  boolean confirm;

  @Override
  public Integer call() {
    CleanupReport r = Omnigraph.cleanup(uri(positional), openOptions(uri(positional)),
        new CleanupOptions(keep, duration(olderThan), confirm));
    if (output.json()) {
      ObjectNode o = Json.object();
      o.put("uri", uri(positional));
      o.put("applied", r.applied());
      o.put("versions", r.versionCount());
      o.put("bytes", r.bytes());
      ArrayNode arr = o.putArray("tables");
      for (CleanupReport.TableCleanup t : r.tables()) {
        ObjectNode n = arr.addObject().put("table", t.table()).put("branch", t.branch());
        t.versions().forEach(n.putArray("versions")::add);
        n.put("bytes", t.bytes());
        if (r.applied()) {
          n.put("bytes_removed", t.bytesRemoved());
        }
      }
      terminal().out().println(Json.write(o));
      return 0;
    }
    for (CleanupReport.TableCleanup t : r.tables()) {
      terminal().out().println("  " + t.table() + (t.branch().equals("main") ? "" : " (branch " + t.branch() + ")")
          + ": " + t.versions().size() + " version(s) " + t.versions() + ", " + t.bytes() + " data bytes"
          + (r.applied() ? ", " + t.bytesRemoved() + " bytes freed" : ""));
    }
    terminal().out().println(r.applied()
        ? "removed " + r.versionCount() + " old table version(s) at " + uri(positional)
        : "would remove " + r.versionCount() + " old table version(s) (" + r.bytes() + " data bytes) at "
            + uri(positional) + " (preview; --confirm removes them)");
    return 0;
  }

  /** @return {@code text} as a duration: {@code 0}, {@code <n>s|m|h|d}, or ISO-8601 */
  static Duration duration(String text) {
    String t = text.strip();
    try {
      if (t.equals("0")) {
        return Duration.ZERO;
      }
      if (t.startsWith("P") || t.startsWith("p")) {
        return Duration.parse(t);
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (Character.toLowerCase(t.charAt(t.length() - 1))) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        case 'd' -> Duration.ofDays(n);
        default -> throw new NumberFormatException(t);
      };
    } catch (RuntimeException e) {
      throw new InvalidInputException("--older-than '" + text + "' is not a duration (0, 30s, 15m, 12h, 7d or ISO-8601"
          + " like PT12H)", null, e);
    }
  }
}
