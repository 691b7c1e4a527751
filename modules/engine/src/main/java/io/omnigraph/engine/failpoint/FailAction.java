package io.omnigraph.engine.failpoint;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import java.time.Duration;
import java.util.Objects;

/**
 * What an armed failpoint does when it fires. The set is closed: {@link Error} (throw a typed
 * engine failure), {@link Halt} (stop the JVM at once, as a crash would), {@link Delay} (sleep, to
 * widen a race window) and {@link Call} (run test code, for example to park a thread or race a
 * second writer; only armable from code, never from the system property).
 */
public sealed interface FailAction {

  /**
   * Throws a {@link StorageFailureException} whose message is {@code injected failpoint triggered:
   * <name>}, whose detail is {@link ErrorDetail.Storage} with kind {@value #STORAGE_KIND}, and whose
   * cause is an {@link InjectedFailure} naming the failpoint ({@link Failpoints#injectedBy}). The
   * engine treats it like any storage failure at that step: nothing is swallowed.
   */
  record Error() implements FailAction {
    /** The {@link ErrorDetail.Storage#storageKind()} of an injected failure. */
    public static final String STORAGE_KIND = "INJECTED";
  }

  /**
   * Stops the JVM with {@link Runtime#halt(int)}: no shutdown hooks, no finally blocks, no flushing
   * of anything the engine buffered — the closest a JVM gets to {@code kill -9} at an exact point.
   *
   * @param status the exit status (default {@link Failpoints#HALT_STATUS})
   */
  record Halt(int status) implements FailAction {}

  /**
   * Sleeps for {@code duration}, then continues normally.
   *
   * @param duration how long; not negative
   */
  record Delay(Duration duration) implements FailAction {
    public Delay {
      Objects.requireNonNull(duration, "duration");
      if (duration.isNegative()) {
        throw new IllegalArgumentException("negative delay " + duration);
      }
    }
  }

  /**
   * Runs {@code action} on the thread that reached the failpoint, then continues normally (an
   * unchecked exception from {@code action} propagates into the engine as the failure at that step).
   *
   * @param action the test code
   */
  record Call(Runnable action) implements FailAction {
    public Call {
      Objects.requireNonNull(action, "action");
    }
  }

  /** @return an {@link Error} action */
  static FailAction error() {
    return new Error();
  }

  /** @return a {@link Halt} with {@link Failpoints#HALT_STATUS} */
  static FailAction halt() {
    return new Halt(Failpoints.HALT_STATUS);
  }

  /**
   * @param duration how long to sleep
   * @return a {@link Delay}
   */
  static FailAction delay(Duration duration) {
    return new Delay(duration);
  }

  /**
   * @param action test code to run at the failpoint
   * @return a {@link Call}
   */
  static FailAction call(Runnable action) {
    return new Call(action);
  }

  /** The cause of an injected {@link Error}: names the failpoint that fired. */
  final class InjectedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String failpoint;

    InjectedFailure(String failpoint) {
      super("injected failpoint triggered: " + failpoint, null, false, false);
      this.failpoint = failpoint;
    }

    /** @return the failpoint's name */
    public String failpoint() {
      return failpoint;
    }
  }
}
