package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.omnigraph.api.storage.StorageAdapter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The storage conformance suite (TCK): what every {@link StorageAdapter} guarantees, one
 * {@link Nested} group per guarantee family, test names that read as the guarantee.
 *
 * <p>Bind a backend in one short class:
 * <pre>{@code
 * class MyStoreTckTest extends StorageAdapterContract {
 *   @Override protected StorageTckBinding binding() { return new MyStoreBinding(); }
 * }
 * }</pre>
 *
 * <p>Every test gets a fresh root from {@link StorageTckBinding#openEmptyRoot()}. A test that needs
 * a fault controller, a residue maker or a paged listing the binding lacks fails with the reason in
 * strict mode (the default), or is skipped with it when the JUnit configuration parameter
 * {@code omnigraph.tck.strict} is {@code false}. The harness checks itself: a test fails when
 * its "empty" root is not empty or when a fault it armed never fired, and the binding's container
 * fails when a contract group ran no test ({@link ContractHarness}).
 *
 * <p>Each group's tests live in their own class ({@code ReadAndNotFoundGuarantees}, ...; see
 * docs/tck.md, "What the contract checks"); the {@code @Nested} classes below bind them to this
 * contract's lifecycle.
 */
@ExtendWith(ContractHarness.class)
@DisplayNameGeneration(GuaranteeNames.class)
public abstract class StorageAdapterContract {

  /** Top-level directories the suite writes below; each must be empty in a fresh root. */
  private static final List<String> SUITE_DIRECTORIES = List.of("", "dir", "a", "d", "deep", "race", "page", "p");

  /** @return the backend under test; called once per test */
  protected abstract StorageTckBinding binding();

  private StorageTckBinding currentBinding;

  /** The fresh, empty root of the running test. */
  protected StorageAdapter adapter;

  /**
   * Set by {@link ContractHarness} before each test from the configuration parameter
   * {@value ContractHarness#STRICT} (default {@code true}): a test that cannot run fails instead of
   * being skipped.
   */
  volatile boolean strict = true;

  /** @return the binding of the running test */
  final StorageTckBinding currentBinding() {
    return currentBinding;
  }

  @BeforeEach
  final void openFreshEmptyRoot() throws Exception {
    currentBinding = binding();
    assertThat(currentBinding).as("binding()").isNotNull();
    currentBinding.faults().ifPresent(FaultController::reset);
    adapter = currentBinding.openEmptyRoot();
    assertThat(adapter).as("binding '%s' openEmptyRoot()", currentBinding.name()).isNotNull();
    for (String dir : SUITE_DIRECTORIES) {
      List<String> found = adapter.list(dir).toList();
      if (!found.isEmpty()) {
        fail("TCK harness: the 'empty' root from binding '%s' is not empty: list(\"%s\") = %s",
            currentBinding.name(), dir, found);
      }
    }
  }

  @AfterEach
  final void checkArmedFaultsFiredAndClose() throws Exception {
    try {
      Optional<FaultController> faults = currentBinding == null ? Optional.empty() : currentBinding.faults();
      if (faults.isPresent()) {
        List<String> unfired = List.copyOf(faults.get().unfired());
        faults.get().reset();
        if (!unfired.isEmpty()) {
          fail("TCK harness: armed fault(s) never fired, so the test proved nothing: %s", unfired);
        }
      }
    } finally {
      if (adapter != null) {
        try {
          currentBinding.discardRoot(adapter);
        } finally {
          adapter.close();
        }
      }
    }
  }


  /** Reads return exactly what was written, and absence is an answer, not an error; reads are one request. */
  @Nested
  class ReadAndNotFound extends ReadAndNotFoundGuarantees {
    ReadAndNotFound() {
      super(StorageAdapterContract.this);
    }
  }

  /** A put replaces a whole object in one step that readers cannot observe half-done. */
  @Nested
  class AtomicPut extends AtomicPutGuarantees {
    AtomicPut() {
      super(StorageAdapterContract.this);
    }
  }

  /** IfAbsent and IfMatch are atomic compare-and-set operations, also under contention. */
  @Nested
  class ConditionalPut extends ConditionalPutGuarantees {
    ConditionalPut() {
      super(StorageAdapterContract.this);
    }
  }

  /** A listing is the exact, sorted set of direct child objects, in the pages its declared page size implies. */
  @Nested
  class Listing extends ListingGuarantees {
    Listing() {
      super(StorageAdapterContract.this);
    }
  }

  /** A listing is complete or an error: page failures throw, wherever they happen. */
  @Nested
  class ListingFailure extends ListingFailureGuarantees {
    ListingFailure() {
      super(StorageAdapterContract.this);
    }
  }

  /** What an interrupted write (or another tool) leaves behind is invisible, and temp names are not addresses. */
  @Nested
  class TempFileResidue extends TempFileResidueGuarantees {
    TempFileResidue() {
      super(StorageAdapterContract.this);
    }
  }

  /** The non-durable put and delete keep every promise of put and delete except durability against power loss. */
  @Nested
  class NonDurableWrite extends NonDurableWriteGuarantees {
    NonDurableWrite() {
      super(StorageAdapterContract.this);
    }
  }

  /** Deletes are idempotent and a prefix delete removes everything below the prefix, only that. */
  @Nested
  class Delete extends DeleteGuarantees {
    Delete() {
      super(StorageAdapterContract.this);
    }
  }

  /** Failures carry a backend-neutral kind and the path they concern; refusals are PERMISSION everywhere. */
  @Nested
  class ErrorMapping extends ErrorMappingGuarantees {
    ErrorMapping() {
      super(StorageAdapterContract.this);
    }
  }

  /** Every operation refuses illegal addresses with INVALID_PATH, before touching storage. */
  @Nested
  class PathValidation extends PathValidationGuarantees {
    PathValidation() {
      super(StorageAdapterContract.this);
    }
  }
}
