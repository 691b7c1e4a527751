package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageIoHook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The file-system adapter's TCK binding: a fresh directory per test, faults injected at the
 * adapter's real I/O points through {@link StorageIoHook}, and residue written as the temp file an
 * interrupted write leaves ({@code <name>#<digits>} next to the target).
 *
 * <p>Listing pages are set to {@value #PAGE_SIZE} entries, so the 1,000-child listing spans ten
 * pages and a "later page" fault hits a real later page fetch.
 */
final class FsTckBinding implements StorageTckBinding {
  static final int PAGE_SIZE = 100;
  private static final Path WORK = Path.of(System.getProperty("omnigraph.tck.workDir", "target/tck-fs"))
      .toAbsolutePath();

  private final StorageAdapterProvider provider;
  private final HookFaults faults = new HookFaults();
  private final Map<StorageAdapter, Path> roots = new IdentityHashMap<>();

  FsTckBinding(StorageAdapterProvider provider) {
    this.provider = provider;
  }

  @Override
  public String name() {
    return "fs";
  }

  @Override
  public synchronized StorageAdapter openEmptyRoot() throws Exception {
    Path root = WORK.resolve(UUID.randomUUID().toString());
    Files.createDirectories(root);
    StorageAdapter adapter = provider.openWithIoHook(root.toUri(), Map.of("list-page-size", Integer.toString(PAGE_SIZE)),
        faults);
    roots.put(adapter, root);
    return adapter;
  }

  @Override
  public Optional<FaultController> faults() {
    return Optional.of(faults);
  }

  @Override
  public Optional<ResidueMaker> residue() {
    return Optional.of((adapter, path, partialBytes) -> {
      Path root;
      synchronized (this) {
        root = roots.get(adapter);
      }
      if (root == null) {
        throw new IllegalArgumentException("adapter was not opened by this binding: " + adapter);
      }
      String name = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
      Path file = root.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, partialBytes);
      return name;
    });
  }

  /** One-shot faults armed by the suite, fired by the adapter's {@link StorageIoHook} calls. */
  static final class HookFaults implements FaultController, StorageIoHook {
    private int listPageCountdown;
    private int listPageArmed;
    private boolean failPut;
    private boolean failDelete;
    private boolean failAfterPut;

    @Override
    public synchronized void before(Point point, String path) throws IOException {
      switch (point) {
        case LIST_PAGE -> {
          if (listPageCountdown > 0 && --listPageCountdown == 0) {
            throw new IOException("injected fault: list page " + listPageArmed + " of '" + path + "'");
          }
        }
        case PUT -> {
          if (failPut) {
            failPut = false;
            throw new IOException("injected fault: put of '" + path + "'");
          }
        }
        case PUT_APPLIED -> {
          if (failAfterPut) {
            failAfterPut = false;
            throw new IOException("injected fault: lost acknowledgement of the put of '" + path + "'");
          }
        }
        case DELETE -> {
          if (failDelete) {
            failDelete = false;
            throw new IOException("injected fault: delete of '" + path + "'");
          }
        }
      }
    }

    @Override
    public synchronized void failListPage(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("page numbers start at 1: " + n);
      }
      listPageCountdown = n;
      listPageArmed = n;
    }

    @Override
    public synchronized void failNextPut() {
      failPut = true;
    }

    @Override
    public synchronized void failNextDelete() {
      failDelete = true;
    }

    @Override
    public synchronized void applyNextPutThenFail() {
      failAfterPut = true;
    }

    @Override
    public synchronized List<String> unfired() {
      List<String> out = new ArrayList<>();
      if (listPageCountdown > 0) {
        out.add("fail list page " + listPageArmed + " (" + listPageCountdown + " page fetch(es) still to come)");
      }
      if (failPut) {
        out.add("fail next put");
      }
      if (failDelete) {
        out.add("fail next delete");
      }
      if (failAfterPut) {
        out.add("apply next put, then fail");
      }
      return out;
    }

    @Override
    public synchronized void reset() {
      listPageCountdown = 0;
      failPut = false;
      failDelete = false;
      failAfterPut = false;
    }
  }
}
