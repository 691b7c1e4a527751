package io.omnigraph.engine.storage;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.table.ProvenAdoption;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * Adopts a data file into another ref's {@code data/} directory on a root whose adapter keeps local
 * files (docs/branches.md, "The proven-insert route"): a hard link, so no byte is copied; where the
 * file system refuses one, a copy under a temporary name, then an atomic rename. Data files are
 * immutable and named by a fresh UUID, so a file already at the destination is this very file from
 * an earlier attempt (relinked or replaced, never appended to). Both paths must lie below the graph
 * root. Durability is the caller's: the adopted file and its directory entry are synced with the
 * version that refers to them (docs/write-protocol.md, "Durability").
 */
public final class LocalFileAdoption implements ProvenAdoption.FileAdopter {
  private final Path root;

  private LocalFileAdoption(Path root) {
    this.root = root;
  }

  /** @return the adopter of a local root; empty on object stores (their merges re-stage the rows) */
  public static Optional<ProvenAdoption.FileAdopter> of(GraphRoot root) {
    if (!root.localFiles()) {
      return Optional.empty();
    }
    return Optional.of(new LocalFileAdoption(Path.of(CommitDurability.localRoot(root)).toAbsolutePath().normalize()));
  }

  @Override
  public void adopt(LanceLocation from, LanceLocation to, String dataFile) {
    Path src = below(from, dataFile);
    Path dst = below(to, dataFile);
    try {
      Files.createDirectories(dst.getParent());
      try {
        Files.createLink(dst, src);
        return;
      } catch (FileAlreadyExistsException e) {
        if (Files.isSameFile(dst, src)) {
          return; // an earlier attempt's link
        }
      } catch (UnsupportedOperationException | IOException e) {
        // no hard links here (another file system, a mount that refuses them): copy below
      }
      Path tmp = dst.resolveSibling("." + dst.getFileName() + "." + UUID.randomUUID() + ".adopt");
      try {
        Files.copy(src, tmp);
        Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new StorageFailureException("cannot adopt data file " + src + " into " + dst.getParent() + ": "
          + e.getMessage(), new ErrorDetail.Storage("PERMANENT", root.relativize(dst).toString()), e);
    }
  }

  private Path below(LanceLocation dataset, String dataFile) {
    Path p = Path.of(CommitDurability.decodedPath(dataset.uri(), "")).toAbsolutePath().normalize()
        .resolve("data").resolve(dataFile).normalize();
    if (!p.startsWith(root) || dataFile.isEmpty()) {
      throw new IllegalArgumentException("data file " + dataFile + " of " + dataset.uri() + " is not below the graph root "
          + root);
    }
    return p;
  }
}
