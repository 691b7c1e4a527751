package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A complete binding for an adapter whose objects are local files below a directory root (such as
 * the built-in {@code file} adapter): a fresh directory per test, faults injected at the adapter's
 * own I/O points through an {@link IoHookFaultController} (the provider must implement
 * {@link StorageAdapterProvider#openWithIoHook}), residue left as the temp file an interrupted
 * write leaves ({@link LocalTempFileResidue}), and each test's directory deleted afterwards.
 */
public final class LocalDirectoryBinding implements StorageTckBinding {
  private final String name;
  private final StorageAdapterProvider provider;
  private final Path work;
  private final Map<String, String> options;
  private final IoHookFaultController faults = new IoHookFaultController();

  /**
   * @param name the name for reports
   * @param provider the adapter's provider; roots are opened with {@code openWithIoHook(dir.toUri(), options, faults)}
   * @param work the directory below which each test gets a fresh directory
   * @param options the adapter options of every root (e.g. a small {@code list-page-size})
   */
  public LocalDirectoryBinding(String name, StorageAdapterProvider provider, Path work, Map<String, String> options) {
    this.name = name;
    this.provider = provider;
    this.work = work.toAbsolutePath();
    this.options = Map.copyOf(options);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StorageAdapter openEmptyRoot() throws Exception {
    Path root = Files.createDirectories(work.resolve(UUID.randomUUID().toString()));
    return provider.openWithIoHook(root.toUri(), options, faults);
  }

  /** Deletes what the test wrote and the test's directory, so repeated builds do not pile up files. */
  @Override
  public void discardRoot(StorageAdapter adapter) throws Exception {
    adapter.deletePrefix("");
    Path root = Path.of(URI.create(adapter.lanceLocation("x").uri())).getParent();
    try (var left = Files.list(root)) {
      if (left.findAny().isEmpty()) {
        Files.delete(root);
      }
    }
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of(new LocalTempFileResidue());
  }
}
