package io.omnigraph.nativelib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-user native-library cache, on a fake library inside a real jar in a temp folder. */
class NativeLibraryCacheTest {
  static final String ENTRY = "nativelib/test-arch/libfake.so";

  @TempDir Path tmp;
  Path root;
  byte[] library;
  URL url;

  @BeforeEach
  void jarWithALibrary() throws IOException {
    assumeTrue(Files.getFileStore(tmp).supportsFileAttributeView("posix"), "a POSIX file system");
    library = new byte[1 << 20];
    new Random(7).nextBytes(library);
    url = jar(tmp.resolve("fake-lib-1.0.jar"), library);
    root = tmp.resolve("cache");
  }

  private static URL jar(Path jar, byte[] content) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry(ENTRY));
      out.write(content);
      out.closeEntry();
    }
    return new URL("jar:" + jar.toUri() + "!/" + ENTRY);
  }

  @Test
  void theFirstRunExtractsAPrivateCopyAndLaterRunsReuseIt() throws IOException {
    Path first = NativeLibraryCache.locate(url, root);
    Object inode = Files.readAttributes(first, "unix:ino").get("ino");

    Path second = NativeLibraryCache.locate(url, root);

    assertThat(first).startsWith(root).hasFileName("libfake.so");
    assertThat(first.getParent().getFileName().toString()).startsWith("fake-lib-1.0-test-arch-");
    assertThat(Files.readAllBytes(first)).isEqualTo(library);
    assertThat(second).isEqualTo(first);
    assertThat(Files.readAttributes(second, "unix:ino").get("ino")).as("not extracted again").isEqualTo(inode);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.getParent()))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first))).isEqualTo("r-x------");
  }

  @Test
  void anotherBuildOfTheLibraryGetsItsOwnEntry() throws IOException {
    byte[] other = library.clone();
    other[12345] ^= 1;
    Files.createDirectory(tmp.resolve("v2"));
    URL otherUrl = jar(tmp.resolve("v2").resolve("fake-lib-1.0.jar"), other);

    Path a = NativeLibraryCache.locate(url, root);
    Path b = NativeLibraryCache.locate(otherUrl, root);

    assertThat(b.getParent()).isNotEqualTo(a.getParent());
    assertThat(Files.readAllBytes(a)).isEqualTo(library);
    assertThat(Files.readAllBytes(b)).isEqualTo(other);
  }

  @Test
  void concurrentFirstRunsAllGetTheSameCompleteCopy() throws Exception {
    int runs = 6;
    CyclicBarrier start = new CyclicBarrier(runs);
    ExecutorService pool = Executors.newFixedThreadPool(runs);
    try {
      List<Future<Path>> results = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        results.add(pool.submit((Callable<Path>) () -> {
          start.await();
          return NativeLibraryCache.locate(url, root);
        }));
      }
      Path expected = results.get(0).get();
      for (Future<Path> r : results) {
        assertThat(r.get()).isEqualTo(expected);
      }
      assertThat(Files.readAllBytes(expected)).isEqualTo(library);
      try (Stream<Path> files = Files.list(expected.getParent())) {
        assertThat(files).as("no temporary files left").containsExactly(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aTruncatedCopyFromACrashIsReplacedWhole() throws IOException {
    Path lib = NativeLibraryCache.locate(url, root);
    Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rw-------"));
    try (OutputStream out = Files.newOutputStream(lib)) {
      out.write(library, 0, 1000);
    }

    Path again = NativeLibraryCache.locate(url, root);

    assertThat(again).isEqualTo(lib);
    assertThat(Files.readAllBytes(again)).isEqualTo(library);
  }

  @Test
  void aCacheDirectoryOthersCanWriteIsRefusedAndNothingInItIsTouched() throws IOException {
    Files.createDirectories(root);
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path planted = Files.writeString(root.resolve("someone-elses-file"), "x");

    assertThatThrownBy(() -> NativeLibraryCache.locate(url, root))
        .isInstanceOf(IOException.class).hasMessageContaining("writable by other users");
    try (Stream<Path> files = Files.list(root)) {
      assertThat(files).containsExactly(planted);
    }
  }

  @Test
  void aLinkInPlaceOfTheLibraryIsRefusedAndKept() throws IOException {
    Path lib = NativeLibraryCache.locate(url, root);
    Path elsewhere = Files.write(tmp.resolve("elsewhere.so"), library);
    Files.delete(lib);
    Files.createSymbolicLink(lib, elsewhere);

    assertThatThrownBy(() -> NativeLibraryCache.locate(url, root))
        .isInstanceOf(IOException.class).hasMessageContaining("not a regular file");
    assertThat(Files.isSymbolicLink(lib)).isTrue();
  }

  @Test
  void anEntryOwnedByAnotherUserIsRefusedAndNotDeleted() throws IOException {
    assumeTrue(CurrentUser.uid() == 0, "only root can give a directory to another user");
    Path lib = NativeLibraryCache.locate(url, root);
    Files.setAttribute(lib.getParent(), "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(lib, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

    assertThatThrownBy(() -> NativeLibraryCache.locate(url, root))
        .isInstanceOf(IOException.class).hasMessageContaining("belongs to another user");
    assertThat(Files.readAllBytes(lib)).isEqualTo(library);
  }

  @Test
  void onlyOldTemporaryFilesOfAKilledExtractionAreSwept() throws IOException {
    Path lib = NativeLibraryCache.locate(url, root);
    Path dir = lib.getParent();
    Path old = Files.writeString(dir.resolve(".libfake.so.1-dead.tmp"), "partial");
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    Path live = Files.writeString(dir.resolve(".libfake.so.2-live.tmp"), "in progress");
    Files.delete(lib); // forces an extraction, which sweeps

    NativeLibraryCache.locate(url, root);

    assertThat(old).doesNotExist();
    assertThat(live).exists();
    assertThat(Files.readAllBytes(lib)).isEqualTo(library);
  }
}
