package io.omnigraph.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.storage.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Maps every failure a command can raise to an exit code, a readable message and an
 * ErrorOutput-shaped JSON object ({@code {"error": ..., "code": ..., <one detail>}}).
 */
public final class Failures {
  private Failures() {}

  /** How a failure is reported. */
  public record Report(int exitCode, String code, String message, ObjectNode json) {}

  /** @return the report for {@code failure}; never throws */
  public static Report describe(Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof CliFailure f) {
      return report(f.exitCode(), f.code(), f.getMessage());
    }
    if (t instanceof OmnigraphException e) {
      ObjectNode json = Json.parseObject(e.toJson());
      String code = e.code();
      if (e.kind() == ErrorKind.STORAGE) {
        // The engine's code for a storage failure is the HTTP-style "internal" (500); the CLI exits
        // 4 for it, so its JSON says "storage" (or "permission_denied"), agreeing with the exit code.
        code = e.detail().orElse(null) instanceof ErrorDetail.Storage s
            && StorageException.Kind.PERMISSION.name().equals(s.storageKind()) ? "permission_denied" : "storage";
        json.put("code", code);
      }
      return new Report(exitCode(e.kind()), code, e.getMessage(), json);
    }
    if (t instanceof StorageException s) {
      Report r = report(ExitCode.STORAGE,
          s.kind() == StorageException.Kind.PERMISSION ? "permission_denied" : "storage", s.getMessage());
      ObjectNode detail = r.json().putObject("storage");
      detail.put("kind", s.kind().name().toLowerCase(java.util.Locale.ROOT));
      if (s.path() != null) {
        detail.put("path", s.path());
      }
      return r;
    }
    if (t instanceof IOException io) {
      return report(ExitCode.STORAGE, "io", String.valueOf(io.getMessage()));
    }
    String message = t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    return report(ExitCode.INTERNAL, "internal", message);
  }

  /**
   * The exit code for each engine failure kind. Exhaustive on purpose: a new kind fails the build
   * here until someone decides its exit code.
   */
  static int exitCode(ErrorKind kind) {
    return switch (kind) {
      case INVALID_INPUT, NOT_FOUND, RESOURCE_LIMIT, UNSUPPORTED_STORAGE_VERSION -> ExitCode.DATA;
      case CONFLICT, PRECONDITION_FAILED, RECOVERY_REQUIRED -> ExitCode.CONFLICT;
      case STORAGE -> ExitCode.STORAGE;
      case INTERNAL -> ExitCode.INTERNAL;
    };
  }

  private static Report report(int exitCode, String code, String message) {
    ObjectNode json = Json.object();
    json.put("error", message);
    json.put("code", code);
    return new Report(exitCode, code, message, json);
  }

  private static Throwable unwrap(Throwable t) {
    Throwable current = t;
    while (current instanceof UncheckedIOException && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
