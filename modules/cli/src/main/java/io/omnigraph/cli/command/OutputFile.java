package io.omnigraph.cli.command;

import io.omnigraph.cli.CliFailure;
import io.omnigraph.cli.ExitCode;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The file a command's {@code --out} names, written without destroying what is there.
 *
 * <p>Only a regular file, or a path where nothing exists yet, is replaced atomically: the output is
 * written to a hidden sibling and renamed over the path once complete, so a reader never sees half
 * an export and a failed export leaves the old file. A new file gets the mode the user's umask
 * gives; a replaced file keeps its mode. Anything else is written straight through and never
 * replaced: a symbolic link writes to its target (the link stays), a FIFO or a device receives the
 * bytes. A missing directory and a directory at the path are usage errors.
 */
final class OutputFile implements Closeable {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path target;
  private final Path staged;
  private final OutputStream stream;
  private boolean committed;

  private OutputFile(Path target, Path staged, OutputStream stream) {
    this.target = target;
    this.staged = staged;
    this.stream = stream;
  }

  /**
   * Opens {@code path} for writing. A FIFO blocks here until it has a reader, as any writer does.
   *
   * @throws CliFailure a usage error for a missing parent directory or a directory at the path; a
   *     storage error (exit 4) naming the path when permissions forbid the write
   */
  static OutputFile open(Path path) throws IOException {
    Path target = path.toAbsolutePath();
    BasicFileAttributes existing = attributes(target);
    if (existing != null && existing.isDirectory()) {
      throw CliFailure.usage("cannot write " + target + ": it is a directory");
    }
    if (existing != null && !existing.isRegularFile()) {
      // A symbolic link (to anything), a FIFO, a device or a socket: write through, never replace.
      if (!existing.isSymbolicLink() || !Files.isDirectory(target)) {
        return new OutputFile(target, null, writeThrough(target, existing.isSymbolicLink()));
      }
      throw CliFailure.usage("cannot write " + target + ": it links to a directory");
    }
    Path dir = target.getParent();
    if (!Files.isDirectory(dir)) {
      throw new CliFailure(ExitCode.USAGE, "output_dir_not_found",
          "cannot write " + target + ": directory " + dir + " does not exist");
    }
    Path staged = dir.resolve("." + target.getFileName() + "." + HexFormat.of().toHexDigits(RANDOM.nextLong())
        + ".partial");
    OutputStream stream;
    try {
      // Created like any new file, so the mode is what the umask allows (not createTempFile's 0600).
      stream = Files.newOutputStream(staged, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (AccessDeniedException e) {
      throw permissionDenied(target, "create a file in directory " + dir);
    }
    if (existing != null) {
      keepMode(target, staged);
    }
    return new OutputFile(target, staged, new BufferedOutputStream(stream));
  }

  /** @return where the bytes go */
  OutputStream stream() {
    return stream;
  }

  /** Finishes the output: flushes, and for a replaced file renames the complete copy over the path. */
  void commit() throws IOException {
    stream.close();
    if (staged != null) {
      try {
        Files.move(staged, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AccessDeniedException e) {
        throw permissionDenied(target, "replace the file");
      }
    }
    committed = true;
  }

  /** Without {@link #commit()}: drops the staged copy, so the path keeps what it had. */
  @Override
  public void close() throws IOException {
    if (committed) {
      return;
    }
    try {
      stream.close();
    } finally {
      if (staged != null) {
        Files.deleteIfExists(staged);
      }
    }
  }

  private static OutputStream writeThrough(Path target, boolean link) throws IOException {
    try {
      // No CREATE for a FIFO or device (it exists); a dangling link creates its target, as a shell
      // redirection does. TRUNCATE_EXISTING only matters for a link to a regular file.
      return link
          ? Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)
          : Files.newOutputStream(target, StandardOpenOption.WRITE);
    } catch (AccessDeniedException e) {
      throw permissionDenied(target, "open for writing");
    } catch (NoSuchFileException e) {
      throw new CliFailure(ExitCode.USAGE, "output_dir_not_found",
          "cannot write " + target + ": it links to " + e.getFile() + ", whose directory does not exist");
    } catch (FileSystemException e) {
      throw new CliFailure(ExitCode.STORAGE, "io", "cannot write " + target + ": " + e.getReason());
    }
  }

  private static BasicFileAttributes attributes(Path target) throws IOException {
    try {
      return Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static void keepMode(Path from, Path to) throws IOException {
    PosixFileAttributeView source = Files.getFileAttributeView(from, PosixFileAttributeView.class);
    PosixFileAttributeView copy = Files.getFileAttributeView(to, PosixFileAttributeView.class);
    if (source != null && copy != null) {
      copy.setPermissions(source.readAttributes().permissions());
    }
  }

  private static CliFailure permissionDenied(Path target, String operation) {
    return new CliFailure(ExitCode.STORAGE, "permission_denied",
        "cannot write " + target + ": permission denied (" + operation + ")");
  }
}
