package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageIoHook;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link FaultController} for adapters that accept a {@link StorageIoHook}
 * ({@link io.omnigraph.api.storage.StorageAdapterProvider#openWithIoHook}): pass this object as the
 * hook, and each armed one-shot fault makes the adapter's next matching real I/O step fail with an
 * {@link IOException} (an {@link AccessDeniedException} for a permission refusal, what the JDK
 * throws for {@code EACCES}), which the adapter maps as it maps a real failure. Every hook call is
 * one counted request. Thread-safe; one controller may serve every root a binding opens.
 */
public final class IoHookFaultController implements FaultController, StorageIoHook {
  private final Map<Operation, AtomicLong> counts = new EnumMap<>(Operation.class);
  private final AtomicLong total = new AtomicLong();
  private int listPageCountdown;
  private int listPageArmed;
  private boolean failPut;
  private boolean failDelete;
  private boolean failAfterPut;
  private final EnumMap<Operation, Boolean> deny = new EnumMap<>(Operation.class);
  private Duration putDelay;
  private boolean putDelayed;

  /** Creates a controller with no fault armed. */
  public IoHookFaultController() {
    for (Operation op : Operation.values()) {
      counts.put(op, new AtomicLong());
    }
  }

  private static Operation operationOf(Point point) {
    return switch (point) {
      case READ -> Operation.READ;
      case EXISTS -> Operation.EXISTS;
      case PUT -> Operation.PUT;
      case DELETE -> Operation.DELETE;
      case LIST_PAGE -> Operation.LIST_PAGE;
      case PUT_APPLIED -> null; // the second half of a put, not a request of its own
      case SYNC -> null; // a durability step of the local adapter, not a request
    };
  }

  @Override
  public void before(Point point, String path) throws IOException {
    Operation op = operationOf(point);
    if (op != null) {
      total.incrementAndGet();
      counts.get(op).incrementAndGet();
    }
    Duration delay = null;
    synchronized (this) {
      if (op != null && Boolean.TRUE.equals(deny.remove(op))) {
        throw new AccessDeniedException(path, null, "injected fault: permission denied for " + op);
      }
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
          if (putDelay != null) {
            putDelayed = true;
            delay = putDelay;
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
        case READ, EXISTS -> {
          // counted above; no one-shot fault of their own besides a permission refusal
        }
      }
    }
    if (delay != null) {
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the put of '" + path + "' was held", e);
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
  public synchronized void denyNext(Operation operation) {
    deny.put(operation, true);
  }

  @Override
  public synchronized void delayEveryPut(Duration delay) {
    putDelay = delay;
    putDelayed = false;
  }

  @Override
  public long requests() {
    return total.get();
  }

  @Override
  public long requests(Operation operation) {
    return counts.get(operation).get();
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
    deny.keySet().forEach(op -> out.add("deny next " + op));
    if (putDelay != null && !putDelayed) {
      out.add("delay every put by " + putDelay.toMillis() + " ms (no put came)");
    }
    return out;
  }

  @Override
  public synchronized void reset() {
    listPageCountdown = 0;
    failPut = false;
    failDelete = false;
    failAfterPut = false;
    deny.clear();
    putDelay = null;
    putDelayed = false;
  }
}
