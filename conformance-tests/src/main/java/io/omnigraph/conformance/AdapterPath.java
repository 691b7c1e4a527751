package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import java.io.IOException;
import java.lang.module.ModuleReference;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * How the adapter under test is loaded, so that one parameterised test class certifies an adapter
 * both ways (docs/tck.md, "Module path and class path"):
 *
 * <pre>{@code
 * @ParameterizedClass
 * @EnumSource(AdapterPath.class)
 * class MyStoreTckTest extends StorageAdapterContract {
 *   @Parameter AdapterPath path;
 *   @Override protected StorageTckBinding binding() { return new MyBinding(path.provider("my")); }
 * }
 * }</pre>
 *
 * <p>Run the test in the adapter's own module with Surefire's module path (the default for a
 * module with a {@code module-info.java}): the adapter is then the named module under test.
 * {@link #MODULE_PATH} returns its provider from that named module (found through its
 * {@code provides} clause) and fails when it is not named. {@link #CLASS_PATH} loads the same
 * adapter classes a second time, from the same directory or jar, in a class loader of their own
 * where they are unnamed, and finds the provider through {@code META-INF/services} only — as on an
 * application's class path. The adapter's own dependencies (its SDK) stay where the module path
 * put them. When the whole test JVM runs on the class path, {@link #CLASS_PATH} returns the
 * class-path provider as it is, and {@link #MODULE_PATH} fails.
 */
public enum AdapterPath {
  /** The provider of the named adapter module, found through its {@code provides} clause. */
  MODULE_PATH,
  /** The provider found through {@code META-INF/services}, its classes in an unnamed module. */
  CLASS_PATH;

  /**
   * @return the provider of {@code scheme}, loaded this way
   * @throws AssertionError when it cannot be loaded this way (so a run never tests the other way by mistake)
   */
  public StorageAdapterProvider provider(String scheme) throws StorageException {
    StorageAdapterProvider found = StorageAdapters.provider(scheme, ModuleLayer.boot(),
        AdapterPath.class.getClassLoader());
    Module module = found.getClass().getModule();
    if (this == MODULE_PATH) {
      if (!module.isNamed()) {
        throw new AssertionError("module-path TCK run, but the '" + scheme + "' provider " + found.getClass().getName()
            + " is not in a named module: run the test on Surefire's module path, in the adapter's own module");
      }
      return found;
    }
    if (!module.isNamed()) {
      return found; // the whole run is on the class path
    }
    StorageAdapterProvider unnamed = loadUnnamed(module, scheme);
    if (unnamed.getClass().getModule().isNamed() || unnamed.getClass() == found.getClass()) {
      throw new AssertionError("class-path TCK run, but the '" + scheme + "' provider is still the named one: "
          + unnamed.getClass().getModule());
    }
    return unnamed;
  }

  private static final List<AdapterLoader> LOADERS = Collections.synchronizedList(new ArrayList<>());

  private static StorageAdapterProvider loadUnnamed(Module module, String scheme) throws StorageException {
    URI location = module.getLayer().configuration().findModule(module.getName())
        .map(m -> m.reference()).flatMap(ModuleReference::location)
        .orElseThrow(() -> new AssertionError("module " + module.getName() + " has no location to load it from"));
    AdapterLoader loader;
    synchronized (LOADERS) {
      loader = LOADERS.stream().filter(l -> l.module.equals(module)).findFirst().orElse(null);
      if (loader == null) {
        loader = new AdapterLoader(location, module, AdapterPath.class.getClassLoader());
        LOADERS.add(loader);
      }
    }
    List<StorageAdapterProvider> own = new ArrayList<>();
    for (ServiceLoader.Provider<StorageAdapterProvider> p
        : ServiceLoader.load(StorageAdapterProvider.class, loader).stream().toList()) {
      if (p.type().getClassLoader() == loader) {
        StorageAdapterProvider provider = p.get();
        if (provider.schemes().contains(scheme)) {
          own.add(provider);
        }
      }
    }
    if (own.size() != 1) {
      throw new AssertionError("class-path TCK run: expected one '" + scheme + "' provider in the META-INF/services of "
          + location + ", found " + own.size() + " (is the provider listed there?)");
    }
    return own.get(0);
  }

  /**
   * Loads the adapter module's packages from its location itself (child first), so they are defined
   * again, unnamed; everything else (the API, the SDK) comes from the parent. Its services files
   * are only those of the adapter's location.
   */
  private static final class AdapterLoader extends URLClassLoader {
    static {
      ClassLoader.registerAsParallelCapable();
    }

    private final Module module;
    private final Set<String> packages;

    AdapterLoader(URI location, Module module, ClassLoader parent) {
      super("tck-class-path-" + module.getName(), new URL[] {url(location)}, parent);
      this.module = module;
      this.packages = module.getPackages();
    }

    private static URL url(URI location) {
      try {
        return location.toURL();
      } catch (MalformedURLException e) {
        throw new AssertionError("cannot load from " + location, e);
      }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      int dot = name.lastIndexOf('.');
      if (dot < 0 || !packages.contains(name.substring(0, dot))) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      return name.startsWith("META-INF/services/") ? findResources(name) : super.getResources(name);
    }
  }
}
