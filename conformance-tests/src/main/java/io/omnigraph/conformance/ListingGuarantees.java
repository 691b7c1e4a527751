package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.conformance.FaultController.Operation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A listing is the exact, sorted set of direct child objects, with names that round-trip.
 *
 * <p>The tests of the contract group {@code Listing}, bound by {@link StorageAdapterContract.Listing}.
 */
abstract class ListingGuarantees extends ContractGroup {

  ListingGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void listReturnsDirectChildObjectsOnly() throws Exception {
    put("d/x", "1");
    put("d/y.json", "2");
    put("d/sub/z", "3");
    put("d/sub/deeper/w", "4");
    assertThat(list("d")).containsExactly("d/x", "d/y.json");
    assertThat(list("")).isEmpty();
  }

  @Test
  void nestedPrefixesListIndependently() throws Exception {
    put("a/1", "");
    put("a/b/2", "");
    put("a/b/c/3", "");
    assertThat(list("a")).containsExactly("a/1");
    assertThat(list("a/b")).containsExactly("a/b/2");
    assertThat(list("a/b/c")).containsExactly("a/b/c/3");
  }

  @Test
  void rootLevelObjectsAreListedUnderTheEmptyDirectory() throws Exception {
    put("top.json", "t");
    put("dir/below", "b");
    assertThat(list("")).containsExactly("top.json");
  }

  @Test
  void siblingsThatShareANamePrefixAreNotChildren() throws Exception {
    put("d/x", "object named like the prefix's sibling");
    put("dx/y", "");
    put("d.json", "");
    put("d-1/z", "");
    assertThat(list("d")).containsExactly("d/x");
  }

  @Test
  void aTrailingSlashNamesTheSameDirectory() throws Exception {
    put("d/x", "1");
    assertThat(list("d/")).isEqualTo(list("d")).containsExactly("d/x");
  }

  @Test
  void aMissingDirectoryListsAsEmpty() throws Exception {
    assertThat(list("d/never/written")).isEmpty();
  }

  @Test
  void listedNamesAreRootRelativePathsThatReadBack() throws Exception {
    put("d/one", "1");
    put("d/two", "2");
    for (String name : list("d")) {
      assertThat(adapter.readText(name)).isEqualTo(name.endsWith("one") ? "1" : "2");
    }
  }

  @Test
  void listingIsSortedByUtf8Bytes() throws Exception {
    List<String> names = List.of("B", "a", "aa", "a-b", "a_b", "Z9", "0", "~", "é", "\uFFFD", "\uD83D\uDE00", "ab");
    for (String n : names) {
      put("d/" + n, n);
    }
    List<String> expected = new ArrayList<>();
    for (String n : names) {
      expected.add("d/" + n);
    }
    expected.sort(StoragePaths.UTF8_ORDER);
    assertThat(list("d")).containsExactlyElementsOf(expected);
  }

  @Test
  void nonAsciiAndUnusualNamesRoundTripThroughListAndRead() throws Exception {
    List<String> names = List.of("grüße.json", "图表", "emoji-\uD83D\uDE00", "with space", "semi;colon", "plus+sign",
        "percent%20", "hash#tag", "x#12a", "quote'\"", "q?a=b&c", "tilde~", "ümlaut/child");
    for (String n : names) {
      put("d/" + n, n);
    }
    List<String> listed = list("d");
    for (String n : names) {
      if (!n.contains("/")) {
        assertThat(listed).contains("d/" + n);
      }
      assertThat(adapter.readText("d/" + n)).isEqualTo(n);
    }
    assertThat(list("d/ümlaut")).containsExactly("d/ümlaut/child");
  }

  @Test
  void aListingSpansPagesWithAtLeastAThousandChildren() throws Exception {
    int page = adapter.capabilities().listPageSize();
    int n = Math.max(1000, page > 0 ? 2 * page + 1 : 0);
    List<String> written = writeChildren("page", n);
    if (page > 0) {
      assertThat(n).as("children must span more than one page").isGreaterThan(page);
    }
    List<String> listed = list("page");
    assertThat(listed).hasSize(n).doesNotHaveDuplicates().containsExactlyElementsOf(written);
  }

  @Test
  void aListingMakesThePageRequestsItsDeclaredPageSizeImplies() throws Throwable {
    int page = adapter.capabilities().listPageSize();
    int n = page > 0 ? 2 * page + 1 : 250;
    writeChildren("page", n);
    List<String> listed = new ArrayList<>();
    long pages = requestsOf(Operation.LIST_PAGE, () -> listed.addAll(list("page")));
    assertThat(listed).hasSize(n);
    // the capability is checked against what the adapter does: a declared page size the listing
    // contradicts fails here (0 means one request for the whole listing)
    long expected = page > 0 ? (n + page - 1) / page : 1;
    assertThat(pages).as("list requests for %d children with declared listPageSize %d", n, page)
        .isEqualTo(expected);
  }

  @Test
  void aDeletedObjectIsNoLongerListed() throws Exception {
    put("d/keep", "");
    put("d/drop", "");
    adapter.delete("d/drop");
    assertThat(list("d")).containsExactly("d/keep");
  }

  @Test
  void listingAnObjectsOwnPathListsNothing() throws Exception {
    put("d/x", "1");
    assertThat(list("d/x")).isEmpty();
  }

  @Test
  void listingsMatchAModelAfterARandomMixOfPutsDeletesAndPrefixDeletes() throws Exception {
    java.util.Random random = new java.util.Random(20_261_202L); // fixed seed: the same sequence on every run
    java.util.TreeMap<String, String> model = new java.util.TreeMap<>();
    List<String> dirs = List.of("d", "d/s", "d/s/t", "d/v");
    List<String> names = List.of("a", "b", "é", "t-1", "u.json", "x y");
    for (int i = 0; i < 150; i++) {
      String dir = dirs.get(random.nextInt(dirs.size()));
      String path = dir + "/" + names.get(random.nextInt(names.size()));
      int op = random.nextInt(10);
      if (op < 6) {
        put(path, "v" + i);
        model.put(path, "v" + i);
      } else if (op < 9) {
        adapter.delete(path);
        model.remove(path);
      } else {
        adapter.deletePrefix(dir);
        model.keySet().removeIf(k -> k.startsWith(dir + "/"));
      }
    }
    for (String dir : dirs) {
      List<String> expected = new ArrayList<>();
      for (String k : model.keySet()) {
        if (k.substring(0, k.lastIndexOf('/')).equals(dir)) {
          expected.add(k);
        }
      }
      expected.sort(StoragePaths.UTF8_ORDER);
      assertThat(list(dir)).as("list(%s)", dir).containsExactlyElementsOf(expected);
    }
    for (var e : model.entrySet()) {
      assertThat(adapter.readText(e.getKey())).isEqualTo(e.getValue());
    }
  }

  @Test
  void aListingClosedEarlyReleasesWithoutError() throws Exception {
    put("d/1", "");
    put("d/2", "");
    try (ObjectListing listing = adapter.list("d")) {
      assertThat(listing.hasNext()).isTrue();
      assertThat(listing.next()).isEqualTo("d/1");
    }
  }
}
