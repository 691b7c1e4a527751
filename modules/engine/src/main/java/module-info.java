/**
 * The OmniGraph engine: schema, loader, tables on Lance, manifest and commit lineage.
 *
 * <p>Lance ({@code lance.core}) is an automatic module. On the module path the package
 * {@code org.lance.namespace} is split between lance-core and lance-namespace-core; run with
 * {@code --patch-module lance.core=lance-namespace-core-<v>.jar} (docs/library.md, "Module path").
 */
module io.omnigraph.engine {
  requires io.omnigraph.api;
  requires lance.core;
  // Lance loads its native library through this module's JarJniLoader (jar-jni is excluded): not named
  // in the engine's code, required so that it is resolved on the module path (docs/library.md).
  requires io.omnigraph.nativelib;
  requires org.apache.arrow.vector;
  requires org.apache.arrow.memory.core;
  requires org.apache.arrow.c;
  requires org.apache.arrow.dataset;
  requires com.fasterxml.jackson.databind;

  exports io.omnigraph.engine;

  uses io.omnigraph.api.storage.StorageAdapterProvider;

  provides io.omnigraph.api.GraphEngine with io.omnigraph.engine.OmnigraphEngine;
}
