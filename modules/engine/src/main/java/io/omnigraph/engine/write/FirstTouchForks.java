package io.omnigraph.engine.write;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The first-touch forks of one write attempt, performed after its sidecar is armed (Phase B's first
 * step; docs/branches.md, "Lazy table forks"): {@link #forkAndStage} creates each planned ref, stages
 * the deferred write on it and binds the staged transaction to the pre-minted id the sidecar
 * recorded. Before any table commit lands the forks are this attempt's only effects; an attempt that
 * ends effect-free removes them ({@link #removeUntouched}) before withdrawing its sidecar, so no ref
 * outlives the intent that names it.
 */
final class FirstTouchForks implements AutoCloseable {
  private final List<GraphWrite.TableEffect> planned;
  private final List<FirstTouch> started = new ArrayList<>();
  private final List<TableSnapshot> opened = new ArrayList<>();
  private final Map<String, String> identities = new HashMap<>();

  FirstTouchForks(List<GraphWrite.TableEffect> effects) {
    this.planned = effects;
  }

  /** @return whether any effect of the attempt is a first-touch fork */
  boolean any() {
    return planned.stream().anyMatch(e -> e.firstTouch() != null);
  }

  /**
   * Forks and stages every first-touch effect, in order; other effects are returned as they are.
   * Call inside the effect window, after arming.
   *
   * @param operation the armed sidecar's operation, for errors
   * @return the effects, every one staged
   * @throws RuntimeException the failure of a fork or a staging, after the forks made so far were
   *     removed (the caller withdraws the sidecar), or {@link RecoveryRequiredException} when they
   *     could not be removed (the sidecar stays and owns them)
   */
  List<GraphWrite.TableEffect> forkAndStage(String operation) {
    Failpoints.hit(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT);
    List<GraphWrite.TableEffect> out = new ArrayList<>();
    try {
      for (GraphWrite.TableEffect e : planned) {
        FirstTouch f = e.firstTouch();
        if (f == null) {
          out.add(e);
          continue;
        }
        started.add(f);
        TableSnapshot fork = f.plan().open();
        opened.add(fork);
        if (fork.version() != e.published().version()) {
          throw new InternalErrorException("the fork of " + e.spec().tableKey() + " opened at version "
              + fork.version() + ", not the published " + e.published().version(), null);
        }
        // The created ref's native identity, which the confirmation binds (docs/sidecar-format.md).
        identities.put(e.spec().tableKey(), f.plan().identity().orElseThrow(() -> new InternalErrorException(
            "the fork of " + e.spec().tableKey() + " on '" + f.plan().branch() + "' is not listed after it was made",
            null)));
        StagedWrite s = f.stage().apply(fork);
        out.add(new GraphWrite.TableEffect(e.spec(), e.published(), fork, bind(s, f.uuid())));
      }
    } catch (RuntimeException e) {
      throw removeAfter(operation, e);
    }
    return out;
  }

  /** @return per first-touch table key, the native identifier of the ref this attempt created */
  Map<String, String> identities() {
    return Map.copyOf(identities);
  }

  /**
   * Removes every fork this attempt started (each still untouched: no table commit landed).
   *
   * @throws OmnigraphException a fork could not be removed
   */
  void removeUntouched() {
    for (FirstTouch f : started) {
      f.plan().removeUntouched();
    }
  }

  /** @return {@code cause} once the forks are removed, else a RecoveryRequired that keeps the sidecar */
  RuntimeException removeAfter(String operation, RuntimeException cause) {
    try {
      removeUntouched();
      return cause;
    } catch (OmnigraphException e) {
      cause.addSuppressed(e);
      return new RecoveryRequiredException("recovery required for operation " + operation + ": the write failed ("
          + cause.getMessage() + ") after forking a table and the fork could not be removed (" + e.getMessage()
          + "); the next open removes it from the sidecar " + RecoverySidecar.path(operation),
          new ErrorDetail.RecoveryRequired(operation), cause);
    }
  }

  /** The staged transaction under the pre-minted id (Lance takes the id at commit; nothing staged depends on it). */
  private static StagedWrite bind(StagedWrite s, String uuid) {
    return new StagedWrite(s.tableKey(), s.location(), s.readVersion(), uuid, s.kind(), s.rowsWritten(), s.ids(),
        s.operation(), s.properties());
  }

  @Override
  public void close() {
    for (TableSnapshot s : opened) {
      s.close();
    }
    opened.clear();
  }
}
