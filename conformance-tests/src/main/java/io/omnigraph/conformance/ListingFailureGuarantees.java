package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A listing is complete or an error: page failures throw, wherever they happen.
 *
 * <p>The tests of the contract group {@code ListingFailure}, bound by {@link StorageAdapterContract.ListingFailure}.
 */
abstract class ListingFailureGuarantees extends ContractGroup {

  ListingFailureGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void aFailureOnTheFirstPageThrows() throws Exception {
    put("d/x", "");
    faults().failListPage(1);
    storageFailure(() -> adapter.list("d").toList());
  }

  @Test
  void aFailureOnALaterPageThrowsInsteadOfEndingTheListingEarly() throws Exception {
    int page = pageSize();
    int n = 2 * page + 1;
    writeChildren("page", n);
    faults().failListPage(2);
    List<String> seen = new ArrayList<>();
    StorageException e = storageFailure(() -> {
      try (ObjectListing listing = adapter.list("page")) {
        while (listing.hasNext()) {
          seen.add(listing.next());
        }
      }
    });
    assertThat(e.kind()).isNotNull();
    assertThat(seen).as("entries returned before the failing page").isNotEmpty().hasSizeLessThan(n);
  }

  @Test
  void aFailureOnTheLastPageThrows() throws Exception {
    int page = pageSize();
    int n = 2 * page + 1;
    writeChildren("page", n);
    faults().failListPage((n + page - 1) / page);
    StorageException e = storageFailure(() -> adapter.list("page").toList());
    assertThat(e.kind()).isNotNull();
  }

  @Test
  void aListingAfterAFailedOneIsCompleteAgain() throws Exception {
    int page = pageSize();
    int n = 2 * page + 1;
    List<String> written = writeChildren("page", n);
    faults().failListPage(2);
    storageFailure(() -> adapter.list("page").toList());
    assertThat(list("page")).containsExactlyElementsOf(written);
  }
}
