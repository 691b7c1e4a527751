package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.io.File;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds a scheme's provider the way each of the two TCK runs must: as a NAMED module, or as a jar
 * on the CLASS PATH — and proves it, so neither run can silently test the other's setup.
 *
 * <h2>Why a module layer</h2>
 * Surefire puts on the module path only what the module under test ({@code io.omnigraph.conformance})
 * {@code requires}; adapters are not required, so surefire would put them on the class path, where
 * they are unnamed and the "module path" run would prove nothing. The module-path execution
 * therefore removes the adapter jars from the class path ({@code classpathDependencyExcludes}) and
 * passes their paths in the system property {@value #MODULES_PROPERTY}; {@link #onModulePath} builds a
 * {@link ModuleLayer} from them on top of the layer that holds {@code io.omnigraph.api}, and looks
 * the provider up with {@link StorageAdapters#provider(String, ModuleLayer, ClassLoader)}.
 *
 * <h2>Adding a backend (S3, GCS, Azure)</h2>
 * Append the adapter jar and every jar it needs that is not already on the module path to
 * {@code tck.adapter.modules} in {@code conformance-tests/pom.xml} (separated by
 * {@code ${path.separator}}), add each to {@code classpathDependencyExcludes} of the
 * {@code default-test} execution, then bind with {@code AdapterModules.onModulePath("s3")} in a
 * {@code *OnModulePathTest} and {@code AdapterModules.onClassPath("s3")} in a {@code *OnClassPathTest}.
 */
final class AdapterModules {
  /** System property: adapter jars (and their dependencies) for the module layer, path-separated. */
  static final String MODULES_PROPERTY = "omnigraph.tck.adapterModules";

  private static ModuleLayer layer;

  private AdapterModules() {}

  /**
   * @return the provider of {@code scheme}, loaded as a named module from {@value #MODULES_PROPERTY}
   * @throws AssertionError when this JVM is not running the TCK as named modules, or the provider is unnamed
   */
  static StorageAdapterProvider onModulePath(String scheme) throws StorageException {
    if (!StorageAdapterContract.class.getModule().isNamed() || !StorageAdapterProvider.class.getModule().isNamed()) {
      throw new AssertionError("module-path TCK run, but the TCK or the API is on the class path: "
          + StorageAdapterContract.class.getModule() + ", " + StorageAdapterProvider.class.getModule());
    }
    ModuleLayer adapters = layer();
    StorageAdapterProvider provider = StorageAdapters.provider(scheme, adapters, null);
    Module m = provider.getClass().getModule();
    if (!m.isNamed() || m.getLayer() != adapters) {
      throw new AssertionError("module-path TCK run, but the '" + scheme + "' provider " + provider.getClass().getName()
          + " is not a named module of the adapter layer: " + m);
    }
    return provider;
  }

  /**
   * @return the provider of {@code scheme}, found through the class path's {@code META-INF/services}
   * @throws AssertionError when the TCK, the API or the provider is a named module
   */
  static StorageAdapterProvider onClassPath(String scheme) throws StorageException {
    if (StorageAdapterContract.class.getModule().isNamed() || StorageAdapterProvider.class.getModule().isNamed()) {
      throw new AssertionError("class-path TCK run, but the TCK or the API is a named module: "
          + StorageAdapterContract.class.getModule() + ", " + StorageAdapterProvider.class.getModule());
    }
    StorageAdapterProvider provider = StorageAdapters.provider(scheme, null, AdapterModules.class.getClassLoader());
    if (provider.getClass().getModule().isNamed()) {
      throw new AssertionError("class-path TCK run, but the '" + scheme + "' provider is a named module: "
          + provider.getClass().getModule());
    }
    return provider;
  }

  private static synchronized ModuleLayer layer() {
    if (layer == null) {
      String paths = System.getProperty(MODULES_PROPERTY, "");
      if (paths.isBlank()) {
        throw new AssertionError("system property " + MODULES_PROPERTY + " (adapter jars for the module layer) is not set");
      }
      Path[] entries = Arrays.stream(paths.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(Path::of)
          .toArray(Path[]::new);
      ModuleFinder finder = ModuleFinder.of(entries);
      Set<String> roots = finder.findAll().stream().map(ModuleReference::descriptor).map(d -> d.name())
          .collect(Collectors.toSet());
      ModuleLayer parent = StorageAdapterProvider.class.getModule().getLayer();
      Configuration cf = parent.configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
      layer = parent.defineModulesWithOneLoader(cf, StorageAdapterProvider.class.getClassLoader());
    }
    return layer;
  }
}
