package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import org.junit.jupiter.api.Test;

/**
 * Deletes are idempotent and a prefix delete removes everything below the prefix, only that.
 *
 * <p>The tests of the contract group {@code Delete}, bound by {@link StorageAdapterContract.Delete}.
 */
abstract class DeleteGuarantees extends ContractGroup {

  DeleteGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void deleteRemovesTheObject() throws Exception {
    put("dir/x", "1");
    adapter.delete("dir/x");
    assertThat(adapter.exists("dir/x")).isFalse();
    assertThat(adapter.readTextIfExists("dir/x")).isEmpty();
  }

  @Test
  void deletingAMissingObjectSucceeds() throws Exception {
    adapter.delete("dir/never");
    adapter.delete("nowhere/deep/never");
    assertThat(adapter.exists("dir/never")).isFalse();
  }

  @Test
  void deletingTwiceSucceeds() throws Exception {
    put("dir/x", "1");
    adapter.delete("dir/x");
    adapter.delete("dir/x");
    assertThat(adapter.exists("dir/x")).isFalse();
  }

  @Test
  void deletingAPrefixPathAsAnObjectLeavesTheObjectsBelowIt() throws Exception {
    put("dir/sub/x", "1");
    adapter.delete("dir/sub");
    assertThat(adapter.readText("dir/sub/x")).isEqualTo("1");
  }

  @Test
  void deletePrefixRemovesEveryObjectAtAnyDepthAndNothingElse() throws Exception {
    put("p/a", "");
    put("p/b/c", "");
    put("p/b/d/e", "");
    put("p2/keep", "");
    put("p.json", "");
    put("dir/keep", "");
    adapter.deletePrefix("p");
    assertThat(list("p")).isEmpty();
    assertThat(list("p/b")).isEmpty();
    assertThat(adapter.exists("p/b/d/e")).isFalse();
    assertThat(adapter.readTextIfExists("p2/keep")).contains("");
    assertThat(adapter.exists("p.json")).isTrue();
    assertThat(list("dir")).containsExactly("dir/keep");
  }

  @Test
  void deletePrefixOfTheRootEmptiesTheRoot() throws Exception {
    put("top", "");
    put("dir/x", "");
    put("dir/sub/y", "");
    adapter.deletePrefix("");
    assertThat(list("")).isEmpty();
    assertThat(list("dir")).isEmpty();
    assertThat(list("dir/sub")).isEmpty();
    put("dir/again", "the root is still usable");
    assertThat(list("dir")).containsExactly("dir/again");
  }

  @Test
  void deletePrefixOfAMissingPrefixSucceeds() throws Exception {
    adapter.deletePrefix("p/never");
    adapter.deletePrefix("p/never/");
    assertThat(list("p")).isEmpty();
  }

  @Test
  void aDeleteThatFailsLeavesTheObject() throws Exception {
    put("dir/x", "1");
    faults().failNextDelete();
    StorageException e = storageFailure(() -> adapter.delete("dir/x"));
    assertThat(e.kind()).isNotIn(Kind.NOT_FOUND, Kind.PRECONDITION_FAILED);
    assertThat(adapter.readText("dir/x")).isEqualTo("1");
  }
}
