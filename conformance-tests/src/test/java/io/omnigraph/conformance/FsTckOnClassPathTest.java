package io.omnigraph.conformance;

/** The fs adapter against the whole contract, with every jar on the class path. */
class FsTckOnClassPathTest extends StorageAdapterContract {
  @Override
  protected StorageTckBinding binding() {
    try {
      return new FsTckBinding(AdapterModules.onClassPath("file"));
    } catch (io.omnigraph.api.storage.StorageException e) {
      throw new AssertionError("no 'file' provider on the class path", e);
    }
  }
}
