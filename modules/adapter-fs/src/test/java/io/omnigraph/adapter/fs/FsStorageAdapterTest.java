package io.omnigraph.adapter.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the fs adapter does beyond the shared contract (which the TCK checks): its own choices. */
class FsStorageAdapterTest {
  @TempDir
  Path tmp;

  private Path root;
  private StorageAdapter adapter;

  @BeforeEach
  void open() throws Exception {
    root = tmp.resolve("graph");
    adapter = StorageAdapters.open(root.toString(), Map.of());
  }

  @AfterEach
  void close() throws Exception {
    adapter.close();
  }

  private static void assertKind(ThrowingCallable call, Kind kind) {
    assertThatThrownBy(call).isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(kind));
  }

  @Test
  void plainLocalPathsAndFileUrisOpenTheFsAdapterFromItsNamedModule() throws Exception {
    assertThat(adapter).isInstanceOf(FsStorageAdapter.class);
    assertThat(adapter.capabilities().scheme()).isEqualTo("file");
    assertThat(adapter.capabilities().localFilesystem()).isTrue();
    try (StorageAdapter viaUri = StorageAdapters.open(root.toUri(), Map.of())) {
      adapter.put("x", utf8("1"), WriteCondition.overwrite());
      assertThat(viaUri.readText("x")).isEqualTo("1");
    }
    assertThat(StorageAdapters.provider("file").getClass().getModule().getName()).isEqualTo("io.omnigraph.adapter.fs");
  }

  @Test
  void theRootIsCreatedByTheFirstWriteNotByOpen() throws Exception {
    assertThat(root).doesNotExist();
    assertThat(adapter.list("")).isNotNull();
    assertThat(adapter.list("").toList()).isEmpty();
    adapter.put("a/b", utf8("x"), WriteCondition.ifAbsent());
    assertThat(root.resolve("a/b")).hasContent("x");
  }

  @Test
  void unknownOptionsAreRefusedByName() {
    assertThatThrownBy(() -> StorageAdapters.open(root.toUri(), Map.of("list-pagesize", "10")))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION);
          assertThat(e.getMessage()).contains("list-pagesize").contains("list-page-size");
        });
  }

  @Test
  void listPageSizeMustBeAPositiveInteger() throws Exception {
    for (String bad : List.of("0", "-1", "ten", "2000000")) {
      assertKind(() -> StorageAdapters.open(root.toUri(), Map.of("list-page-size", bad)), Kind.CONFIGURATION);
    }
    try (StorageAdapter small = StorageAdapters.open(root.toUri(), Map.of("list-page-size", "7"))) {
      assertThat(small.capabilities().listPageSize()).isEqualTo(7);
    }
  }

  @Test
  void rootsMustBeLocalHierarchicalDirectories() throws Exception {
    assertKind(() -> StorageAdapters.open(URI.create("file://fileserver/share/g"), Map.of()), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(URI.create("file:///tmp/g?x=1"), Map.of()), Kind.CONFIGURATION);
    assertKind(() -> StorageAdapters.open(URI.create("file:relative"), Map.of()), Kind.CONFIGURATION);
    Path file = Files.writeString(tmp.resolve("plain-file"), "x");
    assertKind(() -> StorageAdapters.open(file.toUri(), Map.of()), Kind.CONFIGURATION);
    try (StorageAdapter local = StorageAdapters.open(URI.create("file://localhost" + root.toUri().getPath()), Map.of())) {
      assertThat(local.list("").toList()).isEmpty();
    }
  }

  @Test
  void aWriteLeavesOnlyTheObjectAndTheDirectoryLockFileOnDisk() throws Exception {
    String v = adapter.put("d/x", utf8("1"), WriteCondition.ifAbsent());
    adapter.put("d/x", utf8("2"), WriteCondition.ifMatch(v));
    adapter.put("d/x", utf8("3"), WriteCondition.overwrite());
    adapter.put("d/y", utf8("4"), WriteCondition.ifAbsent());
    try (Stream<Path> s = Files.list(root.resolve("d"))) {
      assertThat(s.map(p -> p.getFileName().toString()).sorted())
          .containsExactly(DirectoryWriteLock.LOCK_FILE_NAME, "x", "y");
    }
    assertThat(Files.getAttribute(root.resolve("d/y"), "unix:nlink")).as("IfAbsent's temp link is removed").isEqualTo(1);
  }

  @Test
  void theVersionTokenIsTheSha256OfTheContent() throws Exception {
    String v = adapter.put("x", utf8("hello"), WriteCondition.overwrite());
    assertThat(v).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf8("hello"))));
    assertThat(adapter.put("y", utf8("hello"), WriteCondition.overwrite())).isEqualTo(v);
  }

  @Test
  void ifMatchAfterTheSameBytesWereWrittenAgainSucceedsBecauseNothingUnseenIsReplaced() throws Exception {
    String v = adapter.put("x", utf8("A"), WriteCondition.overwrite());
    adapter.put("x", utf8("B"), WriteCondition.overwrite());
    adapter.put("x", utf8("A"), WriteCondition.overwrite());
    adapter.put("x", utf8("C"), WriteCondition.ifMatch(v));
    assertThat(adapter.readText("x")).isEqualTo("C");
  }

  @Test
  void lanceLocationIsTheFileUriOfThePathWithNoOptions() throws Exception {
    adapter.put("tables/existing.lance/_versions/1.manifest", utf8("m"), WriteCondition.overwrite());
    LanceLocation loc = adapter.lanceLocation("tables/existing.lance");
    assertThat(loc.uri()).isEqualTo(root.resolve("tables/existing.lance").toUri().toString().replaceAll("/$", ""));
    assertThat(loc.storageOptions()).isEmpty();
    assertThat(adapter.lanceLocation("tables/new.lance").uri()).isEqualTo(root.resolve("tables/new.lance").toUri().toString());
  }

  @Test
  void aRememberedLanceLocationIsTheOneResolvedAfreshForThatPath() throws Exception {
    String before = adapter.lanceLocation("tables/later.lance").uri();
    adapter.put("tables/later.lance/_versions/1.manifest", utf8("m"), WriteCondition.overwrite());
    assertThat(adapter.lanceLocation("tables/later.lance").uri()).isEqualTo(before)
        .isEqualTo(StorageAdapters.open(root.toString(), Map.of()).lanceLocation("tables/later.lance").uri());
    assertThat(adapter.lanceLocation("tables/other.lance").uri())
        .isEqualTo(root.resolve("tables/other.lance").toUri().toString());
    assertKind(() -> adapter.lanceLocation("../escape"), Kind.INVALID_PATH);
  }

  @Test
  void aNameCannotBeAnObjectAndADirectoryAtOnce() throws Exception {
    adapter.put("a", utf8("object"), WriteCondition.overwrite());
    assertKind(() -> adapter.put("a/b", utf8("x"), WriteCondition.overwrite()), Kind.PERMANENT);
    adapter.put("d/x", utf8("1"), WriteCondition.overwrite());
    assertKind(() -> adapter.put("d", utf8("x"), WriteCondition.overwrite()), Kind.PERMANENT);
    assertKind(() -> adapter.put("d", utf8("x"), WriteCondition.ifAbsent()), Kind.PERMANENT);
    assertThat(adapter.readTextIfExists("a/b")).isEmpty();
    assertThat(adapter.exists("a/b")).isFalse();
    assertThat(adapter.list("a").toList()).isEmpty();
    assertThat(adapter.readText("a")).isEqualTo("object");
  }

  @Test
  void entriesThatAreNotAddressableObjectsAreNotListed() throws Exception {
    adapter.put("d/real", utf8("1"), WriteCondition.overwrite());
    Path d = root.resolve("d");
    Files.createDirectory(d.resolve("subdir"));
    Files.writeString(d.resolve("back\\slash"), "written by another program");
    Files.writeString(d.resolve("crash.json#123456789012345678"), "{\"half");
    Files.createSymbolicLink(d.resolve("link-to-dir"), d.resolve("subdir"));
    Files.createSymbolicLink(d.resolve("link-to-file"), d.resolve("real"));
    assertThat(adapter.list("d").toList()).containsExactly("d/link-to-file", "d/real");
  }

  @Test
  void deletePrefixOfTheRootEmptiesItButKeepsTheRootDirectory() throws Exception {
    adapter.put("a/b/c", utf8("1"), WriteCondition.overwrite());
    adapter.put("top", utf8("1"), WriteCondition.overwrite());
    adapter.deletePrefix("");
    assertThat(root).isEmptyDirectory();
  }

  @Test
  void pagesOfAListingAreFetchedLazilyAndEachPassesTheHook() throws Exception {
    List<String> pages = new java.util.concurrent.CopyOnWriteArrayList<>();
    StorageAdapter paged = new FsStorageAdapterProvider().openWithIoHook(root.toUri(), Map.of("list-page-size", "2"),
        (point, path) -> {
          if (point == io.omnigraph.api.storage.StorageIoHook.Point.LIST_PAGE) {
            pages.add(path);
          }
        });
    for (int i = 0; i < 5; i++) {
      paged.put("d/" + i, utf8("x"), WriteCondition.overwrite());
    }
    var listing = paged.list("d");
    assertThat(pages).hasSize(1);
    assertThat(listing.toList()).containsExactly("d/0", "d/1", "d/2", "d/3", "d/4");
    assertThat(pages).containsExactly("d", "d", "d");
  }

  private static byte[] utf8(String s) {
    return s.getBytes(UTF_8);
  }

  /**
   * A prepared put (StorageAdapter.preparePut; docs/storage-adapters.md, "Prepared puts") writes its
   * bytes into a synced temp file that is invisible (not listed, not readable) until applied; apply
   * takes effect under its condition exactly like put (a failed IfAbsent / IfMatch leaves the object
   * as it was and removes the temp file); closing an unapplied put removes its temp file.
   */
  @Test
  void aPreparedPutIsInvisibleUntilAppliedAndTakesEffectUnderItsCondition() throws Exception {
    try (StorageAdapter.PreparedPut p = adapter.preparePut("d/x.json", utf8("one"))) {
      assertThat(adapter.list("d").toList()).isEmpty();
      assertThat(adapter.readIfExists("d/x.json")).isEmpty();
      assertThat(filesIn(root.resolve("d"))).as("the temp file").hasSize(1);
      String v1 = p.apply(WriteCondition.ifAbsent());
      assertThat(adapter.readText("d/x.json")).isEqualTo("one");
      assertThat(filesIn(root.resolve("d"))).as("the object only").containsExactly("x.json");
      try (StorageAdapter.PreparedPut q = adapter.preparePut("d/x.json", utf8("two"))) {
        assertKind(() -> q.apply(WriteCondition.ifAbsent()), Kind.PRECONDITION_FAILED);
      }
      assertThat(adapter.readText("d/x.json")).isEqualTo("one");
      try (StorageAdapter.PreparedPut q = adapter.preparePut("d/x.json", utf8("two"))) {
        assertKind(() -> q.apply(WriteCondition.ifMatch("no-such-version")), Kind.PRECONDITION_FAILED);
      }
      assertThat(filesIn(root.resolve("d"))).as("a refused apply removes its temp file").containsExactly("x.json");
      try (StorageAdapter.PreparedPut q = adapter.preparePut("d/x.json", utf8("two"))) {
        q.apply(WriteCondition.ifMatch(v1));
      }
      assertThat(adapter.readText("d/x.json")).isEqualTo("two");
    }
    StorageAdapter.PreparedPut unused = adapter.preparePut("d/y.json", utf8("three"));
    assertThat(filesIn(root.resolve("d"))).hasSize(2);
    unused.close();
    assertThat(filesIn(root.resolve("d"))).as("closing an unapplied put removes its temp file")
        .containsExactly("x.json");
    assertThat(adapter.readIfExists("d/y.json")).isEmpty();
  }

  private static java.util.List<String> filesIn(Path d) throws java.io.IOException {
    try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(d)) {
      return s.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith(".omnigraph-lock")).sorted().toList();
    }
  }
}
