package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.conformance.FaultController.Operation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Failures carry a backend-neutral kind and the path they concern.
 *
 * <p>The tests of the contract group {@code ErrorMapping}, bound by {@link StorageAdapterContract.ErrorMapping}.
 */
abstract class ErrorMappingGuarantees extends ContractGroup {

  ErrorMappingGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void notFoundCarriesTheKindThePathAndBothInTheMessage() {
    StorageException e = storageFailure(() -> adapter.readText("dir/none"));
    assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
    assertThat(e.path()).isEqualTo("dir/none");
    assertThat(e.getMessage()).contains("NOT_FOUND").contains("dir/none");
  }

  @Test
  void aFailedConditionIsPreconditionFailedNamingThePath() throws Exception {
    put("dir/x", "1");
    StorageException e = storageFailure(() -> adapter.put("dir/x", utf8("2"), WriteCondition.ifAbsent()));
    assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED);
    assertThat(e.path()).isEqualTo("dir/x");
  }

  @Test
  void aPutWhoseResponseIsLostIsOutcomeUnknownAndReadingRevealsTheOutcome() throws Exception {
    put("dir/x", "old");
    faults().applyNextPutThenFail();
    StorageException e = storageFailure(() -> put("dir/x", "new"));
    assertThat(e.kind()).isEqualTo(Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readText("dir/x")).isEqualTo("new");
  }

  @Test
  void aConditionalCreateWhoseResponseIsLostIsOutcomeUnknown() throws Exception {
    faults().applyNextPutThenFail();
    StorageException e = storageFailure(() -> adapter.put("dir/x", utf8("mine"), WriteCondition.ifAbsent()));
    assertThat(e.kind()).isEqualTo(Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readText("dir/x")).isEqualTo("mine");
  }

  @Test
  void anInjectedBackendFailureKeepsTheBackendCause() throws Exception {
    faults().failNextPut();
    StorageException e = storageFailure(() -> put("dir/x", "1"));
    assertThat(e.getCause()).as("the backend's own exception").isNotNull();
    assertThat(e.path()).isEqualTo("dir/x");
  }

  @Test
  void anInvalidPathFailsBeforeAnyRequestIsMade() throws Exception {
    FaultController f = faults();
    f.failNextPut();
    assertKind(() -> adapter.put("../escape", utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
    assertThat(f.unfired()).as("the armed fault must still be pending: no request was made").isNotEmpty();
    storageFailure(() -> put("dir/x", "consumes the armed fault"));
    assertThat(adapter.exists("dir/x")).isFalse();
  }

  @Test
  void aDeniedExistsCheckThrowsPermissionNeverFalse() throws Exception {
    put("dir/x", "1");
    faults().denyNext(Operation.EXISTS);
    assertKind(() -> adapter.exists("dir/x"), Kind.PERMISSION);
    assertThat(adapter.exists("dir/x")).isTrue();
  }

  @Test
  void aDeniedReadThrowsPermissionFromEveryReadNeverEmpty() throws Exception {
    put("dir/x", "1");
    faults().denyNext(Operation.READ);
    assertKind(() -> adapter.readText("dir/x"), Kind.PERMISSION);
    faults().denyNext(Operation.READ);
    assertKind(() -> adapter.readTextIfExists("dir/x"), Kind.PERMISSION);
    faults().denyNext(Operation.READ);
    assertKind(() -> adapter.readIfExists("dir/x"), Kind.PERMISSION);
    assertThat(adapter.readText("dir/x")).isEqualTo("1");
  }

  @Test
  void aDeniedPutThrowsPermissionAndWritesNothing() throws Exception {
    put("dir/x", "old");
    faults().denyNext(Operation.PUT);
    assertKind(() -> put("dir/x", "new"), Kind.PERMISSION);
    faults().denyNext(Operation.PUT);
    assertKind(() -> adapter.put("dir/y", utf8("new"), WriteCondition.ifAbsent()), Kind.PERMISSION);
    assertThat(adapter.readText("dir/x")).isEqualTo("old");
    assertThat(list("dir")).containsExactly("dir/x");
  }

  @Test
  void aDeniedDeleteThrowsPermissionAndLeavesTheObject() throws Exception {
    put("dir/x", "1");
    faults().denyNext(Operation.DELETE);
    assertKind(() -> adapter.delete("dir/x"), Kind.PERMISSION);
    assertThat(adapter.readText("dir/x")).isEqualTo("1");
  }

  @Test
  void aDeniedListingThrowsPermissionNeverAnEmptyOrPartialListing() throws Exception {
    int page = pageSize();
    List<String> written = writeChildren("page", page + 1);
    faults().denyNext(Operation.LIST_PAGE);
    assertKind(() -> adapter.list("page").toList(), Kind.PERMISSION);
    // a later page refused: the entries of the first page do not make a complete listing
    try (ObjectListing listing = adapter.list("page")) {
      List<String> seen = new ArrayList<>();
      for (int i = 0; i < page; i++) {
        assertThat(listing.hasNext()).isTrue();
        seen.add(listing.next());
      }
      faults().denyNext(Operation.LIST_PAGE);
      assertKind(() -> {
        while (listing.hasNext()) {
          seen.add(listing.next());
        }
      }, Kind.PERMISSION);
      assertThat(seen).hasSize(page);
    }
    assertThat(list("page")).containsExactlyElementsOf(written);
  }

  @Test
  void aListingFailureIsAStorageExceptionWithAKind() throws Exception {
    faults().failListPage(1);
    StorageException e = storageFailure(() -> adapter.list("").toList());
    assertThat(e.kind()).isIn(Kind.TRANSIENT, Kind.PERMANENT, Kind.PERMISSION, Kind.OUTCOME_UNKNOWN);
  }
}
