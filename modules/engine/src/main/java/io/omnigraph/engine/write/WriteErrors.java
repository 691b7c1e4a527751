package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ResourceLimitException;
import java.util.List;

/** Builds the public errors of the write protocol that do not come from storage: limits and key conflicts. */
public final class WriteErrors {
  private WriteErrors() {}

  /** Builds the public resource-limit failure (also used by the loader before it builds batches). */
  public static ResourceLimitException resourceLimit(String resource, long limit, long actual) {
    return new ResourceLimitException("resource limit exceeded for " + resource + ": actual " + actual
        + ", limit " + limit + "; split the input into several loads (or use overwrite for bulk replacement)",
        new ErrorDetail.ResourceLimit(resource, limit, actual));
  }

  /** Builds the public key-conflict failure for {@code tableKey} ({@code node:T} / {@code edge:T}). */
  public static ConflictException keyConflict(String tableKey, List<String> ids, String what) {
    int colon = tableKey.indexOf(':');
    String kind = colon > 0 ? tableKey.substring(0, colon) : "node";
    String type = colon > 0 ? tableKey.substring(colon + 1) : tableKey;
    List<String> shown = ids.size() > 10 ? ids.subList(0, 10) : ids;
    return new ConflictException(kind + " type '" + type + "' already has this id: " + String.join(", ", shown)
        + (ids.size() > shown.size() ? " (+" + (ids.size() - shown.size()) + " more)" : "")
        + (what.startsWith("already") ? "" : " (" + what + ")"),
        new ErrorDetail.KeyConflict(kind, type, ids));
  }
}
