package io.omnigraph.engine;

import io.omnigraph.api.Graph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageIoHook;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.storage.GraphRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage-fault contract on local disk: the graph is opened over a file adapter whose real I/O
 * steps first pass a {@link StorageIoHook} ({@code openWithIoHook}, through the engine's
 * {@link GraphRoot#over} seam). An armed fault throws a plain {@link IOException} at the hook
 * point (as EIO would), which the adapter maps to {@code PERMANENT} like a real failure. Lance
 * writes table data itself, not through the adapter, so only control files can be failed — which
 * is exactly what the contract scopes faults to.
 */
class FsStorageFaultTest extends StorageFaultContract {
  @TempDir Path dir;
  private final RecoveryDirHook hook = new RecoveryDirHook();
  private int roots;

  @Override
  String freshRoot() {
    return dir.resolve("g" + ++roots).toString();
  }

  @Override
  OpenOptions directOptions() {
    return OpenOptions.defaults();
  }

  @Override
  Graph openThroughFaults(String root) {
    GraphRoot graphRoot;
    try {
      graphRoot = GraphRoot.over(root, StorageAdapters.provider("file")
          .openWithIoHook(StorageAdapters.toUri(root), Map.of(), hook));
    } catch (StorageException e) {
      throw GraphRoot.failure("cannot open " + root, e);
    }
    return OmnigraphEngine.open(graphRoot);
  }

  @Override
  Injected fail(String root, SidecarIo io) {
    RecoveryDirHook.Rule rule = new RecoveryDirHook.Rule(switch (io) {
      case PUT -> StorageIoHook.Point.PUT;
      case PUT_RESPONSE_LOST -> StorageIoHook.Point.PUT_APPLIED;
      case DELETE -> StorageIoHook.Point.DELETE;
      case LIST -> StorageIoHook.Point.LIST_PAGE;
      case READ -> throw new UnsupportedOperationException("StorageIoHook has no read point");
    });
    hook.rules.add(rule);
    return new Injected() {
      @Override
      public int fired() {
        return rule.fired.get();
      }

      @Override
      public void close() {
        hook.rules.remove(rule);
      }
    };
  }

  /** {@link StorageIoHook} reports writes, deletes and listing pages, not reads. */
  @Override
  boolean canFailReads() {
    return false;
  }

  @Override
  StorageException.Kind injectedKind() {
    return StorageException.Kind.PERMANENT;
  }

  @Override
  void plantRaw(String root, String name, byte[] bytes) throws IOException {
    Path file = Path.of(root).resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  @Override
  boolean rawExists(String root, String name) {
    return Files.exists(Path.of(root).resolve(name));
  }

  /**
   * Fails the file adapter's I/O steps on {@code __recovery/}: a put or delete of a file in it, or
   * a page of its listing, for each armed rule.
   */
  static final class RecoveryDirHook implements StorageIoHook {
    record Rule(Point point, AtomicInteger fired) {
      Rule(Point point) {
        this(point, new AtomicInteger());
      }
    }

    final CopyOnWriteArrayList<Rule> rules = new CopyOnWriteArrayList<>();

    @Override
    public void before(Point point, String path) throws IOException {
      boolean inRecoveryDir = point == Point.LIST_PAGE ? path.equals(RecoverySidecar.DIR)
          : path.startsWith(RecoverySidecar.DIR + "/");
      if (!inRecoveryDir) {
        return;
      }
      for (Rule r : rules) {
        if (r.point() == point) {
          r.fired().incrementAndGet();
          throw new IOException("injected fault: " + point + " of '" + path + "'");
        }
      }
    }
  }
}
