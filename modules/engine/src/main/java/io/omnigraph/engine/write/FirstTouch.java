package io.omnigraph.engine.write;

import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableFork;
import io.omnigraph.engine.table.TableSnapshot;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The deferred effect of a table a branch write touches first (docs/branches.md, "Lazy table
 * forks"): Lance needs branch-local data files, which cannot be written before the table's ref
 * exists, and the ref may only be created once the write's recovery sidecar names it
 * (sidecar-before-ref). So the writer keeps what it would stage and a pre-minted transaction id;
 * {@link GraphWrite} arms the sidecar (naming the ref and {@code source_fork_version}), forks, stages
 * on the fork with {@code stage}, binds the staged transaction to {@link #uuid} and commits it.
 *
 * @param plan the fork
 * @param uuid the pre-minted transaction id the sidecar records
 * @param stage stages the write on the forked table (at the plan's version); may throw like any stager
 */
public record FirstTouch(TableFork.Plan plan, String uuid, Function<TableSnapshot, StagedWrite> stage) {
  public FirstTouch {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(stage, "stage");
  }

  /** A deferred effect with a fresh transaction id. */
  public static FirstTouch of(TableFork.Plan plan, Function<TableSnapshot, StagedWrite> stage) {
    return new FirstTouch(plan, UUID.randomUUID().toString(), stage);
  }
}
