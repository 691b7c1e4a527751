/**
 * The storage conformance suite (TCK): abstract JUnit 5 contract classes every
 * {@link io.omnigraph.api.storage.StorageAdapter} must pass, and a standalone runner.
 *
 * <p>A backend binds the suite by extending {@link io.omnigraph.conformance.StorageAdapterContract}
 * and returning a {@link io.omnigraph.conformance.StorageTckBinding}. The package is open so that
 * JUnit can instantiate the contract's nested groups and call their (package-private) test methods
 * when the binding lives in another module.
 */
module io.omnigraph.conformance {
  requires transitive io.omnigraph.api;
  requires transitive org.junit.jupiter.api;
  requires org.junit.jupiter.params;
  requires org.assertj.core;
  requires org.junit.platform.launcher;

  exports io.omnigraph.conformance;
  // server lane: the graph contract suite (embedded engine and HttpGraph bind it)
  exports io.omnigraph.conformance.graph;
  opens io.omnigraph.conformance.graph to org.junit.platform.commons;

  opens io.omnigraph.conformance to org.junit.platform.commons;
  opens io.omnigraph.conformance.runner to org.junit.platform.commons;

  uses io.omnigraph.api.storage.StorageAdapterProvider;
  uses io.omnigraph.conformance.TckBindingProvider;
}
