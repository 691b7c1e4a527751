package io.omnigraph.adapter.s3;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;

/**
 * An {@link SdkHttpClient} wrapper that counts, per adapter call, the HTTP attempts the SDK made:
 * sent, answered, and failed to connect (so nothing was sent). The SDK retries transparently, so
 * without this the adapter could not tell "412 because another writer won" from "412 because our
 * own first attempt was applied, its response was lost, and the retry met our own object": the
 * second must be {@code OUTCOME_UNKNOWN}, never {@code PRECONDITION_FAILED}.
 *
 * <p>The sync S3 client runs every attempt on the calling thread, so the counters of the current
 * call live in a thread local between {@link #begin()} and {@link #end()}.
 */
final class AttemptLedger implements SdkHttpClient {
  private final SdkHttpClient delegate;
  private final ThreadLocal<Attempts> current = new ThreadLocal<>();

  AttemptLedger(SdkHttpClient delegate) {
    this.delegate = delegate;
  }

  /** The attempt counters of one adapter call. Only its own thread touches them. */
  static final class Attempts {
    private int sent;
    private int answered;
    private int connectFailures;

    /** @return attempts that may have reached the server but got no response */
    int lost() {
      return sent - answered - connectFailures;
    }

    /** @return attempts that failed to connect, so sent nothing */
    int connectFailures() {
      return connectFailures;
    }

    @Override
    public String toString() {
      return sent + " sent, " + answered + " answered, " + connectFailures + " could not connect";
    }
  }

  /** Starts counting the attempts of one call on this thread. */
  Attempts begin() {
    Attempts a = new Attempts();
    current.set(a);
    return a;
  }

  /** Stops counting on this thread. */
  void end() {
    current.remove();
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest inner = delegate.prepareRequest(request);
    Attempts a = current.get();
    if (a == null) {
      return inner;
    }
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        a.sent++;
        try {
          HttpExecuteResponse response = inner.call();
          a.answered++;
          return response;
        } catch (IOException e) {
          if (isConnectFailure(e)) {
            a.connectFailures++;
          }
          throw e;
        }
      }

      @Override
      public void abort() {
        inner.abort();
      }
    };
  }

  static boolean isConnectFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
          || (t instanceof InterruptedIOException && t.getClass().getSimpleName().equals("ConnectTimeoutException"))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String clientName() {
    return delegate.clientName();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
