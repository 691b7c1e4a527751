package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Leaves the residue of an interrupted local write: the file {@code <path>#<digits>} holding the
 * partial bytes, next to where {@code path} lives. The target's file is found through
 * {@link StorageAdapter#lanceLocation}, which for a local-filesystem adapter is a {@code file:} URI.
 */
public final class LocalTempFileResidue implements StorageTckBinding.ResidueMaker {

  /** Creates the residue maker. */
  public LocalTempFileResidue() {}

  /** @return whether {@code adapter} stores objects as local files, so that residue is possible */
  public static boolean applies(StorageAdapter adapter) {
    return adapter.capabilities().localFilesystem();
  }

  @Override
  public String leaveResidue(StorageAdapter adapter, String path, byte[] partialBytes) throws Exception {
    URI target = URI.create(adapter.lanceLocation(path).uri());
    if (!"file".equals(target.getScheme())) {
      throw new IllegalArgumentException("not a local-filesystem adapter: lanceLocation is " + target);
    }
    String suffix = "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
    Path file = Path.of(target).resolveSibling(Path.of(target).getFileName() + suffix);
    Files.createDirectories(file.getParent());
    Files.write(file, partialBytes);
    return path + suffix;
  }
}
