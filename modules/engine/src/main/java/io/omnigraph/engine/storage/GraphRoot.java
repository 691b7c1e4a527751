package io.omnigraph.engine.storage;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A graph root: the storage adapter for its URI (found through {@link StorageAdapters}, i.e.
 * ServiceLoader) for control files, and Lance locations for its datasets. Every
 * {@link StorageException} leaves this class as a {@link StorageFailureException} carrying the SPI
 * kind and path, except where a method documents a kind as a normal outcome.
 */
public final class GraphRoot implements AutoCloseable {
  private final String uri;
  private final StorageAdapter adapter;

  private GraphRoot(String uri, StorageAdapter adapter) {
    this.uri = uri;
    this.adapter = adapter;
  }

  /**
   * Opens the adapter for {@code uri}.
   *
   * @throws StorageFailureException no adapter serves the scheme, or the adapter refused the root
   */
  public static GraphRoot open(String uri, Map<String, String> storageOptions) {
    Objects.requireNonNull(uri, "uri");
    try {
      return new GraphRoot(uri, StorageAdapters.open(uri, storageOptions));
    } catch (StorageException e) {
      throw failure("cannot open graph root " + uri, e);
    }
  }

  /**
   * A root over an adapter the caller already opened for {@code uri}, instead of the one
   * {@link StorageAdapters} would find. This is the fault-injection seam of the engine's tests
   * (an adapter opened with {@link io.omnigraph.api.storage.StorageAdapterProvider#openWithIoHook});
   * this package is not exported, so applications cannot reach it. The root owns {@code adapter}
   * and closes it.
   *
   * @param uri the root URI {@code adapter} serves
   * @param adapter the adapter for {@code uri}
   */
  public static GraphRoot over(String uri, StorageAdapter adapter) {
    return new GraphRoot(Objects.requireNonNull(uri, "uri"), Objects.requireNonNull(adapter, "adapter"));
  }

  /** @return the root URI as given */
  public String uri() {
    return uri;
  }

  /** @return a canonical key of the root, for process-local write gates */
  public String identity() {
    try {
      return adapter.lanceLocation("__manifest").uri();
    } catch (StorageException e) {
      throw failure("cannot resolve " + uri, e);
    }
  }

  /** @return where Lance finds the dataset at {@code path} under the root */
  public LanceLocation lance(String path) {
    try {
      return adapter.lanceLocation(path);
    } catch (StorageException e) {
      throw failure("cannot resolve dataset path " + path, e);
    }
  }

  /** @return the text of a control file, or empty when it does not exist */
  public Optional<String> readText(String path) {
    try {
      return adapter.readTextIfExists(path);
    } catch (StorageException e) {
      throw failure("cannot read " + path, e);
    }
  }

  /** @return whether the control file exists */
  public boolean exists(String path) {
    try {
      return adapter.exists(path);
    } catch (StorageException e) {
      throw failure("cannot check " + path, e);
    }
  }

  /** @return whether anything exists under the directory {@code dir} */
  public boolean hasChildren(String dir) {
    try (var listing = adapter.list(dir)) {
      return listing.hasNext();
    } catch (StorageException e) {
      throw failure("cannot list " + dir, e);
    }
  }

  /**
   * Writes a control file only if it does not exist.
   *
   * @return {@code false} when it already existed (nothing written)
   */
  public boolean createText(String path, String text) {
    try {
      adapter.put(path, text.getBytes(StandardCharsets.UTF_8), WriteCondition.ifAbsent());
      return true;
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION_FAILED) {
        return false;
      }
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * Lists the control files directly under {@code dir} (sorted; a missing directory is empty).
   *
   * @throws StorageFailureException when any page of the listing fails: never a partial list
   */
  public List<String> list(String dir) {
    try {
      return adapter.list(dir).toList();
    } catch (StorageException e) {
      throw failure("cannot list " + dir, e);
    }
  }

  /** @return a control file with its version token, or empty when it does not exist */
  public Optional<StoredObject> readObject(String path) {
    try {
      return adapter.readIfExists(path);
    } catch (StorageException e) {
      throw failure("cannot read " + path, e);
    }
  }

  /**
   * Writes a control file under {@code condition}.
   *
   * @return the version token of the written object
   * @throws StorageFailureException when the write failed or the condition did not hold (kind
   *     {@code PRECONDITION_FAILED}); nothing was written unless the kind is {@code OUTCOME_UNKNOWN}
   */
  public String put(String path, String text, WriteCondition condition) {
    try {
      return adapter.put(path, text.getBytes(StandardCharsets.UTF_8), condition);
    } catch (StorageException e) {
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * Writes a control file's bytes now; it becomes visible only when {@link #apply applied}
   * ({@link StorageAdapter#preparePut}: on local disk a synced temp file, so the apply costs the
   * rename and the directory sync).
   *
   * @return the prepared put (close it: it discards the bytes unless applied)
   * @throws StorageFailureException writing the bytes failed; nothing is visible
   */
  public StorageAdapter.PreparedPut preparePut(String path, String text) {
    try {
      return adapter.preparePut(path, text.getBytes(StandardCharsets.UTF_8));
    } catch (StorageException e) {
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * Applies a {@link #preparePut prepared put} of {@code path} under {@code condition}, with the
   * failures of {@link #put}.
   *
   * @return the version token of the written object
   */
  public String apply(StorageAdapter.PreparedPut put, String path, WriteCondition condition) {
    try {
      return put.apply(condition);
    } catch (StorageException e) {
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * Writes a control file under {@code condition}, answering a condition that did not hold.
   *
   * @return the new version token, or empty when the condition did not hold (nothing written)
   * @throws StorageFailureException any other failure, including an unknown outcome
   */
  public Optional<String> putIf(String path, String text, WriteCondition condition) {
    try {
      return Optional.of(adapter.put(path, text.getBytes(StandardCharsets.UTF_8), condition));
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION_FAILED) {
        return Optional.empty();
      }
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * {@link #putIf} without durability against power loss ({@link StorageAdapter#putNonDurable}):
   * for control files nothing needs after a power failure (the write lease).
   */
  public Optional<String> putIfNonDurable(String path, String text, WriteCondition condition) {
    try {
      return Optional.of(adapter.putNonDurable(path, text.getBytes(StandardCharsets.UTF_8), condition));
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION_FAILED) {
        return Optional.empty();
      }
      throw failure("cannot write " + path, e);
    }
  }

  /**
   * {@link #delete} without durability against power loss ({@link StorageAdapter#deleteNonDurable}):
   * for a control file whose reappearance after a power failure harms nothing.
   */
  public void deleteNonDurable(String path) {
    try {
      adapter.deleteNonDurable(path);
    } catch (StorageException e) {
      throw failure("cannot delete " + path, e);
    }
  }

  /** Deletes a control file (idempotent). */
  public void delete(String path) {
    try {
      adapter.delete(path);
    } catch (StorageException e) {
      throw failure("cannot delete " + path, e);
    }
  }

  /** Deletes every object under {@code prefix} (relative to the root); nothing there is not an error. */
  public void deletePrefix(String prefix) {
    try {
      adapter.deletePrefix(prefix);
    } catch (StorageException e) {
      throw failure("cannot delete " + prefix, e);
    }
  }

  // --- durability (docs/write-protocol.md, "Durability") ---

  /** @return whether the adapter keeps objects as local files (natively written files need a sync) */
  public boolean localFiles() {
    return adapter.capabilities().localFilesystem();
  }

  /**
   * Syncs natively written files and their directory entries through the adapter; see
   * {@link StorageAdapter#syncWritten}.
   *
   * @return the sync calls made
   */
  public int syncWritten(java.util.Collection<String> paths) throws StorageException {
    return adapter.syncWritten(paths);
  }

  /** Maps an SPI failure to the public storage failure, keeping kind and path. */
  public static StorageFailureException failure(String what, StorageException e) {
    return new StorageFailureException(what + ": " + e.getMessage(),
        new ErrorDetail.Storage(e.kind().name(), e.path()), e);
  }

  @Override
  public void close() {
    try {
      adapter.close();
    } catch (StorageException e) {
      throw failure("cannot close the storage adapter of " + uri, e);
    }
  }
}
