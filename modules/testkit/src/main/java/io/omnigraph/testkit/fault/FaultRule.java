package io.omnigraph.testkit.fault;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Selects requests for a {@link Fault}: the {@code nth} request (1-based, counted from the moment
 * the rule is armed) whose method and request target match, and the {@code times - 1} matching
 * requests after it (so that a fault can outlive a client's own retries).
 *
 * <p>The target is the raw request target as the client sent it: path plus {@code ?query}, still
 * percent-encoded, e.g. {@code /bucket/dir/a.json?x-id=PutObject}. The pattern must match the
 * whole target ({@link java.util.regex.Matcher#matches()}).
 *
 * @param method the HTTP method to match (upper case), or {@code null} for any method
 * @param target the pattern the whole request target must match
 * @param nth which matching request fires first (1 = the next one)
 * @param times how many consecutive matching requests fire, starting at the {@code nth}
 * @param fault what to do to them
 */
public record FaultRule(String method, Pattern target, int nth, int times, Fault fault) {
  public FaultRule {
    method = method == null ? null : method.toUpperCase(Locale.ROOT);
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(fault, "fault");
    if (nth < 1) {
      throw new IllegalArgumentException("nth must be >= 1: " + nth);
    }
    if (times < 1) {
      throw new IllegalArgumentException("times must be >= 1: " + times);
    }
  }

  /** Starts a rule for {@code method} (or {@code null}: any) and a whole-target regex. */
  public static Builder on(String method, String targetRegex) {
    return new Builder(method, Pattern.compile(targetRegex));
  }

  /** @return whether a request with this method and raw target is selected by this rule's pattern */
  public boolean matches(String requestMethod, String requestTarget) {
    return (method == null || method.equalsIgnoreCase(requestMethod)) && target.matcher(requestTarget).matches();
  }

  @Override
  public String toString() {
    return (method == null ? "*" : method) + " " + target.pattern() + " #" + nth
        + (times > 1 ? " x" + times : "") + " -> " + fault;
  }

  /** Fluent construction of a {@link FaultRule}. */
  public static final class Builder {
    private final String method;
    private final Pattern target;
    private int nth = 1;
    private int times = 1;

    private Builder(String method, Pattern target) {
      this.method = method;
      this.target = target;
    }

    /** Fires on the {@code n}-th matching request (1-based); default 1. */
    public Builder nth(int n) {
      this.nth = n;
      return this;
    }

    /** Fires on {@code k} consecutive matching requests; default 1. */
    public Builder times(int k) {
      this.times = k;
      return this;
    }

    /** @return the finished rule */
    public FaultRule then(Fault fault) {
      return new FaultRule(method, target, nth, times, fault);
    }
  }
}
