package io.omnigraph.nativelib;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;

/**
 * Loads a native library shipped inside a jar from a per-user cache, extracting it only when the
 * cache has no copy of that exact library yet.
 *
 * <p>Lance's ~180 MB JNI library used to be inflated into a fresh temporary file by every process
 * (about 2 s of every JVM start: most of a short CLI call, and of a
 * small bulk load in a fresh JVM). Here it is extracted once per library build: the cache entry's name
 * carries the jar, the platform directory and the entry's CRC-32, so a new Lance version gets a new
 * entry and an old one is never loaded by mistake.
 *
 * <p>Safety rules, each one line:
 * <ul>
 *   <li>The cache is per user: {@code -Domnigraph.native.cache=<dir>}, else
 *       {@code $XDG_CACHE_HOME/omnigraph/native}, else {@code ~/.cache/omnigraph/native}; directories
 *       this class creates are mode 0700.</li>
 *   <li>The cache directory, the entry directory and the library must be owned by the current user
 *       and writable by nobody else, and the library must be a regular file (not a link) of the
 *       entry's size; otherwise the cache is not used and nothing in it is touched or deleted.</li>
 *   <li>Concurrent first runs are safe: each extracts to its own hidden temporary file, checks its
 *       CRC-32 and renames it into place atomically; a reader only ever sees a complete library.</li>
 *   <li>Only this user's leftover temporary files (from a killed extraction, older than an hour)
 *       inside this user's private entry directory are deleted.</li>
 *   <li>When the cache cannot be used, the library is extracted to a private temporary file that is
 *       deleted on exit (the old behaviour), with one warning on stderr.</li>
 * </ul>
 */
public final class NativeLibraryCache {
  /** System property naming the cache directory (the tests point it into {@code target/}). */
  public static final String CACHE_PROPERTY = "omnigraph.native.cache";

  private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> PRIVATE_LIB = PosixFilePermissions.fromString("r-x------");
  private static final Duration STALE_TEMP = Duration.ofHours(1);

  private static volatile boolean loaded;

  private NativeLibraryCache() {}

  /**
   * Loads the library at {@code resource} (an absolute resource name such as
   * {@code /nativelib/linux-x86-64/liblance_jni.so}) as {@code owner}'s class loader sees it.
   *
   * @throws UnsatisfiedLinkError when the resource is missing or cannot be loaded
   */
  public static void load(Class<?> owner, String resource) {
    URL url = owner.getResource(resource);
    if (url == null) {
      throw new UnsatisfiedLinkError("cannot find " + resource + " on the class path");
    }
    Path library;
    try {
      library = locate(url, cacheRoot());
    } catch (IOException | RuntimeException e) {
      System.err.println("omnigraph: the native library cache cannot be used (" + e.getMessage()
          + "); extracting " + resource + " to a temporary file");
      library = temporaryCopy(url);
    }
    // System.load ties the library to this class's loader, the class-path loader Lance's classes use.
    System.load(library.toAbsolutePath().toString());
    loaded = true;
  }

  /** @return whether this process has loaded a library through {@link #load} (Lance's, in practice) */
  public static boolean loaded() {
    return loaded;
  }

  /** @return the cache directory for this user (not created here) */
  public static Path cacheRoot() {
    String configured = System.getProperty(CACHE_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
        ? Path.of(xdg)
        : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("omnigraph").resolve("native");
  }

  /**
   * The cached file for the library at {@code url}, extracting it into {@code root} first when
   * needed. A {@code file:} URL (an unpacked class directory) is used where it is.
   *
   * @throws IOException when the cache cannot be used safely; nothing has been deleted then
   */
  public static Path locate(URL url, Path root) throws IOException {
    if ("file".equals(url.getProtocol())) {
      try {
        return Path.of(url.toURI());
      } catch (URISyntaxException e) {
        throw new IOException("bad library URL " + url, e);
      }
    }
    URLConnection connection = url.openConnection();
    if (!(connection instanceof JarURLConnection jar)) {
      throw new IOException("the library is not in a jar or a directory: " + url);
    }
    JarEntry entry = jar.getJarEntry();
    if (entry.getSize() < 0 || entry.getCrc() < 0) {
      throw new IOException("the jar does not record the size and CRC of " + entry.getName());
    }
    String entryName = entry.getName();
    String fileName = entryName.substring(entryName.lastIndexOf('/') + 1);
    Path entryDir = root.resolve(entryKey(jar.getJarFileURL(), entryName, entry.getCrc()));

    Files.createDirectories(root, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    requirePrivate(root.toRealPath());
    try {
      Files.createDirectory(entryDir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // Another run (or an earlier one) made it; checked next.
    }
    requirePrivate(entryDir);

    Path library = entryDir.resolve(fileName);
    if (isComplete(library, entry.getSize())) {
      return library;
    }
    sweepStaleTemporaries(entryDir);
    extract(url, entry, entryDir, library);
    return library;
  }

  /** The entry directory's name: the jar's name without {@code .jar}, the platform directory, the CRC-32. */
  static String entryKey(URL jarFile, String entryName, long crc) {
    String path = jarFile.getPath();
    String jarName = path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.jar$", "");
    String[] parts = entryName.split("/");
    String platform = parts.length >= 2 ? parts[parts.length - 2] : "lib";
    return sanitize(jarName) + "-" + sanitize(platform) + "-" + String.format(Locale.ROOT, "%08x", crc);
  }

  private static String sanitize(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private static boolean isComplete(Path library, long size) throws IOException {
    if (!Files.exists(library, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    if (Files.isSymbolicLink(library) || !Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(library + " is not a regular file");
    }
    requirePrivate(library);
    return Files.size(library) == size;
  }

  private static void extract(URL url, JarEntry entry, Path entryDir, Path library) throws IOException {
    // Unique per process and attempt; CREATE_NEW below refuses any name that exists anyway.
    Path temp = entryDir.resolve("." + library.getFileName() + "." + ProcessHandle.current().pid() + "-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
    try {
      CRC32 crc = new CRC32();
      try (InputStream in = new CheckedInputStream(url.openStream(), crc);
          OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        in.transferTo(out);
      }
      if (crc.getValue() != entry.getCrc() || Files.size(temp) != entry.getSize()) {
        throw new IOException("the extracted " + entry.getName() + " does not match its jar entry");
      }
      setPermissions(temp, PRIVATE_LIB);
      try {
        Files.move(temp, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("the cache's file system cannot rename atomically", e);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Deletes this user's temporary files left by a killed extraction (the directory is private). */
  private static void sweepStaleTemporaries(Path entryDir) throws IOException {
    FileTime cutoff = FileTime.from(Instant.now().minus(STALE_TEMP));
    try (DirectoryStream<Path> temps = Files.newDirectoryStream(entryDir, ".*.tmp")) {
      for (Path temp : temps) {
        try {
          BasicFileAttributes a = Files.readAttributes(temp, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (a.isRegularFile() && a.lastModifiedTime().compareTo(cutoff) < 0) {
            Files.deleteIfExists(temp);
          }
        } catch (NoSuchFileException e) {
          // a concurrent first run renamed (or removed) its temporary file meanwhile
        }
      }
    }
  }

  /** Refuses a path another user owns or may write. */
  static void requirePrivate(Path path) throws IOException {
    PosixFileAttributeView view =
        Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view == null) {
      return; // no POSIX ownership on this file system (e.g. Windows): nothing to check
    }
    PosixFileAttributes attributes = view.readAttributes();
    Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    long me = CurrentUser.uid();
    if (owner instanceof Integer uid && me >= 0 && uid.longValue() != me) {
      throw new IOException(path + " belongs to another user (uid " + uid + ")");
    }
    Set<PosixFilePermission> mode = attributes.permissions();
    if (mode.contains(PosixFilePermission.GROUP_WRITE) || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(path + " is writable by other users (" + PosixFilePermissions.toString(mode) + ")");
    }
  }

  private static void setPermissions(Path path, Set<PosixFilePermission> mode) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
    if (view != null) {
      view.setPermissions(mode);
    }
  }

  private static Path temporaryCopy(URL url) {
    try {
      String name = url.getPath().substring(url.getPath().lastIndexOf('/') + 1);
      int dot = name.indexOf('.');
      Path temp = Files.createTempFile(dot > 0 ? name.substring(0, dot) : name, dot > 0 ? name.substring(dot) : null);
      temp.toFile().deleteOnExit();
      try (InputStream in = url.openStream(); OutputStream out = Files.newOutputStream(temp)) {
        in.transferTo(out);
      }
      return temp;
    } catch (IOException e) {
      UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot extract " + url + ": " + e.getMessage());
      error.initCause(e);
      throw error;
    }
  }
}
