package io.omnigraph.conformance.runner;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageIoHook;
import io.omnigraph.conformance.FaultController;
import io.omnigraph.conformance.IoHookFaultController;
import io.omnigraph.conformance.LocalTempFileResidue;
import io.omnigraph.conformance.StorageTckBinding;
import java.util.Optional;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Binds the suite to sub-prefixes of a user's URI: each test gets {@code <uri>/<run>/t<n>}, a
 * prefix no earlier test or run used, so it starts empty.
 *
 * <p>Faults: when the adapter's provider implements
 * {@link StorageAdapterProvider#openWithIoHook} (adapters that do their own I/O, such as the
 * file-system adapter), roots are opened with an {@link IoHookFaultController}; otherwise there is
 * no fault controller — a vendor's real store cannot be made to fail on cue without a
 * {@link io.omnigraph.conformance.TckBindingProvider} — and those tests fail in strict mode (are
 * skipped with {@code --allow-skips}). Residue: only for adapters whose objects are local files.
 */
final class UriRootBinding implements StorageTckBinding {
  private final String base;
  private final String runPrefix;
  private final Map<String, String> options;
  private final AtomicInteger next = new AtomicInteger();
  private final StorageAdapterProvider provider;
  private final IoHookFaultController faults;
  private final boolean local;

  UriRootBinding(URI baseUri, String runPrefix, Map<String, String> options, StorageAdapter probe)
      throws StorageException {
    String s = baseUri.toString();
    this.base = s.endsWith("/") ? s : s + "/";
    this.runPrefix = runPrefix;
    this.options = Map.copyOf(options);
    this.provider = StorageAdapters.provider(baseUri.getScheme());
    this.faults = supportsIoHook(provider) ? new IoHookFaultController() : null;
    this.local = LocalTempFileResidue.applies(probe);
  }

  private static boolean supportsIoHook(StorageAdapterProvider provider) {
    try {
      return provider.getClass().getMethod("openWithIoHook", URI.class, Map.class, StorageIoHook.class)
          .getDeclaringClass() != StorageAdapterProvider.class;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("StorageAdapterProvider.openWithIoHook is part of the SPI", e);
    }
  }

  /** @return a one-line description of the hooks this binding can offer, for the report */
  String hooks() {
    return "faults " + (faults != null ? "injected through the adapter's I/O hook" : "unavailable")
        + "; residue " + (local ? "as local temp files" : "unavailable");
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.ofNullable(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return local ? Optional.of(new LocalTempFileResidue()) : Optional.empty();
  }

  @Override
  public String name() {
    return base;
  }

  @Override
  public StorageAdapter openEmptyRoot() throws StorageException {
    URI root = URI.create(base + runPrefix + "/t" + next.incrementAndGet());
    return faults != null ? provider.openWithIoHook(root, options, faults) : provider.open(root, options);
  }
}
