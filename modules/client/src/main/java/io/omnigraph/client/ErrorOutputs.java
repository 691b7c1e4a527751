package io.omnigraph.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.UnsupportedStorageVersionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds the typed exception from a server's ErrorOutput body and HTTP status (docs/server.md,
 * "Errors in the client"). The status decides the kind, so a server that answered with the wrong
 * status is caught by the graph contract suite; the detail object is rebuilt field by field.
 */
public final class ErrorOutputs {
  private ErrorOutputs() {}

  /**
   * @param status the HTTP status
   * @param body the response body
   * @return the exception the embedded engine would have thrown
   */
  public static OmnigraphException rebuild(int status, byte[] body, ObjectMapper json) {
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (IOException e) {
      root = null;
    }
    if (root == null || !root.isObject() || !root.path("error").isTextual()) {
      String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
      return new InternalErrorException("the server answered " + status + " without an ErrorOutput body: " + text, null);
    }
    return rebuild(status, root);
  }

  /**
   * @param status the HTTP status the failure has (of the response, or the {@code status} of a write warning)
   * @param root an ErrorOutput object ({@code {error, code?, <detail>?}})
   * @return the exception the embedded engine would have thrown
   */
  public static OmnigraphException rebuild(int status, JsonNode root) {
    if (root == null || !root.isObject() || !root.path("error").isTextual()) {
      return new InternalErrorException("the server sent " + status + " without an ErrorOutput: " + root, null);
    }
    String message = root.get("error").textValue();
    String code = root.path("code").asText("");
    ErrorDetail detail = detail(root);
    switch (status) {
      case 400:
        return new InvalidInputException(message, detail);
      case 401:
      case 403:
      case 405:
      case 415:
        return new InvalidInputException(message, detail != null ? detail : new ErrorDetail.Validation(null, null, null, code));
      case 404:
        return new NotFoundException(message, detail);
      case 409:
        return new ConflictException(message, detail);
      case 412:
        return new PreconditionFailedException(message, detail);
      case 413:
        return new ResourceLimitException(message, detail);
      case 429:
        return new ConflictException(message, detail != null ? detail : new ErrorDetail.Validation(null, null, null, code));
      case 503:
        return new RecoveryRequiredException(message, detail);
      default:
        if (code.equals("unsupported_storage_version")) {
          return new UnsupportedStorageVersionException(message, detail);
        }
        if (detail instanceof ErrorDetail.Storage) {
          return new StorageFailureException(message, detail);
        }
        return new InternalErrorException(message, detail);
    }
  }

  private static ErrorDetail detail(JsonNode root) {
    JsonNode n;
    if ((n = root.get("key_conflict")) != null) {
      List<String> ids = new ArrayList<>();
      n.path("entity_ids").forEach(i -> ids.add(i.asText()));
      if (ids.isEmpty() && n.hasNonNull("entity_id")) {
        ids.add(n.get("entity_id").asText());
      }
      return new ErrorDetail.KeyConflict(n.path("entity_kind").asText(), n.path("type_name").asText(), ids);
    }
    if ((n = root.get("merge_conflicts")) != null && n.isArray() && n.size() > 0) {
      List<ErrorDetail.MergeConflict> conflicts = new ArrayList<>();
      n.forEach(c -> conflicts.add(new ErrorDetail.MergeConflict(c.path("kind").asText(), c.path("entity_kind").asText(),
          c.path("type_name").asText(), c.path("entity_id").asText(), raw(c, "base"), raw(c, "source"), raw(c, "target"),
          c.path("message").asText())));
      return new ErrorDetail.MergeConflicts(conflicts);
    }
    if ((n = root.get("read_set_conflict")) != null) {
      return new ErrorDetail.ReadSetConflict(n.path("member").asText(), text(n, "expected"), text(n, "actual"));
    }
    if ((n = root.get("published_dataset_version_conflict")) != null) {
      return new ErrorDetail.PublishedVersionConflict(n.path("entity_kind").asText(), n.path("type_name").asText(),
          n.path("expected_published_dataset_version").asLong(), n.path("actual_published_dataset_version").asLong());
    }
    if ((n = root.get("resource_limit")) != null) {
      return new ErrorDetail.ResourceLimit(n.path("resource").asText(), n.path("limit").asLong(), n.path("actual").asLong());
    }
    if ((n = root.get("recovery_required")) != null) {
      return new ErrorDetail.RecoveryRequired(n.path("operation_id").asText());
    }
    if ((n = root.get("precondition_failure")) != null) {
      return new ErrorDetail.PreconditionFailure(n.path("branch").asText(), n.path("expected").asText(), text(n, "actual"));
    }
    if ((n = root.get("validation")) != null) {
      return new ErrorDetail.Validation(number(n, "line"), number(n, "column"), text(n, "field"), text(n, "rule"));
    }
    if ((n = root.get("storage")) != null) {
      return new ErrorDetail.Storage(n.path("kind").asText(), text(n, "path"));
    }
    if ((n = root.get("unsupported_stamp")) != null) {
      return new ErrorDetail.UnsupportedStamp(text(n, "found"), n.path("expected").asInt());
    }
    return null;
  }

  /** A member embedded as JSON, re-rendered compactly; absent → {@code null}, JSON null → {@code "null"}. */
  private static String raw(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null ? null : v.toString();
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Long number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asLong();
  }
}
