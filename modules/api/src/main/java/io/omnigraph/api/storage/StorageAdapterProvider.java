package io.omnigraph.api.storage;

import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * A storage backend, found with {@link java.util.ServiceLoader}. An adapter module declares
 * {@code provides io.omnigraph.api.storage.StorageAdapterProvider with ...} in its
 * {@code module-info.java} and lists the same class in
 * {@code META-INF/services/io.omnigraph.api.storage.StorageAdapterProvider}, so it works on the
 * module path and on the class path. Providers need a public no-argument constructor.
 *
 * <p>Exactly one provider may claim a scheme; {@link StorageAdapters} refuses to choose between two.
 */
public interface StorageAdapterProvider {

  /** @return the lower-case URI schemes this provider serves, e.g. {@code file} or {@code s3} */
  Set<String> schemes();

  /**
   * The option keys {@link #open(URI, Map)} accepts, so a caller such as the CLI can report an
   * unknown key as its user's mistake before any request is made.
   *
   * @return the accepted keys; empty when the provider does not declare them (then only
   *     {@link #open(URI, Map)} judges the options)
   */
  default Set<String> optionKeys() {
    return Set.of();
  }

  /**
   * Opens a root.
   *
   * @param root the root URI, with one of {@link #schemes()}
   * @param options backend options (endpoint, region, credentials, ...); unknown keys are refused
   *     with {@code CONFIGURATION} so a typo never silently falls back to a default
   * @throws StorageException {@code CONFIGURATION} for a malformed root, a bad or unknown option,
   *     or a missing bucket/container (detected here or at the first request); {@code PERMISSION}
   *     when credentials are refused
   */
  StorageAdapter open(URI root, Map<String, String> options) throws StorageException;

  /**
   * Opens a root whose real I/O steps first pass {@code hook} — a test seam for fault injection at
   * the places a real failure would occur (see {@link StorageIoHook}). Only adapters that do their
   * own I/O support it; the default refuses.
   *
   * @throws StorageException {@code CONFIGURATION} when this provider does not support I/O hooks,
   *     otherwise as {@link #open(URI, Map)}
   */
  default StorageAdapter openWithIoHook(URI root, Map<String, String> options, StorageIoHook hook)
      throws StorageException {
    throw new StorageException(StorageException.Kind.CONFIGURATION, null,
        getClass().getName() + " does not support I/O fault hooks; inject faults below its client instead");
  }
}
