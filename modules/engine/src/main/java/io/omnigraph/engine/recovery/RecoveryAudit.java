package io.omnigraph.engine.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.recovery.RecoverySidecar.TableOutcome;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The recovery audit log {@code _graph_commit_recoveries.lance} (docs/recovery.md, "Reading the
 * audit"): one row per
 * recovery action, created lazily on the first one, appended through {@link TableStore}. It is not
 * catalog-tracked and carries no storage stamp.
 */
public final class RecoveryAudit {
  /** The audit dataset's path under the graph root. */
  public static final String PATH = "_graph_commit_recoveries.lance";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("graph_commit_id", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("recovery_kind", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("recovery_for_actor", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
      new Field("operation_id", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("sidecar_writer_kind", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("per_table_outcomes_json", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("created_at", FieldType.notNullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), null)));

  /** What a recovery did. */
  public enum Kind {
    /** The interrupted write's confirmed effects were published. */
    RolledForward,
    /** The interrupted write's effects were undone with Restore and the restored heads published. */
    RolledBack,
    /**
     * The interrupted write targeted a graph branch deleted since: deleting the branch made its
     * effects unreachable, so the sidecar was discarded (docs/branches.md, "Deleting a branch with
     * a pending write"). The row names the write's pre-minted rollback commit id, never published.
     */
    OrphanDiscarded
  }

  /**
   * One audit row.
   *
   * @param graphCommitId the commit recovery published (the original for roll-forward, the rollback id otherwise)
   * @param kind what recovery did
   * @param recoveryForActor the interrupted write's actor, or {@code null}
   * @param operationId the sidecar's operation id
   * @param writerKind the sidecar's writer kind (its JSON name)
   * @param outcomes per table: from version, to version
   * @param createdAtMicros when the row was written
   */
  public record Row(String graphCommitId, Kind kind, String recoveryForActor, String operationId, String writerKind,
      List<TableOutcome> outcomes, long createdAtMicros) {
    public Row {
      Objects.requireNonNull(graphCommitId);
      Objects.requireNonNull(kind);
      Objects.requireNonNull(operationId);
      Objects.requireNonNull(writerKind);
      outcomes = List.copyOf(outcomes);
    }

    /** @return this row as the API reports it */
    public io.omnigraph.api.RecoveryRecord toRecord() {
      return new io.omnigraph.api.RecoveryRecord(graphCommitId, kind.name(), recoveryForActor, operationId, writerKind,
          outcomes.stream().map(o -> new io.omnigraph.api.RecoveryRecord.TableOutcome(o.tableKey(), o.fromVersion(),
              o.toVersion())).toList(),
          java.time.Instant.EPOCH.plus(createdAtMicros, java.time.temporal.ChronoUnit.MICROS));
    }
  }

  private final TableStore tables;
  private final LanceLocation location;
  private final io.omnigraph.engine.storage.CommitDurability durability;

  /**
   * @param tables the table gateway
   * @param location where the audit dataset lives
   */
  public RecoveryAudit(TableStore tables, LanceLocation location) {
    this(tables, location, io.omnigraph.engine.storage.CommitDurability.none());
  }

  /**
   * @param durability makes each appended version durable (docs/write-protocol.md, "Durability"), so
   *     the row survives a power failure once recovery deletes the sidecar it accounts for
   */
  public RecoveryAudit(TableStore tables, LanceLocation location,
      io.omnigraph.engine.storage.CommitDurability durability) {
    this.tables = Objects.requireNonNull(tables);
    this.location = Objects.requireNonNull(location);
    this.durability = Objects.requireNonNull(durability);
  }

  /** Appends one row (creating the dataset on first use). */
  public void append(Row row) {
    ArrayNode outs = JSON.createArrayNode();
    for (TableOutcome o : row.outcomes()) {
      outs.addObject().put("table_key", o.tableKey()).put("from_version", o.fromVersion())
          .put("to_version", o.toVersion());
    }
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, tables.allocator())) {
      root.allocateNew();
      set(root, "graph_commit_id", row.graphCommitId());
      set(root, "recovery_kind", row.kind().name());
      set(root, "recovery_for_actor", row.recoveryForActor());
      set(root, "operation_id", row.operationId());
      set(root, "sidecar_writer_kind", row.writerKind());
      set(root, "per_table_outcomes_json", outs.toString());
      ((TimeStampMicroVector) root.getVector("created_at")).setSafe(0, row.createdAtMicros());
      root.setRowCount(1);
      Failpoints.hit(Failpoints.AUDIT_APPEND);
      long version = tables.writer().appendRows(location, PATH, SCHEMA, List.of(root));
      durability.syncOnce(tables.reader(), List.of(
          new io.omnigraph.engine.storage.CommitDurability.TableCommit(location, version - 1, version)));
    }
  }

  private static void set(VectorSchemaRoot root, String column, String value) {
    VarCharVector v = (VarCharVector) root.getVector(column);
    if (value == null) {
      v.setNull(0);
    } else {
      v.setSafe(0, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** @return every row, oldest first (empty when no recovery ever happened) */
  public List<Row> list() {
    Optional<TableSnapshot> s = tables.reader().openLatestIfExists(location);
    if (s.isEmpty()) {
      return List.of();
    }
    List<Row> rows = new ArrayList<>();
    try (TableSnapshot snapshot = s.get()) {
      tables.reader().scan(snapshot, null, null, root -> {
        for (int i = 0; i < root.getRowCount(); i++) {
          rows.add(decode(root, i));
        }
      });
    }
    rows.sort(Comparator.comparingLong(Row::createdAtMicros));
    return rows;
  }

  /** @return whether a row for {@code operationId} exists */
  public boolean recorded(String operationId) {
    return list().stream().anyMatch(r -> r.operationId().equals(operationId));
  }

  private static Row decode(VectorSchemaRoot root, int i) {
    List<TableOutcome> outcomes = new ArrayList<>();
    String json = text(root, "per_table_outcomes_json", i);
    try {
      for (JsonNode n : JSON.readTree(json)) {
        outcomes.add(new TableOutcome(n.get("table_key").asText(), n.get("from_version").asLong(),
            n.get("to_version").asLong()));
      }
    } catch (java.io.IOException | RuntimeException e) {
      throw new InternalErrorException("corrupted recovery audit row: " + json, null, e);
    }
    return new Row(text(root, "graph_commit_id", i), Kind.valueOf(text(root, "recovery_kind", i)),
        text(root, "recovery_for_actor", i), text(root, "operation_id", i), text(root, "sidecar_writer_kind", i),
        outcomes, ((TimeStampMicroVector) root.getVector("created_at")).get(i));
  }

  private static String text(VectorSchemaRoot root, String column, int i) {
    VarCharVector v = (VarCharVector) root.getVector(column);
    return v.isNull(i) ? null : new String(v.get(i), StandardCharsets.UTF_8);
  }
}
