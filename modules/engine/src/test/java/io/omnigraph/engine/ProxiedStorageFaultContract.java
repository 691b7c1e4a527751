package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.testkit.fault.ArmedFault;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import io.omnigraph.testkit.fault.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;

/**
 * The storage-fault contract on an object store emulator: the graph is opened with its endpoint
 * pointed at a {@link FaultProxy} in front of the emulator (control files through the adapter's
 * SDK and table data through Lance both pass it), and each {@link SidecarIo} fault is a
 * {@link FaultRule} whose target pattern selects only requests for {@code __recovery/} under the
 * test's root. A rule answers every matching request (each SDK retry included) until it is closed,
 * with the backend's own error shape, so the fault goes through the SDK's real retry and
 * error-mapping code and reaches the engine as {@link #injectedKind()}.
 */
abstract class ProxiedStorageFaultContract extends StorageFaultContract {
  /** More matching requests than any SDK retry policy here makes; the rule is closed explicitly. */
  private static final int UNTIL_CLOSED = 100_000;

  private FaultProxy proxy;

  /** @return the emulator's endpoint (what the proxy forwards to) */
  abstract URI upstream();

  /** @return the options that reach the store at {@code endpoint} (the proxy's or the emulator's) */
  abstract Map<String, String> options(String endpoint);

  /**
   * @return the whole-target regex that selects the requests of {@code io} for {@link #root}
   *     ({@link SidecarIo#PUT_RESPONSE_LOST} is never asked: it selects the requests of a put)
   */
  abstract String target(SidecarIo io);

  /** @return the HTTP method of {@code io}'s requests: the object verbs of S3 and Azure (GCS uploads are POSTs) */
  String method(SidecarIo io) {
    return switch (io) {
      case PUT, PUT_RESPONSE_LOST -> "PUT";
      case DELETE -> "DELETE";
      case LIST, READ -> "GET";
    };
  }

  /** @return the backend-shaped failure answered to a selected request */
  abstract Fault failure();


  /** Every binding's root is {@code <scheme>://<fresh bucket or container>/graphs/g1}. */
  static final String PREFIX = "graphs/g1";

  /** The sidecar directory under every binding's root, as an object-name prefix. */
  static final String RECOVERY_DIR = PREFIX + "/__recovery/";

  /** @return the emulator endpoint as the adapter's {@code endpoint} option spells it */
  String endpoint(URI base) {
    return base.toString();
  }

  FaultProxy proxy() {
    if (proxy == null) {
      try {
        proxy = FaultProxy.start(upstream());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return proxy;
  }

  @AfterEach
  void stopProxy() {
    if (proxy != null) {
      FaultProxy p = proxy;
      proxy = null;
      p.close();
      assertThat(p.problems()).as("the fault proxy itself failed").isEmpty();
    }
  }

  @Override
  OpenOptions directOptions() {
    return new OpenOptions(options(endpoint(upstream())));
  }

  @Override
  Graph openThroughFaults(String root) {
    Map<String, String> o = new HashMap<>(options(endpoint(proxy().endpoint())));
    return Omnigraph.open(root, new OpenOptions(o));
  }

  @Override
  StorageException.Kind injectedKind() {
    return StorageException.Kind.TRANSIENT;
  }

  @Override
  Injected fail(String root, SidecarIo io) {
    FaultProxy p = proxy();
    SidecarIo request = io == SidecarIo.PUT_RESPONSE_LOST ? SidecarIo.PUT : io;
    Fault fault = io == SidecarIo.PUT_RESPONSE_LOST ? Fault.forwardThenDrop() : failure();
    ArmedFault armed = p.arm(FaultRule.on(method(request), target(request)).times(UNTIL_CLOSED).then(fault));
    return new Injected() {
      @Override
      public int fired() {
        return armed.fired();
      }

      @Override
      public void close() {
        armed.disarm();
      }

      @Override
      public String toString() {
        return armed + "; requests naming __recovery: " + p.requests().stream()
            .filter(r -> r.target().contains("__recovery") || r.target().contains("__recovery".replace("_", "%5F")))
            .map(RecordedRequest::toString).collect(Collectors.joining("\n  ", "\n  ", ""));
      }
    };
  }
}
