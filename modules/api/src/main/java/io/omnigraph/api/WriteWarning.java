package io.omnigraph.api;

import java.util.Objects;

/**
 * Something that went wrong after a write was published and did not make it fail: the write's
 * commit is durable and visible, the warning says what follow-up work did not happen
 * (docs/maintenance.md, "Automatic maintenance").
 *
 * @param code the stable warning code ({@value #MAINTENANCE_FAILED})
 * @param message what happened, in words
 * @param cause the typed failure of the follow-up work ({@link OmnigraphException#code()} and its
 *     detail, for example {@link ErrorDetail.RecoveryRequired} naming a sidecar that recovery
 *     still has to resolve)
 */
public record WriteWarning(String code, String message, OmnigraphException cause) {
  /** Automatic maintenance after the write failed; the write itself is published. */
  public static final String MAINTENANCE_FAILED = "maintenance_failed";

  public WriteWarning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(cause, "cause");
  }
}
