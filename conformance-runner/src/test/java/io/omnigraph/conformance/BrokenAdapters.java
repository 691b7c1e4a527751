package io.omnigraph.conformance;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageCapabilities;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The project's catalog of deliberately broken adapters: each is the real fs adapter with one
 * guarantee broken the way real adapters break it (no sleeps or other help: the suite's own faults
 * and races must expose it), and the contract tests that must catch it. {@code
 * BrokenAdapterCatalogOnClassPathTest} runs every defect through a JUnit binding and through the
 * strict runner ({@link BrokenAdapterProvider}) and asserts each is caught on every run.
 */
enum BrokenAdapters {
  /** Ends the listing quietly when a later page fails — the classic "partial listing" bug. */
  SWALLOWS_LATER_PAGE_FAILURE(BrokenAdapters::swallowingLaterPageFailures,
      "ListingFailure/aFailureOnALaterPageThrowsInsteadOfEndingTheListingEarly"),

  /** Lists the temp files of interrupted writes (and other tools' temp-named objects) next to the real objects. */
  LISTS_TEMP_NAMES(BrokenAdapters::listingTempNames, "TempFileResidue/residueOfAnInterruptedWriteIsNotListed"),

  /** IfAbsent as "exists? then overwrite". */
  CHECK_THEN_WRITE_IF_ABSENT(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      if (condition instanceof WriteCondition.IfAbsent) {
        if (inner.exists(path)) {
          throw StorageException.preconditionFailed(path, "exists", null);
        }
        return inner.put(path, bytes, WriteCondition.overwrite());
      }
      return inner.put(path, bytes, condition);
    }
  }, "ConditionalPut/sixteenConcurrentIfAbsentWritersHaveExactlyOneWinner"),

  /** IfMatch as "read the version, compare, then overwrite". */
  CHECK_THEN_WRITE_IF_MATCH(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      if (condition instanceof WriteCondition.IfMatch m) {
        Optional<StoredObject> current = inner.readIfExists(path);
        if (current.isEmpty() || !current.get().version().equals(m.version())) {
          throw StorageException.preconditionFailed(path, "version mismatch", null);
        }
        return inner.put(path, bytes, WriteCondition.overwrite());
      }
      return inner.put(path, bytes, condition);
    }
  }, "ConditionalPut/sixteenConcurrentIfMatchWritersHoldingOneTokenHaveExactlyOneWinner"),

  /** An overwrite that writes the object in two pieces, so the first piece is visible for a moment. */
  TORN_PUT(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      if (condition instanceof WriteCondition.Overwrite && bytes.length > 1) {
        inner.put(path, Arrays.copyOf(bytes, bytes.length / 2), condition);
      }
      return inner.put(path, bytes, condition);
    }
  }, "AtomicPut/aConcurrentReaderNeverSeesATornObject"),

  /** readTextIfExists as "exists? then read": two requests, and a delete in between makes it throw. */
  READ_CHECKS_THEN_READS(BrokenAdapters::checkingThenReading,
      "ReadAndNotFound/readTextIfExistsAndReadIfExistsMakeExactlyOneRequest"),

  /** The same adapter, against the hook-free check alone (no request counter). */
  READ_CHECKS_THEN_READS_HOOK_FREE(BrokenAdapters::checkingThenReading,
      "ReadAndNotFound/anObjectDeletedAndRecreatedInATightLoopNeverMakesReadTextIfExistsThrow"),

  /** exists() answers false when it was refused. */
  EXISTS_FALSE_ON_PERMISSION(a -> new ForwardingStorageAdapter(a) {
    @Override
    public boolean exists(String path) throws StorageException {
      try {
        return inner.exists(path);
      } catch (StorageException e) {
        if (e.kind() == Kind.PERMISSION) {
          return false;
        }
        throw e;
      }
    }
  }, "ErrorMapping/aDeniedExistsCheckThrowsPermissionNeverFalse"),

  /** A refused read looks like a missing object. */
  READ_EMPTY_ON_PERMISSION(a -> new ForwardingStorageAdapter(a) {
    @Override
    public Optional<StoredObject> readIfExists(String path) throws StorageException {
      try {
        return inner.readIfExists(path);
      } catch (StorageException e) {
        if (e.kind() == Kind.PERMISSION) {
          return Optional.empty();
        }
        throw e;
      }
    }
  }, "ErrorMapping/aDeniedReadThrowsPermissionFromEveryReadNeverEmpty"),

  /** A refused listing looks like an empty directory. */
  LIST_EMPTY_ON_PERMISSION(a -> new ForwardingStorageAdapter(a) {
    @Override
    public ObjectListing list(String dir) throws StorageException {
      try {
        return inner.list(dir);
      } catch (StorageException e) {
        if (e.kind() == Kind.PERMISSION) {
          return ObjectListing.of(List.of());
        }
        throw e;
      }
    }
  }, "ErrorMapping/aDeniedListingThrowsPermissionNeverAnEmptyOrPartialListing"),

  /** A refused write is reported as TRANSIENT, so callers retry what can never succeed. */
  PUT_PERMISSION_AS_TRANSIENT(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      try {
        return inner.put(path, bytes, condition);
      } catch (StorageException e) {
        if (e.kind() == Kind.PERMISSION) {
          throw new StorageException(Kind.TRANSIENT, path, "write failed, try again", e);
        }
        throw e;
      }
    }
  }, "ErrorMapping/aDeniedPutThrowsPermissionAndWritesNothing"),

  /** A delete that swallows every failure ("idempotent" taken too far). */
  DELETE_SWALLOWS_FAILURES(a -> new ForwardingStorageAdapter(a) {
    @Override
    public void delete(String path) throws StorageException {
      try {
        inner.delete(path);
      } catch (StorageException e) {
        if (e.kind() == Kind.INVALID_PATH) {
          throw e;
        }
        // the bug: "it is probably gone anyway"
      }
    }
  }, "Delete/aDeleteThatFailsLeavesTheObject", "ErrorMapping/aDeniedDeleteThrowsPermissionAndLeavesTheObject"),

  /** A lost put response is reported as TRANSIENT instead of OUTCOME_UNKNOWN. */
  LOST_RESPONSE_AS_TRANSIENT(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      try {
        return inner.put(path, bytes, condition);
      } catch (StorageException e) {
        if (e.kind() == Kind.OUTCOME_UNKNOWN) {
          throw new StorageException(Kind.TRANSIENT, path, "write failed, try again", e);
        }
        throw e;
      }
    }
  }, "ErrorMapping/aPutWhoseResponseIsLostIsOutcomeUnknownAndReadingRevealsTheOutcome"),

  /** A non-durable put that ignores its condition ("it is only the lease, just write it"). */
  NON_DURABLE_PUT_IGNORES_CONDITION(a -> new ForwardingStorageAdapter(a) {
    @Override
    public String putNonDurable(String path, byte[] bytes, WriteCondition condition) throws StorageException {
      return inner.putNonDurable(path, bytes, WriteCondition.overwrite());
    }
  }, "NonDurableWrite/nonDurableConditionsAreTheConditionsOfAPut",
      "NonDurableWrite/sixteenConcurrentNonDurableIfAbsentWritersHaveExactlyOneWinner"),

  /** A non-durable delete that does nothing ("recovery finalizes the sidecar again anyway"). */
  NON_DURABLE_DELETE_DOES_NOTHING(a -> new ForwardingStorageAdapter(a) {
    @Override
    public void deleteNonDurable(String path) throws StorageException {
      StoragePaths.validate(path);
    }
  }, "NonDurableWrite/aNonDurableDeleteIsGoneAtOnceAndIdempotent"),

  /**
   * Declares an unpaged listing (page size 0) although it pages, so the later-page tests would be
   * skipped, and swallows a later page's failure: caught by the page count, and by strict mode.
   */
  DECLARES_NO_PAGING(a -> new ForwardingStorageAdapter(swallowingLaterPageFailures(a)) {
    @Override
    public StorageCapabilities capabilities() {
      StorageCapabilities real = inner.capabilities();
      return new StorageCapabilities(real.scheme(), real.localFilesystem(), 0);
    }
  }, "Listing/aListingMakesThePageRequestsItsDeclaredPageSizeImplies",
      "ListingFailure/aFailureOnALaterPageThrowsInsteadOfEndingTheListingEarly");

  private final UnaryOperator<StorageAdapter> breaker;
  private final List<String> killers;

  BrokenAdapters(UnaryOperator<StorageAdapter> breaker, String... killers) {
    this.breaker = breaker;
    this.killers = List.of(killers);
  }

  /** @return the adapter with this defect, wrapping {@code real} */
  StorageAdapter breaking(StorageAdapter real) {
    return breaker.apply(real);
  }

  /** @return the tests ({@code Group/method}) that must all fail for this defect to count as caught */
  List<String> killers() {
    return killers;
  }

  /** @return the scheme under which {@link BrokenAdapterProvider} serves this defect, e.g. {@code broken-torn-put} */
  String scheme() {
    return "broken-" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** @return the underlying real adapter of one opened by {@link #breaking} */
  static StorageAdapter unwrap(StorageAdapter adapter) {
    StorageAdapter a = adapter;
    while (a instanceof ForwardingStorageAdapter f) {
      a = f.inner;
    }
    return a;
  }

  private static StorageAdapter checkingThenReading(StorageAdapter a) {
    return new ForwardingStorageAdapter(a) {
      @Override
      public Optional<String> readTextIfExists(String path) throws StorageException {
        if (!inner.exists(path)) {
          return Optional.empty();
        }
        return Optional.of(inner.readText(path));
      }
    };
  }

  private static StorageAdapter swallowingLaterPageFailures(StorageAdapter a) {
    return new ForwardingStorageAdapter(a) {
      @Override
      public ObjectListing list(String dir) throws StorageException {
        ObjectListing real = inner.list(dir);
        return new ObjectListing() {
          private boolean ended;

          @Override
          public boolean hasNext() {
            try {
              return !ended && real.hasNext();
            } catch (StorageException e) {
              ended = true; // the bug: a failed page looks like the end of the listing
              return false;
            }
          }

          @Override
          public String next() throws StorageException {
            return real.next();
          }
        };
      }
    };
  }

  private static StorageAdapter listingTempNames(StorageAdapter a) {
    return new ForwardingStorageAdapter(a) {
      @Override
      public ObjectListing list(String dir) throws StorageException {
        String d = StoragePaths.validateDirectory(dir);
        List<String> leaked = new ArrayList<>();
        Path directory = Path.of(URI.create(inner.lanceLocation(StoragePaths.join(d, "probe")).uri())).getParent();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(directory, "*#[0-9][0-9]*")) {
          for (Path p : s) {
            leaked.add(StoragePaths.join(d, p.getFileName().toString())); // the bug: no temp-name filter
          }
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
          // no such directory: nothing extra to leak
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        ObjectListing real = inner.list(dir);
        return new ObjectListing() {
          private int nextLeaked;

          @Override
          public boolean hasNext() throws StorageException {
            return real.hasNext() || nextLeaked < leaked.size();
          }

          @Override
          public String next() throws StorageException {
            return real.hasNext() ? real.next() : leaked.get(nextLeaked++);
          }
        };
      }
    };
  }
}
