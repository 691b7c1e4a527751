package io.omnigraph.conformance;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.WriteCondition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Deliberately broken adapters, each the real fs adapter with one guarantee broken the way real
 * adapters break it, bound to the contract. {@code BrokenAdaptersAreCaughtTest} runs each binding
 * through the JUnit launcher and asserts the suite fails it, in the group that owns the guarantee.
 * (Not test classes themselves: the file name keeps surefire from running them directly.)
 */
final class BrokenAdapters {
  private BrokenAdapters() {}

  /** The fs binding with every adapter it opens wrapped by {@code breaker}. */
  static StorageTckBinding breaking(UnaryOperator<StorageAdapter> breaker) {
    FsTckBinding real;
    try {
      real = new FsTckBinding(AdapterModules.onModulePath("file"));
    } catch (StorageException e) {
      throw new AssertionError(e);
    }
    return new StorageTckBinding() {
      @Override
      public String name() {
        return "broken-fs";
      }

      @Override
      public StorageAdapter openEmptyRoot() throws Exception {
        return breaker.apply(real.openEmptyRoot());
      }

      @Override
      public void discardRoot(StorageAdapter adapter) throws Exception {
        real.discardRoot(((ForwardingStorageAdapter) adapter).inner);
      }

      @Override
      public Optional<FaultController> faults() {
        return real.faults();
      }

      @Override
      public Optional<ResidueMaker> residue() {
        Optional<ResidueMaker> r = real.residue();
        return r.map(maker -> (adapter, path, bytes) -> maker.leaveResidue(((ForwardingStorageAdapter) adapter).inner,
            path, bytes));
      }
    };
  }

  /** Ends the listing quietly when a later page fails — the classic "partial listing" bug. */
  static final class SwallowsLaterPageFailure extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      return breaking(a -> new ForwardingStorageAdapter(a) {
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
      });
    }
  }

  /** Lists the temp files of interrupted writes next to the real objects. */
  static final class ListsTempNames extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      return breaking(a -> new ForwardingStorageAdapter(a) {
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
      });
    }
  }

  /**
   * Implements IfAbsent as "exists? then overwrite". The pause between check and write stands for
   * the latency of a real request and makes the lost race reproducible rather than occasional.
   */
  static final class CheckThenWriteIfAbsent extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      return breaking(a -> new ForwardingStorageAdapter(a) {
        @Override
        public String put(String path, byte[] bytes, WriteCondition condition) throws StorageException {
          if (!(condition instanceof WriteCondition.IfAbsent)) {
            return inner.put(path, bytes, condition);
          }
          if (inner.exists(path)) {
            throw StorageException.preconditionFailed(path, "exists", null);
          }
          try {
            Thread.sleep(200);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException(StorageException.Kind.PERMANENT, path, "interrupted", e);
          }
          return inner.put(path, bytes, WriteCondition.overwrite());
        }
      });
    }
  }
}
