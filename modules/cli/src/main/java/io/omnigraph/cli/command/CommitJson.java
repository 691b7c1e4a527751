package io.omnigraph.cli.command;

import io.omnigraph.server.TableOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.cli.Json;
import java.util.Map;

/** Renders commits for {@code --json} output and as text. */
final class CommitJson {
  private CommitJson() {}

  /**
   * The commit object of write results and {@code commit list|show}: the reference CLI's fields
   * ({@code graph_commit_id}, {@code graph_branch}, {@code graph_manifest_version},
   * {@code parent_commit_id}, {@code merged_parent_commit_id}, {@code actor_id},
   * {@code created_at}) plus {@code message} and {@code table_versions} (in {@code order}); absent
   * values omitted.
   */
  static ObjectNode of(CommitInfo c, TableOrder order) {
    ObjectNode o = Json.object();
    o.put("graph_commit_id", c.id());
    o.put("graph_branch", c.branch());
    o.put("graph_manifest_version", c.manifestVersion());
    if (!c.parents().isEmpty()) {
      o.put("parent_commit_id", c.parents().get(0));
    }
    if (c.parents().size() > 1) {
      o.put("merged_parent_commit_id", c.parents().get(1));
    }
    if (c.actor() != null) {
      o.put("actor_id", c.actor());
    }
    o.put("created_at", c.createdAt().toString());
    if (c.message() != null) {
      o.put("message", c.message());
    }
    ObjectNode tables = o.putObject("table_versions");
    for (Map.Entry<String, Long> e : order.sorted(c.tableVersions()).entrySet()) {
      tables.put(e.getKey(), e.getValue());
    }
    return o;
  }

  /** One line: id, time, actor, message. */
  static String line(CommitInfo c) {
    StringBuilder sb = new StringBuilder();
    sb.append(c.id()).append("  ").append(c.createdAt());
    sb.append("  ").append(c.actor() == null ? "-" : c.actor());
    if (c.parents().isEmpty()) {
      sb.append("  (genesis)");
    }
    if (c.message() != null) {
      sb.append("  ").append(c.message());
    }
    return sb.toString();
  }
}
