package io.omnigraph.engine.maintenance;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.MaintenancePolicy;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OptimizeResult;
import io.omnigraph.api.WriteWarning;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.index.GraphAccess;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.recovery.RecoverySweep;
import io.omnigraph.engine.write.EffectWindow;
import io.omnigraph.engine.write.GraphWrite;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Automatic bounded maintenance (docs/maintenance.md, "Automatic maintenance"): a load or a
 * mutation on {@code main} whose publish left {@code __manifest} or a table it touched at or past
 * the policy's fragment threshold runs a bounded {@link Optimize} of exactly those tables
 * (compaction and BTREE folds, no index builds), plus the {@code __manifest} compaction every
 * optimize ends with — inline, in the writer's own call, after the write's effect window closed.
 *
 * <p>The write's outcome is decided before maintenance starts, so maintenance never fails it: any
 * failure is logged and returned as a {@link WriteWarning} ({@value WriteWarning#MAINTENANCE_FAILED})
 * on the write's result. An optimize interrupted after arming its sidecar is the ordinary Optimize
 * recovery case; because its writer (this call) is known to be finished, the sidecar is resolved
 * right away with the full sweep's bounded rule ({@link RecoverySweep#resolveMaintenance}), so it
 * does not block the next write.
 */
public final class AutoMaintenance {
  /** The actor of an automatic maintenance commit. */
  public static final String ACTOR = MaintenancePolicy.COMMIT_ACTOR;
  /** The commit message of an automatic maintenance commit. */
  public static final String MESSAGE = MaintenancePolicy.COMMIT_MESSAGE;
  /**
   * Lance's compaction target for automatic maintenance: only fragments smaller than this are
   * merged, so a table's large fragments (from loads, or earlier compactions) are not rewritten
   * every time a few small ones accumulate behind them.
   */
  public static final long TAIL_ROWS = 1 << 16;
  /**
   * A table's BTREE indexes are folded when their unindexed tail holds this many rows (or a sixteenth
   * of the table, when that is fewer: {@link Optimize.Scope#foldBound}), not at every run: a fold
   * rewrites the whole index (docs/maintenance.md, "Automatic maintenance").
   */
  public static final long FOLD_ROWS = 4096;

  private static final System.Logger LOG = System.getLogger(AutoMaintenance.class.getName());

  /** The rule of the error a user write with the maintenance actor gets (docs/errors.md). */
  public static final String RESERVED_ACTOR = "reserved_actor";

  private AutoMaintenance() {}

  /**
   * The maintenance actor is reserved, so that the history tells automatic maintenance apart from
   * user writes (and an expected head looks through exactly the commits maintenance made:
   * docs/maintenance.md, "Expected heads look through it").
   *
   * @param actor the actor a user write (load, mutation, merge, schema apply) asks for
   * @throws io.omnigraph.api.InvalidInputException (rule {@value #RESERVED_ACTOR}, field {@code actor})
   *     when it is {@link MaintenancePolicy#COMMIT_ACTOR}
   */
  public static void refuseReservedActor(String actor) {
    if (ACTOR.equals(actor)) {
      throw new io.omnigraph.api.InvalidInputException("the actor '" + ACTOR + "' is reserved for automatic"
          + " maintenance; a write cannot use it", new ErrorDetail.Validation(null, null, "actor", RESERVED_ACTOR));
    }
  }

  /**
   * The automatic maintenance state of one open graph handle: which tables published writes made
   * due, and per table (and for {@code __manifest}) the fragment count the last maintenance left —
   * the threshold counts fragments added since, so a table whose fragments are all large (nothing
   * for the tail compaction to merge) is not planned again on every write. Thread-safe.
   */
  public static final class Tracker {
    private final java.util.concurrent.ConcurrentHashMap<String, Integer> baseline =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final Set<String> dueTables = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicBoolean due = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile int manifestBaseline;
    private volatile boolean manifestDue;
    private volatile boolean manifestDeferred;

    /**
     * Takes note of a published write (no I/O: the counts come from the write's own open handles).
     * Only loads and mutations on {@code main} count.
     */
    public void published(MaintenancePolicy policy, GraphWrite.Intent intent, GraphWrite.Outcome outcome) {
      if (!policy.automatic() || !GraphBranch.MAIN.equals(intent.branch())
          || (intent.kind() != GraphWrite.WriterKind.LOAD && intent.kind() != GraphWrite.WriterKind.MUTATION)) {
        return;
      }
      boolean any = false;
      for (Map.Entry<String, Integer> e : outcome.tableFragments().entrySet()) {
        if (e.getValue() - baseline.getOrDefault(e.getKey(), 0) >= policy.tableFragments()) {
          dueTables.add(e.getKey());
          baseline.put(e.getKey(), e.getValue()); // until maintenance reports what it left
          any = true;
        }
      }
      if (outcome.manifestFragments() - manifestBaseline >= policy.manifestFragments()) {
        manifestDue = true;
        any = true;
      }
      if (any) {
        due.set(true);
      }
    }

    /**
     * Runs the maintenance published writes made due, if any ({@link AutoMaintenance#run}).
     *
     * @return the warnings for the write's result; empty when nothing was due or maintenance succeeded
     */
    public List<WriteWarning> runIfDue(GraphAccess g, RecoverySweep sweep) {
      if (!due.getAndSet(false)) {
        return List.of();
      }
      Set<String> tables = new TreeSet<>();
      for (String key : List.copyOf(dueTables)) {
        dueTables.remove(key);
        tables.add(key);
      }
      // The table compaction and the __manifest compaction go on different writes, so that one write
      // pays for one of them (docs/maintenance.md, "Automatic maintenance"): a __manifest that is due
      // on the write that compacts tables waits for the next write, once.
      boolean manifest = manifestDue && (tables.isEmpty() || manifestDeferred);
      if (tables.isEmpty() && !manifest) {
        return List.of();
      }
      manifestDeferred = manifestDue && !manifest;
      if (manifest) {
        manifestDue = false;
      }
      Result r = AutoMaintenance.run(g, sweep, tables, manifest);
      if (r.optimized() != null) {
        for (OptimizeResult.TableOptimized t : r.optimized().tables()) {
          baseline.put(t.table(), t.fragmentsAfter());
        }
        if (manifest) {
          manifestBaseline = (int) r.optimized().manifestFragmentsAfter();
        }
      }
      return r.warnings();
    }
  }

  /**
   * What one run did.
   *
   * @param optimized the optimize's result, {@code null} when it failed
   * @param warnings the warnings for the write's result (one when it failed)
   */
  public record Result(OptimizeResult optimized, List<WriteWarning> warnings) {
    public Result {
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Runs the bounded optimize of {@code tables} (empty: only {@code __manifest}).
   *
   * @return what it did; never throws for a maintenance failure
   */
  public static Result run(GraphAccess g, RecoverySweep sweep, Set<String> tables, boolean manifest) {
    try {
      Failpoints.hit(Failpoints.MAINTENANCE_POST_WRITE);
      OptimizeResult r = Optimize.run(g, ACTOR, sweep.schema(), new Optimize.Scope(tables, false, MESSAGE, TAIL_ROWS, FOLD_ROWS, manifest));
      LOG.log(System.Logger.Level.DEBUG, () -> "automatic maintenance of " + tables + ": " + r);
      return new Result(r, List.of());
    } catch (OmnigraphException e) {
      resolveOwnSidecar(g, sweep, e);
      return new Result(null, List.of(warn(tables, e)));
    } catch (RuntimeException e) {
      // Deliberate (docs/maintenance.md, "Automatic maintenance"): the write is already published, so
      // an untyped failure of the follow-up work (a Lance or engine bug) is reported, typed as
      // internal, instead of turning the write's success into a failure.
      InternalErrorException typed = new InternalErrorException("automatic maintenance failed: " + e, null, e);
      return new Result(null, List.of(warn(tables, typed)));
    }
  }

  /**
   * An optimize that failed after arming its sidecar reports RecoveryRequired naming it; its writer
   * is this finished call, so the sidecar is resolved now (published, or discarded when nothing
   * moved). A failure of that is added to {@code e} and the sidecar stays for the next write's entry
   * barrier or the next open.
   */
  private static void resolveOwnSidecar(GraphAccess g, RecoverySweep sweep, OmnigraphException e) {
    if (!(e.detail().orElse(null) instanceof ErrorDetail.RecoveryRequired rr)) {
      return;
    }
    try (EffectWindow window = g.window().apply("maintenance recovery " + ProcessHandle.current().pid())) {
      sweep.resolveMaintenance(rr.operationId(), window::checkValid);
    } catch (OmnigraphException again) {
      e.addSuppressed(again);
    }
  }

  private static WriteWarning warn(Set<String> tables, OmnigraphException e) {
    String message = "the write is published, but automatic maintenance of " + (tables.isEmpty() ? "__manifest"
        : tables + " and __manifest") + " failed (" + e.code() + ": " + e.getMessage() + ")";
    LOG.log(System.Logger.Level.WARNING, message, e);
    return new WriteWarning(WriteWarning.MAINTENANCE_FAILED, message, e);
  }
}
