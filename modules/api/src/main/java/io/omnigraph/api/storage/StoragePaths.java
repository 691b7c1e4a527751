package io.omnigraph.api.storage;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.regex.Pattern;

/**
 * The one path validator of the SPI, shared by every adapter so that every backend accepts and
 * refuses exactly the same addresses.
 *
 * <p>A path is relative to the adapter's root and made of {@code /}-separated segments. Refused
 * with {@link StorageException.Kind#INVALID_PATH}: the empty path, absolute paths, empty segments
 * ({@code a//b}, a trailing {@code /}), the segments {@code .} and {@code ..}, backslashes,
 * control characters (U+0000–U+001F, U+007F), and temp names — a final segment ending in
 * {@code #} followed by one or more digits, which is what the file-system adapter's in-flight
 * writes are called. Refusing temp names as addresses means a crash residue can never be read,
 * listed or overwritten as if it were real data.
 */
public final class StoragePaths {
  private static final Pattern TEMP_NAME = Pattern.compile(".*#[0-9]+");

  /** Orders names by their UTF-8 bytes, the order object stores list in. */
  public static final Comparator<String> UTF8_ORDER = StoragePaths::compareUtf8;

  private StoragePaths() {}

  /**
   * Validates an object path.
   *
   * @return {@code path}, unchanged
   * @throws StorageException of kind {@code INVALID_PATH} when the path is not a legal object address
   */
  public static String validate(String path) throws StorageException {
    if (path == null || path.isEmpty()) {
      throw invalid(path, "path is empty");
    }
    checkSegments(path);
    if (isTempName(path)) {
      throw invalid(path, "final segment is a temp name (ends in '#' and digits)");
    }
    return path;
  }

  /**
   * Validates a directory (prefix) path for {@code list} and {@code deletePrefix}. The empty
   * string means the root; a single trailing {@code /} is tolerated and removed.
   *
   * @return the normalized directory path without a trailing {@code /} ({@code ""} for the root)
   * @throws StorageException of kind {@code INVALID_PATH}
   */
  public static String validateDirectory(String dir) throws StorageException {
    if (dir == null) {
      throw invalid(null, "directory is null");
    }
    String d = dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
    if (d.isEmpty()) {
      if (!dir.isEmpty()) {
        throw invalid(dir, "absolute paths are not allowed");
      }
      return "";
    }
    checkSegments(d);
    if (isTempName(d)) {
      throw invalid(dir, "final segment is a temp name (ends in '#' and digits)");
    }
    return d;
  }

  /** @return whether the final segment of {@code path} is a temp name ({@code name#<digits>}) */
  public static boolean isTempName(String path) {
    int slash = path.lastIndexOf('/');
    return TEMP_NAME.matcher(path.substring(slash + 1)).matches();
  }

  /** @return {@code dir + "/" + name}, or {@code name} when {@code dir} is the root ({@code ""}) */
  public static String join(String dir, String name) {
    return dir.isEmpty() ? name : dir + "/" + name;
  }

  /** @return the final segment of {@code path} */
  public static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Compares two strings by their UTF-8 encodings, byte by byte (unsigned). */
  public static int compareUtf8(String a, String b) {
    byte[] x = a.getBytes(StandardCharsets.UTF_8);
    byte[] y = b.getBytes(StandardCharsets.UTF_8);
    int n = Math.min(x.length, y.length);
    for (int i = 0; i < n; i++) {
      int c = Integer.compare(x[i] & 0xff, y[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private static void checkSegments(String path) throws StorageException {
    if (path.startsWith("/")) {
      throw invalid(path, "absolute paths are not allowed");
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\\') {
        throw invalid(path, "backslashes are not allowed");
      }
      if (c < 0x20 || c == 0x7f) {
        throw invalid(path, "control characters are not allowed (U+" + String.format("%04X", (int) c) + ")");
      }
    }
    for (String seg : path.split("/", -1)) {
      if (seg.isEmpty()) {
        throw invalid(path, "empty path segment");
      }
      if (seg.equals(".") || seg.equals("..")) {
        throw invalid(path, "'" + seg + "' segments are not allowed");
      }
    }
  }

  private static StorageException invalid(String path, String why) {
    return new StorageException(StorageException.Kind.INVALID_PATH, path, why);
  }
}
