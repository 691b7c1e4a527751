package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * The one structured detail an {@link OmnigraphException} may carry. The set is closed; each
 * record renders as one named JSON object in {@link OmnigraphException#toJson()} (the field name is
 * {@link #jsonField()}); the shape and every detail are listed in docs/errors.md ("Details").
 */
public sealed interface ErrorDetail {

  /** @return the name of the JSON object this detail is written as, e.g. {@code key_conflict} */
  String jsonField();

  /**
   * A strict insert met ids that already exist.
   *
   * @param entityKind {@code node} or {@code edge}
   * @param typeName the node or edge type name
   * @param entityIds the conflicting ids (at least one), in input order
   */
  record KeyConflict(String entityKind, String typeName, List<String> entityIds) implements ErrorDetail {
    public KeyConflict {
      Objects.requireNonNull(entityKind, "entityKind");
      Objects.requireNonNull(typeName, "typeName");
      entityIds = List.copyOf(entityIds);
      if (entityIds.isEmpty()) {
        throw new IllegalArgumentException("a key conflict names at least one id");
      }
    }

    @Override
    public String jsonField() {
      return "key_conflict";
    }
  }

  /**
   * Something the write read while preparing changed before it could publish.
   *
   * @param member what changed, e.g. {@code graph_head:main}
   * @param expected the value seen while preparing, or {@code null} for "absent"
   * @param actual the value found now, or {@code null} for "absent"
   */
  record ReadSetConflict(String member, String expected, String actual) implements ErrorDetail {
    public ReadSetConflict {
      Objects.requireNonNull(member, "member");
    }

    @Override
    public String jsonField() {
      return "read_set_conflict";
    }
  }

  /**
   * The published version of a table moved between prepare and publish.
   *
   * @param entityKind {@code node} or {@code edge}
   * @param typeName the type name
   * @param expected the version the write was prepared against
   * @param actual the version now published (0 when the table is absent)
   */
  record PublishedVersionConflict(String entityKind, String typeName, long expected, long actual)
      implements ErrorDetail {
    @Override
    public String jsonField() {
      return "published_dataset_version_conflict";
    }
  }

  /**
   * A per-transaction limit was exceeded before anything was written.
   *
   * @param resource what was counted, e.g. {@code keyed write entities for node:Person}
   * @param limit the inclusive limit
   * @param actual the observed amount
   */
  record ResourceLimit(String resource, long limit, long actual) implements ErrorDetail {
    public ResourceLimit {
      Objects.requireNonNull(resource, "resource");
    }

    @Override
    public String jsonField() {
      return "resource_limit";
    }
  }

  /**
   * An interrupted operation owns state this request needs.
   *
   * @param operationId the id of the interrupted operation
   */
  record RecoveryRequired(String operationId) implements ErrorDetail {
    public RecoveryRequired {
      Objects.requireNonNull(operationId, "operationId");
    }

    @Override
    public String jsonField() {
      return "recovery_required";
    }
  }

  /**
   * A caller-supplied expectation did not hold.
   *
   * @param branch the graph branch ({@code main} for main)
   * @param expected the commit id the caller expected
   * @param actual the commit id found, or {@code null} when there is none
   */
  record PreconditionFailure(String branch, String expected, String actual) implements ErrorDetail {
    public PreconditionFailure {
      Objects.requireNonNull(branch, "branch");
      Objects.requireNonNull(expected, "expected");
    }

    @Override
    public String jsonField() {
      return "precondition_failure";
    }
  }

  /**
   * Where invalid input was found. Every field is optional; a schema error has a line and column, a
   * data error a line and usually a field.
   *
   * @param line 1-based line number, or {@code null}
   * @param column 1-based column, or {@code null}
   * @param field the property, key or JSON member concerned, or {@code null}
   * @param rule a short stable name of the violated rule (e.g. {@code unknown_type}), or {@code null}
   */
  record Validation(Long line, Long column, String field, String rule) implements ErrorDetail {
    @Override
    public String jsonField() {
      return "validation";
    }
  }

  /**
   * A branch merge found conflicts; nothing was written (docs/branches.md, "Merge conflicts").
   *
   * @param conflicts every conflict found (at least one), ordered by table key, then id
   */
  record MergeConflicts(List<MergeConflict> conflicts) implements ErrorDetail {
    public MergeConflicts {
      conflicts = List.copyOf(conflicts);
      if (conflicts.isEmpty()) {
        throw new IllegalArgumentException("merge conflicts name at least one conflict");
      }
    }

    @Override
    public String jsonField() {
      return "merge_conflicts";
    }
  }

  /**
   * One merge conflict.
   *
   * @param kind {@code divergent_insert}, {@code divergent_update}, {@code delete_vs_update} (both
   *     sides changed the row differently), or {@code orphan_edge}, {@code unique_violation},
   *     {@code cardinality_violation}, {@code value_constraint_violation} (the merged graph would
   *     break a schema rule)
   * @param entityKind {@code node} or {@code edge}
   * @param typeName the node or edge type
   * @param entityId the row's id
   * @param base the row in the merge base as compact JSON text ({@code null} JSON literal when
   *     absent); Java {@code null} when not shown (over 1 KiB, or not a row conflict)
   * @param source the row on the source branch, same encoding
   * @param target the row on the target branch, same encoding
   * @param message what conflicts, for people
   */
  record MergeConflict(String kind, String entityKind, String typeName, String entityId, String base,
      String source, String target, String message) {
    public MergeConflict {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(entityKind, "entityKind");
      Objects.requireNonNull(typeName, "typeName");
      Objects.requireNonNull(entityId, "entityId");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * The storage backend failed.
   *
   * @param storageKind the SPI failure kind ({@code io.omnigraph.api.storage.StorageException.Kind} name)
   * @param path the root-relative path concerned, or {@code null}
   */
  record Storage(String storageKind, String path) implements ErrorDetail {
    public Storage {
      Objects.requireNonNull(storageKind, "storageKind");
    }

    @Override
    public String jsonField() {
      return "storage";
    }
  }

  /**
   * The graph root's internal storage version is not the one this release serves.
   *
   * @param found the stamp found ({@code null} when absent), verbatim
   * @param expected the only stamp this release serves
   */
  record UnsupportedStamp(String found, int expected) implements ErrorDetail {
    @Override
    public String jsonField() {
      return "unsupported_stamp";
    }
  }
}
