package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The file-system adapter's TCK binding: a fresh directory per test, faults injected at the
 * adapter's real I/O points through {@link IoHookFaultController}, and residue written as the temp file an
 * interrupted write leaves ({@code <name>#<digits>} next to the target).
 *
 * <p>Listing pages are set to {@value #PAGE_SIZE} entries, so the 1,000-child listing spans ten
 * pages and a "later page" fault hits a real later page fetch.
 */
final class FsTckBinding implements StorageTckBinding {
  static final int PAGE_SIZE = 100;
  private static final Path WORK = Path.of(System.getProperty("omnigraph.tck.workDir", "target/tck-fs"))
      .toAbsolutePath();

  private final StorageAdapterProvider provider;
  private final IoHookFaultController faults = new IoHookFaultController();

  FsTckBinding(StorageAdapterProvider provider) {
    this.provider = provider;
  }

  @Override
  public String name() {
    return "fs";
  }

  @Override
  public synchronized StorageAdapter openEmptyRoot() throws Exception {
    Path root = WORK.resolve(UUID.randomUUID().toString());
    Files.createDirectories(root);
    StorageAdapter adapter = provider.openWithIoHook(root.toUri(), Map.of("list-page-size", Integer.toString(PAGE_SIZE)),
        faults);
    return adapter;
  }

  /** Deletes the test's directory, so repeated builds do not pile up thousands of small files. */
  @Override
  public void discardRoot(StorageAdapter adapter) throws Exception {
    adapter.deletePrefix("");
    Path root = Path.of(java.net.URI.create(adapter.lanceLocation("x").uri())).getParent();
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
