package io.omnigraph.engine.storage;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * Gives the files Lance writes natively on local disk the read bits the process umask grants a new
 * file (docs/cli.md, "File modes"). Lance stages its data, transaction, deletion, index and
 * version-hint files as private temporary files (mode 0600) and renames them into place, so without
 * this another user with read permission on the graph could list it but not read its rows; files
 * this engine writes through the storage adapter already get {@code 0666 & ~umask}.
 *
 * <p>Every writer publishes through {@code manifest/ManifestPublisher}, which hands the files each
 * published version added to {@link CommitDurability}; that fixes their modes next to syncing them,
 * so the cost is one {@code stat} (and at most one {@code chmod}) per new file. A native Lance branch
 * (a graph branch's {@code __manifest} fork, a table's lazy fork) is created outside any published
 * version: {@code table/TableWriter.createBranch} calls {@link #nativeBranch} for its few files.
 * Writers that make intermediate table versions (optimize's compaction and index folds, and its
 * {@code __manifest} compaction after the publish; an ordered merge of more than one chunk per table) call
 * {@link #walk} afterwards, which visits every file of the graph.
 *
 * <p>Only read bits (and, on directories, search bits) are added, never write bits, and only to
 * files owned by this process's user: another user's files in a shared graph keep their modes.
 */
public final class LocalFileModes {
  private static final int UMASK = readUmask();
  private static final Set<PosixFilePermission> FILE_BITS = bits(0444 & ~UMASK);
  private static final Set<PosixFilePermission> DIR_BITS = bits(0555 & ~UMASK);
  private static final String USER = System.getProperty("user.name");

  private LocalFileModes() {}

  /** @return the process umask from {@code /proc/self/status} (Linux), or 022 where there is none */
  public static int umask() {
    return UMASK;
  }

  private static int readUmask() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring(6).strip(), 8);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no /proc: the common default (documented in docs/cli.md, "File modes")
    }
    return 0022;
  }

  /**
   * Adds the umask's read bits to each of {@code paths} (root-relative regular files).
   *
   * @throws StorageFailureException a mode could not be changed
   */
  static void files(Path root, Collection<String> paths) {
    if (!posix(root)) {
      return;
    }
    for (String p : paths) {
      Path file = root.resolve(p);
      try {
        add(file, FILE_BITS);
      } catch (IOException e) {
        throw failure(file, e);
      }
    }
  }

  /**
   * Adds the umask's read bits to every file, and read and search bits to every directory, of the
   * local graph at {@code root}; does nothing for an object-store root.
   *
   * @throws StorageFailureException a mode could not be changed or a directory not read
   */
  public static void walk(GraphRoot root) {
    if (!root.localFiles()) {
      return;
    }
    walk(Path.of(CommitDurability.localRoot(root)));
  }

  /**
   * After Lance created the native branch {@code name} of the dataset at {@code main} (a graph
   * branch's {@code __manifest} fork, or a table's lazy fork on its first write on a branch): its
   * {@code _refs/branches/} record and its {@code tree/<name>/} versions get the umask's read bits.
   * Does nothing for a dataset that is not a local directory.
   */
  public static void nativeBranch(io.omnigraph.api.storage.LanceLocation main, String name) {
    String uri = main.uri();
    if (!uri.startsWith("file:") && !uri.startsWith("/")) {
      return;
    }
    Path dataset = Path.of(CommitDurability.decodedPath(uri, ""));
    walk(dataset.resolve("_refs"));
    walk(dataset.resolve("tree").resolve(name));
  }

  static void walk(Path root) {
    if (!Files.isDirectory(root) || !posix(root)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
          add(dir, DIR_BITS);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          if (attrs.isRegularFile()) {
            add(file, FILE_BITS);
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE; // a temporary file a concurrent writer renamed meanwhile
          }
          throw e;
        }
      });
    } catch (IOException e) {
      throw failure(root, e);
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static void add(Path p, Set<PosixFilePermission> wanted) throws IOException {
    try {
      PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      PosixFileAttributes attrs = view.readAttributes(); // one stat: mode and owner
      if (attrs.isSymbolicLink() || attrs.permissions().containsAll(wanted) || !attrs.owner().getName().equals(USER)) {
        return;
      }
      Set<PosixFilePermission> next = EnumSet.copyOf(attrs.permissions());
      next.addAll(wanted);
      view.setPermissions(next);
    } catch (NoSuchFileException e) {
      // gone meanwhile (a renamed temporary file, or a version cleanup removed it): nothing to share
    }
  }

  private static StorageFailureException failure(Path p, IOException e) {
    return new StorageFailureException("cannot give " + p + " the read permissions of the umask: " + e.getMessage(),
        new ErrorDetail.Storage("PERMISSION", p.toString()), e);
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
