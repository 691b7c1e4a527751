package io.omnigraph.api.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Finds the {@link StorageAdapterProvider} for a URI's scheme and opens the root.
 *
 * <p>Discovery is strict: zero providers for a scheme is a {@code CONFIGURATION} error naming the
 * scheme and every scheme that is available; two or more providers for one scheme is a
 * {@code CONFIGURATION} error naming every candidate class. It never picks one silently.
 *
 * <p>Providers are looked up in the given module layer (and its parents) and through the given
 * class loader, so both named modules on the module path and plain jars on the class path are
 * found. The same provider class seen both ways counts once.
 */
public final class StorageAdapters {
  private StorageAdapters() {}

  /**
   * Opens a root given as a URI string or a plain local path ({@code /tmp/g}, {@code ./g},
   * {@code g}), which means the {@code file} scheme.
   */
  public static StorageAdapter open(String uriOrPath, Map<String, String> options) throws StorageException {
    return open(toUri(uriOrPath), options);
  }

  /** Opens a root, discovering providers in the caller's module layer and the context class loader. */
  public static StorageAdapter open(URI root, Map<String, String> options) throws StorageException {
    return open(root, options, defaultLayer(), Thread.currentThread().getContextClassLoader());
  }

  /**
   * Opens a root, discovering providers in {@code layer} (may be {@code null}) and through
   * {@code loader} (may be {@code null}).
   */
  public static StorageAdapter open(URI root, Map<String, String> options, ModuleLayer layer, ClassLoader loader)
      throws StorageException {
    String scheme = scheme(root);
    return provider(scheme, layer, loader).open(root, options == null ? Map.of() : Map.copyOf(options));
  }

  /** @return the single provider for {@code scheme}, found as {@link #open(URI, Map)} would */
  public static StorageAdapterProvider provider(String scheme) throws StorageException {
    return provider(scheme, defaultLayer(), Thread.currentThread().getContextClassLoader());
  }

  /** @return the single provider for {@code scheme}, found in {@code layer} and through {@code loader} */
  public static StorageAdapterProvider provider(String scheme, ModuleLayer layer, ClassLoader loader)
      throws StorageException {
    Map<String, List<StorageAdapterProvider>> byScheme = providersByScheme(layer, loader);
    List<StorageAdapterProvider> candidates = byScheme.getOrDefault(scheme.toLowerCase(Locale.ROOT), List.of());
    if (candidates.isEmpty()) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null,
          "no storage adapter for scheme '" + scheme + "'; available schemes: "
              + (byScheme.isEmpty() ? "(none: put an adapter module on the module path or class path)"
                  : String.join(", ", byScheme.keySet())));
    }
    if (candidates.size() > 1) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null,
          "more than one storage adapter for scheme '" + scheme + "': "
              + candidates.stream().map(p -> p.getClass().getName()).sorted().collect(Collectors.joining(", "))
              + "; remove all but one from the module path / class path");
    }
    return candidates.get(0);
  }

  /** @return every discoverable provider, keyed by scheme (sorted), each list in discovery order */
  public static Map<String, List<StorageAdapterProvider>> providersByScheme(ModuleLayer layer, ClassLoader loader)
      throws StorageException {
    Map<String, StorageAdapterProvider> byClass = new LinkedHashMap<>();
    try {
      if (layer != null) {
        for (StorageAdapterProvider p : ServiceLoader.load(layer, StorageAdapterProvider.class)) {
          byClass.putIfAbsent(key(p), p);
        }
      }
      for (StorageAdapterProvider p : ServiceLoader.load(StorageAdapterProvider.class, loader)) {
        byClass.putIfAbsent(key(p), p);
      }
    } catch (ServiceConfigurationError e) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null,
          "a storage adapter provider could not be loaded: " + e.getMessage(), e);
    }
    Map<String, List<StorageAdapterProvider>> byScheme = new TreeMap<>();
    for (StorageAdapterProvider p : byClass.values()) {
      for (String s : new TreeSet<>(p.schemes())) {
        byScheme.computeIfAbsent(s.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(p);
      }
    }
    return byScheme;
  }

  /**
   * Turns a URI string or a plain local path into a URI. Strings with a scheme of two or more
   * letters ({@code s3://b/p}, {@code file:///tmp/g}) are parsed as URIs; anything else is a
   * local path, made absolute.
   *
   * @throws StorageException {@code CONFIGURATION} for a malformed URI
   */
  public static URI toUri(String uriOrPath) throws StorageException {
    if (uriOrPath == null || uriOrPath.isBlank()) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null, "storage root is empty");
    }
    if (uriOrPath.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*")) {
      try {
        return new URI(uriOrPath);
      } catch (URISyntaxException e) {
        throw new StorageException(StorageException.Kind.CONFIGURATION, null,
            "malformed storage URI '" + uriOrPath + "': " + e.getMessage(), e);
      }
    }
    return Path.of(uriOrPath).toAbsolutePath().normalize().toUri();
  }

  private static String scheme(URI root) throws StorageException {
    if (root == null || root.getScheme() == null) {
      throw new StorageException(StorageException.Kind.CONFIGURATION, null,
          "storage root has no scheme: " + root + " (use file:///path, s3://bucket/prefix, gs://..., az://...)");
    }
    return root.getScheme().toLowerCase(Locale.ROOT);
  }

  private static String key(StorageAdapterProvider p) {
    Class<?> c = p.getClass();
    return c.getName() + "@" + System.identityHashCode(c);
  }

  private static ModuleLayer defaultLayer() {
    ModuleLayer layer = StorageAdapters.class.getModule().getLayer();
    return layer != null ? layer : ModuleLayer.boot();
  }
}
