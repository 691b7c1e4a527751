package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageIoHook;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FaultController} for adapters that accept a {@link StorageIoHook}
 * ({@link io.omnigraph.api.storage.StorageAdapterProvider#openWithIoHook}): pass this object as the
 * hook, and each armed one-shot fault makes the adapter's next matching real I/O step fail with an
 * {@link IOException}, which the adapter maps as it maps a real failure. Thread-safe.
 */
public final class IoHookFaultController implements FaultController, StorageIoHook {
  private int listPageCountdown;
  private int listPageArmed;
  private boolean failPut;
  private boolean failDelete;
  private boolean failAfterPut;

  /** Creates a controller with no fault armed. */
  public IoHookFaultController() {}

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
