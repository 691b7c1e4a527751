/**
 * The storage conformance suite (TCK): abstract JUnit 5 contract classes every
 * {@link io.omnigraph.api.storage.StorageAdapter} must pass, and a standalone runner.
 */
module io.omnigraph.conformance {
  requires transitive io.omnigraph.api;

  exports io.omnigraph.conformance;

  uses io.omnigraph.api.storage.StorageAdapterProvider;
}
