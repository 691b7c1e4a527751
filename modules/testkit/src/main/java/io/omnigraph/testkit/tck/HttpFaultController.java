package io.omnigraph.testkit.tck;

import io.omnigraph.conformance.FaultController;
import io.omnigraph.testkit.fault.ArmedFault;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import io.omnigraph.testkit.fault.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A {@link FaultController} for HTTP object stores, on a {@link FaultProxy} in front of the
 * service: the adapter's endpoint is the proxy, so every fault is an HTTP answer the real SDK
 * receives, retries and maps. What differs per backend (which requests are which operation, what a
 * refusal and a busy answer look like, how often the SDK tries) is a {@link Dialect}.
 *
 * <p>Counting: every request the proxy saw is a request; {@link #requests(Operation)} classifies
 * them with the dialect's patterns.
 *
 * <p>{@link HttpDialects} holds the dialects of S3, GCS and Azure Blob; {@link HttpStoreBinding}
 * is a whole binding on top of this controller (docs/tck.md, "Faults").
 */
public final class HttpFaultController implements FaultController {

  /**
   * One kind of request: an HTTP method and a pattern the whole raw request target must match.
   *
   * @param method the HTTP method
   * @param target the pattern (see {@link FaultRule})
   */
  public record Request(String method, String target) {
    boolean matches(RecordedRequest r) {
      return method.equalsIgnoreCase(r.method()) && Pattern.compile(target).matcher(r.target()).matches();
    }
  }

  /**
   * What the controller needs to know about one backend's HTTP API.
   *
   * @param requests the request of each {@link Operation}
   * @param busy the service's "try again later" answer (a retryable failure; nothing took effect)
   * @param denied the service's permission refusal (HTTP 403 with its own error body)
   * @param tries how many times the SDK sends one request that keeps failing with {@code busy}
   */
  public record Dialect(Map<Operation, Request> requests, Fault busy, Fault denied, int tries) {
    public Dialect {
      requests = Map.copyOf(requests);
      for (Operation op : Operation.values()) {
        Objects.requireNonNull(requests.get(op), () -> "no request pattern for " + op);
      }
      if (tries < 1) {
        throw new IllegalArgumentException("tries must be >= 1: " + tries);
      }
    }
  }

  private final FaultProxy proxy;
  private final Dialect dialect;
  private final List<ArmedFault> armed = new ArrayList<>();

  /** Controls {@code proxy}, which every adapter of the binding must use as its endpoint. */
  public HttpFaultController(FaultProxy proxy, Dialect dialect) {
    this.proxy = Objects.requireNonNull(proxy, "proxy");
    this.dialect = Objects.requireNonNull(dialect, "dialect");
  }

  /** @return the proxy under the controller */
  public FaultProxy proxy() {
    return proxy;
  }

  private FaultRule.Builder on(Operation op) {
    Request r = dialect.requests().get(op);
    return FaultRule.on(r.method(), r.target());
  }

  private synchronized void arm(FaultRule rule) {
    armed.add(proxy.arm(rule));
  }

  @Override
  public void failListPage(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("page numbers start at 1: " + n);
    }
    arm(on(Operation.LIST_PAGE).nth(n).times(dialect.tries()).then(dialect.busy()));
  }

  @Override
  public void failNextPut() {
    arm(on(Operation.PUT).times(dialect.tries()).then(dialect.busy()));
  }

  @Override
  public void failNextDelete() {
    arm(on(Operation.DELETE).times(dialect.tries()).then(dialect.busy()));
  }

  @Override
  public void applyNextPutThenFail() {
    // every try is applied and its answer dropped: the adapter only ever sees lost responses
    arm(on(Operation.PUT).times(dialect.tries()).then(Fault.forwardThenDrop()));
  }

  @Override
  public void denyNext(Operation operation) {
    // a refusal is not retried by the SDKs; a retry would meet the real service and pass the test's check
    arm(on(operation).then(dialect.denied()));
  }

  @Override
  public void delayEveryPut(Duration delay) {
    arm(on(Operation.PUT).times(Integer.MAX_VALUE / 2).then(Fault.delay(Math.max(1, delay.toMillis()))));
  }

  @Override
  public long requests() {
    return proxy.requests().size();
  }

  @Override
  public long requests(Operation operation) {
    Request r = dialect.requests().get(operation);
    return proxy.requests().stream().filter(r::matches).count();
  }

  @Override
  public synchronized List<String> unfired() {
    List<String> out = new ArrayList<>();
    for (ArmedFault f : armed) {
      if (!f.disarmed() && f.fired() == 0) {
        out.add(f.toString());
      }
    }
    return out;
  }

  @Override
  public synchronized void reset() {
    armed.forEach(ArmedFault::disarm);
    armed.clear();
  }
}
