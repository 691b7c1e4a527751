package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageIoHook;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Serves {@code file:} roots: a local directory whose objects are regular files.
 *
 * <p>The root is {@code file:///absolute/dir} (an empty or {@code localhost} authority only; no
 * query or fragment). It need not exist yet: the first write creates it. It must not be a regular
 * file.
 *
 * <p>Options (anything else is refused with {@code CONFIGURATION}):
 * <ul>
 *   <li>{@code list-page-size} — how many entries one listing page examines (default
 *       {@value FsStorageAdapter#DEFAULT_LIST_PAGE_SIZE}, 1–1,000,000). Small pages make later
 *       page fetches real in tests.</li>
 * </ul>
 *
 * <p>Semantics, temp files and the version token are described on the adapter; see
 * {@link FsStorageAdapter}.
 */
public final class FsStorageAdapterProvider implements StorageAdapterProvider {
  static final String LIST_PAGE_SIZE = "list-page-size";

  /** Public no-argument constructor, as {@link java.util.ServiceLoader} requires. */
  public FsStorageAdapterProvider() {}

  @Override
  public Set<String> schemes() {
    return Set.of("file");
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of(LIST_PAGE_SIZE);
  }

  @Override
  public StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    return openWithIoHook(root, options, StorageIoHook.NONE);
  }

  @Override
  public StorageAdapter openWithIoHook(URI root, Map<String, String> options, StorageIoHook hook)
      throws StorageException {
    Objects.requireNonNull(hook, "hook");
    Path dir = rootDirectory(root);
    int pageSize = FsStorageAdapter.DEFAULT_LIST_PAGE_SIZE;
    for (Map.Entry<String, String> e : (options == null ? Map.<String, String>of() : options).entrySet()) {
      if (e.getKey().equals(LIST_PAGE_SIZE)) {
        pageSize = parsePageSize(e.getValue());
      } else {
        throw configuration("unknown option '" + e.getKey() + "' for the file adapter (known: " + LIST_PAGE_SIZE + ")",
            null);
      }
    }
    if (Files.isRegularFile(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw configuration("storage root " + dir + " is a regular file, not a directory", null);
    }
    return new FsStorageAdapter(dir, pageSize, hook);
  }

  private static Path rootDirectory(URI root) throws StorageException {
    if (root == null || !"file".equalsIgnoreCase(root.getScheme())) {
      throw configuration("not a file: URI: " + root, null);
    }
    if (root.isOpaque() || root.getRawPath() == null || root.getRawPath().isEmpty()) {
      throw configuration("file: root must be hierarchical with an absolute path, e.g. file:///var/graph: " + root,
          null);
    }
    String authority = root.getRawAuthority();
    if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
      throw configuration("file: root must not name a remote host: " + root, null);
    }
    if (root.getRawQuery() != null || root.getRawFragment() != null) {
      throw configuration("file: root must not have a query or fragment: " + root, null);
    }
    try {
      return Path.of(new URI("file", null, root.getPath(), null)).toAbsolutePath().normalize();
    } catch (IllegalArgumentException | FileSystemNotFoundException | java.net.URISyntaxException e) {
      throw configuration("file: root is not a usable local path: " + root + " (" + e.getMessage() + ")", e);
    }
  }

  private static int parsePageSize(String value) throws StorageException {
    try {
      int n = Integer.parseInt(value.trim());
      if (n < 1 || n > 1_000_000) {
        throw configuration(LIST_PAGE_SIZE + " must be between 1 and 1000000, got " + value, null);
      }
      return n;
    } catch (NumberFormatException e) {
      throw configuration(LIST_PAGE_SIZE + " must be an integer, got '" + value + "'", e);
    }
  }

  private static StorageException configuration(String message, Throwable cause) {
    return new StorageException(StorageException.Kind.CONFIGURATION, null, message, cause);
  }
}
