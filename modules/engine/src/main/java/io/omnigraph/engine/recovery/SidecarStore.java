package io.omnigraph.engine.recovery;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.recovery.SidecarCodec.SidecarFormatException;
import io.omnigraph.engine.storage.GraphRoot;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Sidecar I/O through the graph root's {@link io.omnigraph.api.storage.StorageAdapter}, with the
 * failure semantics of docs/recovery.md, "Storage faults on sidecar I/O":
 * <ul>
 *   <li>{@link #arm} (Phase A) writes with {@code IfAbsent}; a failure propagates and the writer
 *       aborts before any table effect.</li>
 *   <li>{@link #confirm} rewrites the same file with {@code IfMatch} on the token {@link #arm}
 *       returned, so only the arming writer can advance it.</li>
 *   <li>{@link #retire} (Phase D) is the one tolerated failure: the write is already published, so a
 *       failed delete is logged and reported as {@code false}; the next heal or open audits the
 *       stale sidecar as rolled forward.</li>
 *   <li>{@link #list} is loud: a failing listing throws (write and open fail).</li>
 *   <li>{@link #read} does one {@code readTextIfExists}: a sidecar that vanished after the listing is
 *       empty (its writer finished); an unreadable or refused body throws
 *       {@link RecoveryRequiredException} naming the file, which stays on disk for inspection.</li>
 * </ul>
 */
public final class SidecarStore {
  private static final System.Logger LOG = System.getLogger(SidecarStore.class.getName());

  private final GraphRoot root;
  private final SidecarCodec codec;

  /**
   * @param root the graph root
   * @param codec the strict codec bound to this root's canonical table URIs
   */
  public SidecarStore(GraphRoot root, SidecarCodec codec) {
    this.root = Objects.requireNonNull(root);
    this.codec = Objects.requireNonNull(codec);
  }

  /** @return the codec */
  public SidecarCodec codec() {
    return codec;
  }

  /**
   * Phase A: puts the sidecar if absent. When the put's outcome is unknown (the response was lost,
   * kind {@code OUTCOME_UNKNOWN}), the file may exist; the writer has committed nothing yet, so it
   * is withdrawn (deleted) before the failure propagates. Left behind, it would be an Armed intent
   * with no effect, which the in-process heal must defer (a live writer might own it), so every
   * later write would be refused until a reopen.
   *
   * @return the stored object's version token, for {@link #confirm}
   * @throws StorageFailureException the put failed; nothing durable is left (if the withdrawal of
   *     an unknown-outcome put failed too, that failure is suppressed on this one and the next
   *     read-write open discards the effect-free sidecar)
   */
  public String arm(RecoverySidecar sidecar) {
    String text = codec.write(sidecar);
    Failpoints.hit(Failpoints.SIDECAR_WRITE);
    try {
      return root.put(sidecar.path(), text, WriteCondition.ifAbsent());
    } catch (StorageFailureException e) {
      if (e.detail().orElse(null) instanceof ErrorDetail.Storage d
          && d.storageKind().equals(StorageException.Kind.OUTCOME_UNKNOWN.name())) {
        try {
          root.delete(sidecar.path());
        } catch (StorageFailureException withdraw) {
          e.addSuppressed(withdraw);
        }
      }
      throw e;
    }
  }

  /**
   * A sidecar whose bytes are written and not yet put ({@link #prepare}); close it (it discards the
   * bytes unless {@link #arm(Prepared)} or {@link #confirm(Prepared, String)} applied them).
   *
   * @param sidecar the sidecar
   * @param put its prepared put
   */
  public record Prepared(RecoverySidecar sidecar, io.omnigraph.api.storage.StorageAdapter.PreparedPut put)
      implements AutoCloseable {
    @Override
    public void close() {
      put.close();
    }
  }

  /**
   * Writes {@code sidecar}'s bytes ahead of its put (on local disk: a synced temp file, invisible to
   * listings), so the {@link #arm(Prepared) arm} or {@link #confirm(Prepared, String) confirmation}
   * the protocol orders costs only the rename and the directory sync (docs/write-protocol.md,
   * "Durability").
   *
   * @throws StorageFailureException writing the bytes failed; nothing is visible
   */
  public Prepared prepare(RecoverySidecar sidecar) {
    return new Prepared(sidecar, root.preparePut(sidecar.path(), codec.write(sidecar)));
  }

  /**
   * {@link #arm(RecoverySidecar)} of a prepared sidecar: the same condition, failpoint and
   * unknown-outcome withdrawal.
   *
   * @return the stored object's version token, for {@link #confirm}
   */
  public String arm(Prepared prepared) {
    Failpoints.hit(Failpoints.SIDECAR_WRITE);
    String path = prepared.sidecar().path();
    try {
      return root.apply(prepared.put(), path, WriteCondition.ifAbsent());
    } catch (StorageFailureException e) {
      if (e.detail().orElse(null) instanceof ErrorDetail.Storage d
          && d.storageKind().equals(StorageException.Kind.OUTCOME_UNKNOWN.name())) {
        try {
          root.delete(path);
        } catch (StorageFailureException withdraw) {
          e.addSuppressed(withdraw);
        }
      }
      throw e;
    }
  }

  /**
   * {@link #confirm(RecoverySidecar, String)} of a prepared sidecar.
   *
   * @return the new version token
   */
  public String confirm(Prepared prepared, String armedToken) {
    Failpoints.hit(Failpoints.SIDECAR_CONFIRM);
    return root.apply(prepared.put(), prepared.sidecar().path(), WriteCondition.ifMatch(armedToken));
  }

  /**
   * Phase B confirmation: replaces the armed file, only if it is still the one {@link #arm} wrote.
   *
   * @return the new version token
   * @throws StorageFailureException the rewrite failed; the file on storage is still the armed one
   */
  public String confirm(RecoverySidecar sidecar, String armedToken) {
    String text = codec.write(sidecar);
    Failpoints.hit(Failpoints.SIDECAR_CONFIRM);
    return root.put(sidecar.path(), text, WriteCondition.ifMatch(armedToken));
  }

  /**
   * Recovery's own rewrite (the durable rollback audit plan), under the root's write gate.
   *
   * @throws StorageFailureException the rewrite failed
   */
  public void rewrite(RecoverySidecar sidecar) {
    root.put(sidecar.path(), codec.write(sidecar), WriteCondition.overwrite());
  }

  /**
   * Phase D: deletes the sidecar of a published write. A failure is logged and swallowed on
   * purpose (docs/recovery.md, "Storage faults on sidecar I/O"): failing the caller would report an error for
   * a durable write, and the stale sidecar is consumed by the next heal or open.
   *
   * @return whether the sidecar is gone
   */
  public boolean retire(String operationId) {
    return retire(operationId, true);
  }

  /**
   * {@link #retire} for a write whose graph commit is published and durable: the removal itself is
   * not made durable against power loss ({@link GraphRoot#deleteNonDurable}; docs/write-protocol.md,
   * "Durability"). A sidecar that comes back after a power failure names a commit that is in the
   * lineage, so recovery finalizes it exactly as after a failed delete; and the next write that arms
   * a sidecar syncs {@code __recovery/}, which makes this removal durable too.
   *
   * @return whether the sidecar is gone
   */
  public boolean retirePublished(String operationId) {
    return retire(operationId, false);
  }

  private boolean retire(String operationId, boolean durable) {
    try {
      Failpoints.hit(Failpoints.SIDECAR_DELETE);
      if (durable) {
        root.delete(RecoverySidecar.path(operationId));
      } else {
        root.deleteNonDurable(RecoverySidecar.path(operationId));
      }
      return true;
    } catch (StorageFailureException e) {
      LOG.log(System.Logger.Level.WARNING, "the write " + operationId + " is published, but its recovery sidecar "
          + RecoverySidecar.path(operationId) + " could not be deleted (" + e.getMessage()
          + "); the next write or open records it as rolled forward and deletes it");
      return false;
    }
  }

  /**
   * Deletes a sidecar recovery has finished with. Unlike {@link #retire} a failure is loud: the
   * recovery is then not finished.
   */
  public void delete(String operationId) {
    root.delete(RecoverySidecar.path(operationId));
  }

  /**
   * Lists the sidecar files, oldest operation first. Names not ending in {@code .json} are skipped.
   *
   * @throws StorageFailureException the listing failed (never a partial list)
   */
  /**
   * The under-gate re-list (docs/write-protocol.md, "3. Effect window"): a sidecar left by an
   * interrupted write is an unresolved intent, and the caller must not write until recovery runs.
   *
   * @throws RecoveryRequiredException naming the first pending operation
   */
  public void requireNonePending() {
    List<String> pending = list();
    if (!pending.isEmpty()) {
      String path = pending.get(0);
      String id = path.substring(path.lastIndexOf('/') + 1, path.length() - ".json".length());
      throw new RecoveryRequiredException("recovery required for operation " + id + ": the interrupted write's sidecar "
          + path + " is unresolved; reopen the graph read-write or run 'omnigraph repair'",
          new ErrorDetail.RecoveryRequired(id));
    }
  }

  public List<String> list() {
    List<String> out = new ArrayList<>();
    Failpoints.hit(Failpoints.SIDECAR_LIST);
    for (String path : root.list(RecoverySidecar.DIR)) {
      if (path.endsWith(".json")) {
        out.add(path);
      }
    }
    return out;
  }

  /**
   * Reads and parses one listed sidecar with a single GET.
   *
   * @return the sidecar, or empty when it vanished after the listing
   * @throws RecoveryRequiredException the body is corrupt, of another version, pre-v9, or foreign;
   *     the message names the file, which is left in place
   * @throws StorageFailureException the read failed for another reason than absence
   */
  public Optional<RecoverySidecar> read(String path) {
    Optional<String> body = root.readText(path);
    if (body.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(codec.parse(path, body.get()));
    } catch (SidecarFormatException e) {
      String name = path.substring(path.lastIndexOf('/') + 1);
      String id = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
      throw new RecoveryRequiredException("recovery required for operation " + id + ": the recovery sidecar " + path
          + " " + e.getMessage() + "; it was left in place for operator review", new ErrorDetail.RecoveryRequired(id),
          e);
    }
  }
}
