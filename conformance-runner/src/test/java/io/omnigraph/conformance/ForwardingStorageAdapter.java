package io.omnigraph.conformance;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.util.Optional;

/** Passes every call to a real adapter; the broken adapters override the one behaviour they break. */
class ForwardingStorageAdapter implements StorageAdapter {
  protected final StorageAdapter inner;

  ForwardingStorageAdapter(StorageAdapter inner) {
    this.inner = inner;
  }

  @Override
  public Optional<StoredObject> readIfExists(String path) throws StorageException {
    return inner.readIfExists(path);
  }

  @Override
  public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
    return inner.put(path, bytes, condition);
  }

  @Override
  public boolean exists(String path) throws StorageException {
    return inner.exists(path);
  }

  @Override
  public void delete(String path) throws StorageException {
    inner.delete(path);
  }

  @Override
  public ObjectListing list(String dir) throws StorageException {
    return inner.list(dir);
  }

  @Override
  public void deletePrefix(String prefix) throws StorageException {
    inner.deletePrefix(prefix);
  }

  @Override
  public StorageCapabilities capabilities() {
    return inner.capabilities();
  }

  @Override
  public LanceLocation lanceLocation(String path) throws StorageException {
    return inner.lanceLocation(path);
  }

  @Override
  public void close() throws StorageException {
    inner.close();
  }
}
