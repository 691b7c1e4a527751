package io.omnigraph.engine.recovery;

import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.recovery.RecoverySidecar.TableEffect;
import io.omnigraph.engine.recovery.RecoverySidecar.TablePin;
import io.omnigraph.engine.table.TableFork;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The first-touch forks a Mutation/Load sidecar names (effects with {@code source_fork_version};
 * docs/branches.md "Lazy table forks", docs/recovery.md): the writer arms the sidecar, then creates
 * each table's ref {@code tree/<branch>} from the version its branch publishes. A table whose
 * manifest entry still points at the parent's ref is unpublished, and what stands at the ref's place
 * is classified by fresh metadata ({@link TableFork.Leftover}):
 *
 * <ul>
 *   <li>{@code ABSENT} — crash before the fork, or inside Lance's create (a clone-only tree): no
 *       effect; the table counts as not moved, a full sweep reclaims the tree;</li>
 *   <li>{@code UNTOUCHED} — the exact fork, no commit on it: no effect; a full sweep deletes the ref
 *       before it discards or rolls back the sidecar;</li>
 *   <li>{@code ADVANCED} — the ordinary ownership rules of the sweep decide (the commit at
 *       {@code expected + 1} must be the planned transaction);</li>
 *   <li>{@code FOREIGN} — a ref forked from anything else: refused, the sidecar kept.</li>
 * </ul>
 *
 * A confirmed sidecar also bound each created ref's native identifier
 * ({@code confirmed_branch_identifier}): the ref at the fork's place must still carry it, whatever its
 * shape. Otherwise the ref was deleted (and maybe re-created) after the confirmation: its rows are not
 * this write's, so it is neither rolled forward onto nor removed — refused, the sidecar kept.
 *
 * A sidecar is armed only while no other one is pending (inside the effect window), so no two
 * pending intents claim one ref.
 */
final class FirstTouchRecovery {
  /**
   * One unpublished first-touch table of the sidecar and what its ref's place holds.
   *
   * @param refusal why recovery must not act on this table's ref (the sidecar is then kept), or
   *     {@code null}: a ref forked from anything else, or — the sidecar confirmed — a ref without the
   *     identifier the confirmation bound (deleted, maybe re-created: never rolled forward onto, never removed)
   */
  record Fork(TablePin pin, TableFork.Plan plan, TableFork.Leftover leftover, String refusal) {}

  private final RecoverySweep sweep;
  private final List<Fork> forks = new ArrayList<>();

  FirstTouchRecovery(RecoverySweep sweep) {
    this.sweep = sweep;
  }

  /**
   * @param entry the table's entry on the sidecar's branch now
   * @return the fork, when {@code pin} is a first-touch table whose write is unpublished
   */
  Optional<Fork> observe(TablePin pin, TableEffect effect, Optional<TableEntry> entry) {
    if (!effect.firstTouch() || entry.isEmpty() || Objects.equals(entry.get().branch(), pin.tableBranch())) {
      return Optional.empty();
    }
    TableFork fork = new TableFork(sweep.tables.reader(), sweep.tables.writer(), sweep.root);
    TableFork.Plan plan = new TableFork.Plan(fork, pin.identity().canonicalPath(pin.tableKey()), pin.tableKey(),
        pin.tableBranch(), entry.get().branch(), effect.sourceForkVersion());
    TableFork.Leftover left = entry.get().version() == effect.sourceForkVersion() ? plan.inspect()
        : TableFork.Leftover.FOREIGN;
    String refusal = null;
    if (left == TableFork.Leftover.FOREIGN) {
      refusal = "the ref " + pin.tableBranch() + " of table " + pin.tableKey() + " is not the fork of version "
          + pin.expectedVersion() + " this write planned";
    } else if (effect.confirmedBranchIdentifier() != null) {
      // Confirmed: the write's commits are on the ref it created, and only on that one (docs/recovery.md).
      String now = plan.identity().orElse(null);
      if (!effect.confirmedBranchIdentifier().equals(now)) {
        refusal = "the ref " + pin.tableBranch() + " of table " + pin.tableKey() + " is not the one this write"
            + " created and confirmed (identifier " + effect.confirmedBranchIdentifier() + ", now "
            + (now == null ? "no ref" : now) + "): it was deleted or re-created, so recovery neither rolls forward"
            + " onto it nor removes it";
      }
    }
    Fork f = new Fork(pin, plan, left, refusal);
    forks.add(f);
    return Optional.of(f);
  }

  /**
   * Removes every observed fork that carries no effect: deletes an untouched ref, reclaims a
   * clone-only tree. Idempotent: a crash in between leaves a shape this classifies again.
   *
   * @throws io.omnigraph.api.ConflictException a ref's path overlaps another ref (left untouched)
   */
  void removeNoEffect() {
    for (Fork f : forks) {
      if (f.leftover() == TableFork.Leftover.ABSENT || f.leftover() == TableFork.Leftover.UNTOUCHED) {
        f.plan().removeUntouched();
      }
    }
  }

  /** @return whether any unpublished fork was observed */
  boolean any() {
    return !forks.isEmpty();
  }
}
