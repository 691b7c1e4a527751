package io.omnigraph.testkit.tck;

import io.omnigraph.conformance.AdapterPath;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link HttpStoreBinding} per {@link AdapterPath} of a {@code @ParameterizedClass} TCK class:
 * each is made on first use (so each path gets its own FaultProxy), handed to every test of that
 * path, and closed after the class, failing it when a proxy broke. What is left to the test class
 * is how to bind one path:
 *
 * <pre>{@code
 * @ParameterizedClass
 * @EnumSource(AdapterPath.class)
 * class MyStoreTckTest extends StorageAdapterContract {
 *   @RegisterExtension static final HttpStoreBindings BINDINGS = new HttpStoreBindings(MyStoreTckTest::bind);
 *   @Parameter AdapterPath path;
 *
 *   @Override protected StorageTckBinding binding() { return BINDINGS.of(path); }
 *
 *   static HttpStoreBinding bind(AdapterPath path) throws Exception {
 *     var provider = path.provider("my");
 *     return new HttpStoreBinding("my (" + path + ")", endpoint, dialect, proxy -> ..., rawWriter);
 *   }
 * }
 * }</pre>
 *
 * <p>Register it as a static {@code @RegisterExtension} field (docs/tck.md, "Faults").
 */
public final class HttpStoreBindings implements BeforeAllCallback, AfterAllCallback {

  /** Binds one way of loading the adapter. */
  public interface Binder {
    /** @return a new binding whose adapters are the provider loaded through {@code path} */
    HttpStoreBinding bind(AdapterPath path) throws Exception;
  }

  private final Binder binder;
  private final Map<AdapterPath, HttpStoreBinding> bindings = new EnumMap<>(AdapterPath.class);
  /** JUnit calls before/afterAll again for each {@code @Nested} contract group; only the outermost pair counts. */
  private int classDepth;

  /** @param binder makes the binding of a path, the first time a test of that path asks for it */
  public HttpStoreBindings(Binder binder) {
    this.binder = binder;
  }

  /**
   * @return the binding of {@code path}, made on the first call
   * @throws AssertionError when it cannot be made (the adapter cannot be loaded that way, the proxy cannot start)
   */
  public synchronized HttpStoreBinding of(AdapterPath path) {
    HttpStoreBinding b = bindings.get(path);
    if (b == null) {
      try {
        b = binder.bind(path);
      } catch (Exception e) {
        throw new AssertionError("cannot bind the adapter " + path + ": " + e, e);
      }
      bindings.put(path, b);
    }
    return b;
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    classDepth++;
  }

  /** After the test class: closes every binding made (their proxies); fails when a proxy reported a problem. */
  @Override
  public void afterAll(ExtensionContext context) {
    List<HttpStoreBinding> made;
    synchronized (this) {
      if (--classDepth > 0) {
        return;
      }
      made = new ArrayList<>(bindings.values());
      bindings.clear();
    }
    AssertionError failure = null;
    for (HttpStoreBinding b : made) {
      try {
        b.close();
      } catch (AssertionError e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
