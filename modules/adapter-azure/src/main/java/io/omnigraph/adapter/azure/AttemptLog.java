package io.omnigraph.adapter.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * Remembers, for one SDK call, whether any of its tries may have reached the service without the
 * adapter seeing the answer. The SDK retries a try whose response was lost (connection reset or
 * closed after the request went out, a timeout); when that try had been applied, the retry's
 * answer misleads: an {@code If-None-Match: *} retry gets 409 for the blob the lost try created.
 * The adapter therefore reports such a call as {@code OUTCOME_UNKNOWN} instead of trusting the
 * last answer.
 *
 * <p>Installed once per client as a per-try pipeline policy ({@link Policy}); a call opts in by
 * passing {@link #context()} to the SDK method.
 */
final class AttemptLog {
  private static final String KEY = "io.omnigraph.adapter.azure.AttemptLog";

  private final AtomicInteger tries = new AtomicInteger();
  private final AtomicBoolean possiblyApplied = new AtomicBoolean();

  /** @return an SDK context that makes {@link Policy} record this call's tries here */
  Context context() {
    return new Context(KEY, this);
  }

  /** @return how many tries the SDK made */
  int tries() {
    return tries.get();
  }

  /** @return whether some try failed in a way that does not prove it had no effect */
  boolean possiblyApplied() {
    return possiblyApplied.get();
  }

  private void record(Throwable failure) {
    tries.incrementAndGet();
    if (failure != null && !neverSent(failure)) {
      possiblyApplied.set(true);
    }
  }

  /** A failure to connect or resolve proves the request never left this process. */
  static boolean neverSent(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return true;
      }
    }
    return false;
  }

  /** The per-try policy that feeds the {@link AttemptLog} found in the call's context. */
  static final class Policy implements HttpPipelinePolicy {
    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      AttemptLog log = find(context);
      if (log == null) {
        return next.process();
      }
      return next.process().doOnSuccess(r -> log.record(null)).doOnError(log::record);
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
      AttemptLog log = find(context);
      if (log == null) {
        return next.processSync();
      }
      try {
        HttpResponse r = next.processSync();
        log.record(null);
        return r;
      } catch (RuntimeException | Error e) {
        log.record(e);
        throw e;
      }
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
      return HttpPipelinePosition.PER_RETRY;
    }

    private static AttemptLog find(HttpPipelineCallContext context) {
      return context.getData(KEY).filter(AttemptLog.class::isInstance).map(AttemptLog.class::cast).orElse(null);
    }
  }
}
