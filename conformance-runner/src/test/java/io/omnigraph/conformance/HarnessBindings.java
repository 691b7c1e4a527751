package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bindings that break the harness's own assumptions, for {@code HarnessChecksItselfTest}. (Not
 * test classes themselves: the file name keeps surefire from running them directly.)
 */
final class HarnessBindings {
  private HarnessBindings() {}

  /** The fs adapter's binding (class path), pages of 100 entries. */
  static LocalDirectoryBinding fs() {
    try {
      return new LocalDirectoryBinding("fs", StorageAdapters.provider("file"), Path.of("target/tck-fs"),
          Map.of("list-page-size", "100"));
    } catch (StorageException e) {
      throw new AssertionError(e);
    }
  }

  /** Hands out roots that already hold an object. */
  static final class NonEmptyRoot extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      LocalDirectoryBinding fs = fs();
      return new StorageTckBinding() {
        @Override
        public String name() {
          return "non-empty";
        }

        @Override
        public StorageAdapter openEmptyRoot() throws Exception {
          StorageAdapter a = fs.openEmptyRoot();
          a.put("dir/left-over.json", "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8), WriteCondition.overwrite());
          return a;
        }

        @Override
        public void discardRoot(StorageAdapter adapter) throws Exception {
          fs.discardRoot(adapter);
        }
      };
    }
  }

  /** Its faults fire, but it claims they never did: every fault test must then fail. */
  static final class FaultsNeverReportFired extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      LocalDirectoryBinding fs = fs();
      FaultController real = fs.faults().orElseThrow();
      FaultController stuck = new FaultController() {
        private boolean armed;

        @Override
        public void failListPage(int n) {
          armed = true;
          real.failListPage(n);
        }

        @Override
        public void failNextPut() {
          armed = true;
          real.failNextPut();
        }

        @Override
        public void failNextDelete() {
          armed = true;
          real.failNextDelete();
        }

        @Override
        public void applyNextPutThenFail() {
          armed = true;
          real.applyNextPutThenFail();
        }

        @Override
        public void denyNext(Operation operation) {
          armed = true;
          real.denyNext(operation);
        }

        @Override
        public void delayEveryPut(java.time.Duration delay) {
          armed = true;
          real.delayEveryPut(delay);
        }

        @Override
        public long requests() {
          return real.requests();
        }

        @Override
        public long requests(Operation operation) {
          return real.requests(operation);
        }

        @Override
        public List<String> unfired() {
          return armed ? List.of("a fault that claims it never fired") : List.of();
        }

        @Override
        public void reset() {
          armed = false;
          real.reset();
        }
      };
      return new StorageTckBinding() {
        @Override
        public String name() {
          return "stuck-faults";
        }

        @Override
        public StorageAdapter openEmptyRoot() throws Exception {
          return fs.openEmptyRoot();
        }

        @Override
        public void discardRoot(StorageAdapter adapter) throws Exception {
          fs.discardRoot(adapter);
        }

        @Override
        public Optional<FaultController> faults() {
          return Optional.of(stuck);
        }

        @Override
        public Optional<ResidueMaker> residue() {
          return fs.residue();
        }
      };
    }
  }

  /** Supplies neither faults nor residue: the tests needing them must be skipped with a reason. */
  static final class NoHooks extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      LocalDirectoryBinding fs = fs();
      return new StorageTckBinding() {
        @Override
        public String name() {
          return "no-hooks";
        }

        @Override
        public StorageAdapter openEmptyRoot() throws Exception {
          return fs.openEmptyRoot();
        }

        @Override
        public void discardRoot(StorageAdapter adapter) throws Exception {
          fs.discardRoot(adapter);
        }
      };
    }
  }

  /** The real fs binding, for runs that select only part of the contract. */
  static final class Fs extends StorageAdapterContract {
    @Override
    protected StorageTckBinding binding() {
      return fs();
    }
  }
}
