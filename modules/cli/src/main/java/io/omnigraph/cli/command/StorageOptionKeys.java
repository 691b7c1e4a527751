package io.omnigraph.cli.command;

import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.cli.CliFailure;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses an {@code --option} key the root's adapter does not accept, as a usage error (exit 1)
 * naming the accepted keys, before anything is opened. Adapters that do not declare their keys
 * ({@link StorageAdapterProvider#optionKeys()} empty) and roots whose scheme has no adapter are left
 * to the open, which reports them as before.
 */
final class StorageOptionKeys {
  private StorageOptionKeys() {}

  static void check(String uri, Map<String, String> options) {
    if (options.isEmpty()) {
      return;
    }
    Set<String> accepted;
    String scheme;
    try {
      scheme = StorageAdapters.toUri(uri).getScheme();
      accepted = StorageAdapters.provider(scheme).optionKeys();
    } catch (StorageException e) {
      return; // a malformed root or an unknown scheme: the open says so
    }
    if (accepted.isEmpty()) {
      return;
    }
    Set<String> unknown = new TreeSet<>(options.keySet());
    unknown.removeAll(accepted);
    if (!unknown.isEmpty()) {
      throw CliFailure.usage("unknown storage option" + (unknown.size() == 1 ? " " : "s ")
          + String.join(", ", unknown.stream().map(k -> "'" + k + "'").toList()) + " for " + scheme
          + ":// roots; accepted: " + String.join(", ", new TreeSet<>(accepted)));
    }
  }
}
