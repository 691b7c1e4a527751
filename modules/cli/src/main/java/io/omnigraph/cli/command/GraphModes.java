package io.omnigraph.cli.command;

import io.omnigraph.api.storage.StorageAdapters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * After a write on a local graph, gives every file and directory of the graph the read (and, for
 * directories, search) bits the user's umask grants a new file — so another user with read access
 * can read the graph (docs/cli.md, "File modes"). Lance stages its data, transaction, deletion and
 * version-hint files as private temporary files (mode 0600) and renames them into place; the
 * engine never sees their names, so the CLI fixes the modes of the whole graph after each write.
 * Only read/search bits are added, never write bits, and only for files this user owns.
 */
final class GraphModes {
  private GraphModes() {}

  /** @return the process umask from {@code /proc/self/status} (Linux), or 022 */
  static int umask() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring(6).strip(), 8);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no /proc: the common default
    }
    return 0022;
  }

  /**
   * @param uri the graph root the command wrote (non-local roots are left alone)
   */
  static void afterWrite(String uri) {
    Path root;
    try {
      URI u = StorageAdapters.toUri(uri);
      if (!"file".equals(u.getScheme())) {
        return;
      }
      root = Path.of(u);
    } catch (Exception e) {
      return; // not a root this command could have opened: nothing was written
    }
    if (!Files.isDirectory(root) || !root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return;
    }
    int umask = umask();
    Set<PosixFilePermission> fileBits = bits(0444 & ~umask);
    Set<PosixFilePermission> dirBits = bits(0555 & ~umask);
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
          add(dir, dirBits);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          if (attrs.isRegularFile()) {
            add(file, fileBits);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE; // a temporary file another writer renamed meanwhile
          }
          throw e;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("the write succeeded, but making " + root + " readable per the umask failed", e);
    }
  }

  private static void add(Path p, Set<PosixFilePermission> wanted) throws IOException {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
      if (perms.containsAll(wanted)) {
        return;
      }
      if (!Files.getOwner(p).getName().equals(System.getProperty("user.name"))) {
        return; // another user's file in a shared graph keeps its mode
      }
      Set<PosixFilePermission> next = EnumSet.copyOf(perms);
      next.addAll(wanted);
      Files.setPosixFilePermissions(p, next);
    } catch (NoSuchFileException e) {
      // gone meanwhile (a renamed temporary file)
    }
  }

  private static Set<PosixFilePermission> bits(int mode) {
    Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
    for (int i = 0; i < order.length; i++) {
      if ((mode & (1 << i)) != 0) {
        s.add(order[i]);
      }
    }
    return s;
  }
}
