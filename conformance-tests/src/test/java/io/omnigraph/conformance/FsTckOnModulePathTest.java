package io.omnigraph.conformance;

/** The fs adapter against the whole contract, loaded as a named module (see {@link AdapterModules}). */
class FsTckOnModulePathTest extends StorageAdapterContract {
  @Override
  protected StorageTckBinding binding() {
    try {
      return new FsTckBinding(AdapterModules.onModulePath("file"));
    } catch (io.omnigraph.api.storage.StorageException e) {
      throw new AssertionError("no 'file' provider in the adapter layer", e);
    }
  }
}
