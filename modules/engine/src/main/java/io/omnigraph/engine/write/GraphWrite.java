package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.ManifestPublisher;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.RetryableCommitConflict;
import io.omnigraph.engine.table.StagedWrite;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The effect and publish half of every graph write (load, mutation): the ONE place that turns
 * staged table transactions into a graph commit. Writers prepare and stage (no Lance HEAD moves);
 * {@link #commitAndPublish} then
 *
 * <ol>
 *   <li>requires every touched table's live Lance HEAD to equal its published pin (uncovered drift
 *       is refused before any effect);</li>
 *   <li>(Phase A, recovery issue) arms a recovery sidecar naming every staged transaction;</li>
 *   <li>(Phase B) commits each staged transaction exactly at its read version, zero retries;</li>
 *   <li>(Phase C) publishes ONE graph commit with the pre-minted commit id, the expected head and
 *       the expected table versions;</li>
 *   <li>(Phase D, recovery issue) deletes the sidecar.</li>
 * </ol>
 *
 * <p>Optimistic concurrency (seed, "Mutation/load coarse OCC"): the whole effect half runs inside
 * the {@link EffectWindow} (this process's gate, then the graph's cross-process {@link WriteLease}).
 * First the write's token ({@link WriteToken}: branch, the exact head it was prepared against,
 * schema identity) is compared with a fresh manifest state. A caller-supplied head expectation that
 * no longer holds is {@link io.omnigraph.api.PreconditionFailedException} (412). A moved head is
 * either {@link StaleAttempt} (for {@link OnMovement#REPREPARE} writers: insert-only mutations,
 * load append and merge, which re-prepare through {@link StaleAttempt#withReprepare}) or a typed
 * ReadSetChanged conflict (409, for update, delete and overwrite). A table commit that Lance refuses
 * before any effect landed is effect-free: strict-insert ids are probed against fresh
 * manifest-visible state (an exact match is KeyConflict, never an upsert), otherwise the attempt is
 * stale or ReadSetChanged as above.
 *
 * <p>Failure semantics: anything before the first table commit leaves the graph untouched and is
 * reported as is (a lost commit race is a {@link ConflictException} with a read-set detail). Once a
 * table commit has landed, every later failure is {@link RecoveryRequiredException} naming the
 * operation: the landed HEADs are past their published versions.
 */
public final class GraphWrite {
  /** Who is writing; recorded in recovery sidecars and audit rows. */
  public enum WriterKind { LOAD, MUTATION }

  /** What a write does when another write published between its preparation and its effects. */
  public enum OnMovement {
    /** Insert-only mutations, load append and merge: discard the attempt and prepare again. */
    REPREPARE,
    /** Update, delete, overwrite: fail with a typed ReadSetChanged conflict. */
    READ_SET_CHANGED
  }

  /** The graph-wide authority a write is checked against inside its effect window. */
  public interface Authority {
    /** @return a fresh scan of the manifest */
    ManifestState freshState();

    /** @return the accepted schema identity now */
    String schemaIdentity();

    /** Enters the exclusive effect window (waits for other writers). */
    EffectWindow enter(String operation);
  }

  /**
   * One touched table.
   *
   * @param spec the table
   * @param published its published entry in the manifest cut the write was prepared against
   * @param snapshot the table opened at {@code published.version()}
   * @param staged the staged transaction, prepared against {@code snapshot}
   */
  public record TableEffect(TableSpec spec, TableEntry published, TableSnapshot snapshot, StagedWrite staged) {
    public TableEffect {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(published, "published");
      Objects.requireNonNull(snapshot, "snapshot");
      Objects.requireNonNull(staged, "staged");
      if (staged.readVersion() != published.version()) {
        throw new IllegalArgumentException("table " + spec.tableKey() + ": staged at version " + staged.readVersion()
            + " but published at " + published.version());
      }
    }
  }

  /**
   * What to commit.
   *
   * @param kind the writer
   * @param actorId who, or {@code null}
   * @param message the commit message, or {@code null}
   * @param expectedHead the main head the write was prepared against (empty: the graph had none)
   * @param effects one entry per touched table, each table at most once; may be empty (the commit
   *     then records no table change)
   * @param onMovement what to do when the head moved since {@code expectedHead}
   * @param callerExpectedHead the head the caller requires ({@code --expect-head}), or {@code null}
   */
  public record Intent(WriterKind kind, String actorId, String message, Optional<String> expectedHead,
      List<TableEffect> effects, OnMovement onMovement, String callerExpectedHead) {
    /** An intent that fails with ReadSetChanged on movement and has no caller head expectation. */
    public Intent(WriterKind kind, String actorId, String message, Optional<String> expectedHead,
        List<TableEffect> effects) {
      this(kind, actorId, message, expectedHead, effects, OnMovement.READ_SET_CHANGED, null);
    }

    public Intent {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(expectedHead, "expectedHead");
      Objects.requireNonNull(onMovement, "onMovement");
      effects = List.copyOf(effects);
      Set<String> seen = new HashSet<>();
      for (TableEffect e : effects) {
        if (!seen.add(e.spec().tableKey())) {
          throw new IllegalArgumentException("table " + e.spec().tableKey() + " is touched twice in one write");
        }
      }
    }
  }

  /**
   * A published write.
   *
   * @param commitId the new graph commit
   * @param state the manifest state after the publish
   * @param tableVersions per touched table key, the Lance version now published
   * @param phaseNanos time spent per phase ({@code commit}: table commits, {@code publish}: the
   *     manifest publish), in that order
   */
  public record Outcome(String commitId, ManifestState state, Map<String, Long> tableVersions,
      Map<String, Long> phaseNanos) {
    public Outcome {
      tableVersions = Map.copyOf(tableVersions);
      phaseNanos = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(phaseNanos));
    }
  }

  private final TableStore tables;
  private final ManifestPublisher publisher;
  private final Authority authority;

  public GraphWrite(TableStore tables, ManifestPublisher publisher, Authority authority) {
    this.tables = Objects.requireNonNull(tables);
    this.publisher = Objects.requireNonNull(publisher);
    this.authority = Objects.requireNonNull(authority);
  }

  /**
   * Commits every staged effect of {@code intent} and publishes one graph commit.
   *
   * @return the commit
   * @throws StaleAttempt before any effect, for a {@link OnMovement#REPREPARE} write whose token moved
   * @throws io.omnigraph.api.PreconditionFailedException the caller's expected head does not hold
   * @throws ConflictException before any effect: the token moved (ReadSetChanged), a strict id
   *     exists (KeyConflict), drift, or a concurrent commit won the race; the graph is untouched
   * @throws RecoveryRequiredException after an effect: tables are committed but unpublished
   */
  public Outcome commitAndPublish(Intent intent) {
    try (EffectWindow window = authority.enter(intent.kind().name().toLowerCase(java.util.Locale.ROOT) + " "
        + ProcessHandle.current().pid());
        ManifestPublisher.Base fresh = publisher.openBase()) {
      revalidate(intent, fresh.state());
      for (TableEffect e : intent.effects()) {
        requireHeadAtPin(e);
      }
      window.checkValid();
      return effectsAndPublish(intent, fresh);
    }
  }

  /** The token check inside the effect window, before any effect, against the manifest read inside it. */
  private void revalidate(Intent intent, ManifestState fresh) {
    String schema = authority.schemaIdentity();
    WriteToken prepared = new WriteToken(WriteToken.MAIN, intent.expectedHead(), schema);
    WriteToken now = WriteToken.capture(fresh, schema);
    now.requireHead(intent.callerExpectedHead());
    String what = intent.kind().name().toLowerCase(java.util.Locale.ROOT);
    switch (prepared.compare(now)) {
      case NONE -> { }
      case HEAD -> {
        ConflictException changed = prepared.readSetChanged(now, what);
        throw intent.onMovement() == OnMovement.REPREPARE ? new StaleAttempt(changed) : changed;
      }
      case IDENTITY -> throw prepared.readSetChanged(now, what);
    }
  }

  private Outcome effectsAndPublish(Intent intent, ManifestPublisher.Base fresh) {
    Failpoints.hit(Failpoints.WRITE_POST_STAGE_PRE_EFFECT);
    String commitId = Ulid.generate();
    Map<String, Long> phases = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    List<ManifestPublisher.TableUpdate> updates = commitAll(intent, commitId);
    long t1 = System.nanoTime();
    phases.put("commit", t1 - t0);
    Map<String, Long> expected = new TreeMap<>();
    Map<String, Long> versions = new LinkedHashMap<>();
    for (TableEffect e : intent.effects()) {
      expected.put(e.spec().tableKey(), e.published().version());
    }
    for (ManifestPublisher.TableUpdate u : updates) {
      versions.put(u.tableKey(), u.version());
    }
    ManifestState state;
    try {
      Failpoints.hit(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH);
      // The first attempt is based on the manifest version the token was revalidated against.
      state = publisher.publish(new ManifestPublisher.PublishRequest(updates, expected, intent.expectedHead(),
          new ManifestPublisher.LineageIntent(commitId, intent.actorId(), intent.message(), nowMicros())), fresh);
    } catch (OmnigraphException e) {
      if (updates.isEmpty()) {
        throw e;
      }
      throw new RecoveryRequiredException("recovery required for operation " + commitId + ": tables "
          + versions.keySet() + " were committed but the graph commit was not published (" + e.getMessage() + ")",
          new ErrorDetail.RecoveryRequired(commitId), e);
    }
    phases.put("publish", System.nanoTime() - t1);
    return new Outcome(commitId, state, versions, phases);
  }

  private void requireHeadAtPin(TableEffect e) {
    long head = tables.latestVersion(e.snapshot());
    if (head != e.published().version()) {
      String key = e.spec().tableKey();
      throw new ConflictException("table " + key + " has Lance HEAD " + head + " but the graph publishes "
          + e.published().version() + ": an earlier write committed without publishing; the table needs repair",
          new ErrorDetail.ReadSetConflict("table_head:" + key, Long.toString(e.published().version()),
              Long.toString(head)));
    }
  }

  private List<ManifestPublisher.TableUpdate> commitAll(Intent intent, String commitId) {
    List<ManifestPublisher.TableUpdate> updates = new ArrayList<>();
    List<String> landed = new ArrayList<>();
    Failpoints.hit(Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT);
    for (TableEffect e : intent.effects()) {
      String key = e.spec().tableKey();
      TableSnapshot after;
      try {
        Failpoints.hit(Failpoints.TABLE_COMMIT_BEFORE);
        after = tables.commitStagedAndOpen(e.snapshot(), e.staged());
      } catch (RetryableCommitConflict ex) {
        // Lance refused the commit: nothing of this table landed.
        if (landed.isEmpty()) {
          throw effectFree(intent, e, ex);
        }
        throw partial(commitId, landed, key, ex);
      } catch (ConflictException ex) {
        // The commit landed, but rebased past a concurrent commit: that version is this write's effect.
        landed.add(key);
        throw partial(commitId, landed, key, ex);
      } catch (OmnigraphException ex) {
        if (landed.isEmpty()) {
          throw ex;
        }
        throw partial(commitId, landed, key, ex);
      }
      landed.add(key);
      long version = after.version();
      long rows;
      // The row count is read from the handle the commit returned: no second open of the new version.
      try (after) {
        Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);
        rows = tables.countRows(after);
      } catch (OmnigraphException ex) {
        throw partial(commitId, landed, key, ex);
      }
      updates.add(new ManifestPublisher.TableUpdate(
          new TableIdentity(e.spec().stableTableId(), e.spec().tableIncarnationId()),
          key, version, rows, e.snapshot().location().uri()));
    }
    return updates;
  }

  /**
   * The effect-free finalizer: a table commit was refused before any of this write's effects
   * landed. A caller head expectation that no longer holds is PreconditionFailed. Strict-insert ids
   * are probed against fresh manifest-visible state: an exact match is KeyConflict. Otherwise the
   * attempt is stale (re-prepare) or ReadSetChanged.
   */
  private RuntimeException effectFree(Intent intent, TableEffect failed, RetryableCommitConflict cause) {
    String key = failed.spec().tableKey();
    ConflictException changed = new ConflictException("a concurrent writer committed to " + key
        + " first; nothing was written", new ErrorDetail.ReadSetConflict("table_head:" + key,
            Long.toString(failed.published().version()), null), cause);
    ManifestState fresh = null;
    if (intent.callerExpectedHead() != null) {
      // The caller's expectation is terminal: a refusal caused by a head that moved is 412, not 409.
      fresh = authority.freshState();
      WriteToken.capture(fresh, authority.schemaIdentity()).requireHead(intent.callerExpectedHead());
    }
    for (TableEffect e : intent.effects()) {
      if (e.staged().kind() != StagedWrite.Kind.STRICT_INSERT || e.staged().ids().isEmpty()) {
        continue;
      }
      fresh = fresh == null ? authority.freshState() : fresh;
      Optional<TableEntry> entry = fresh.table(e.spec().tableKey());
      if (entry.isEmpty()) {
        continue;
      }
      try (TableSnapshot s = tables.openAt(e.snapshot().location(), entry.get().version())) {
        List<String> existing = tables.existingIds(s, e.staged().ids());
        if (!existing.isEmpty()) {
          return TableStore.keyConflict(e.spec().tableKey(), existing, "already exists");
        }
      }
    }
    return intent.onMovement() == OnMovement.REPREPARE ? new StaleAttempt(changed) : changed;
  }

  private static RecoveryRequiredException partial(String commitId, List<String> landed, String failed,
      RuntimeException cause) {
    return new RecoveryRequiredException("recovery required for operation " + commitId + ": tables " + landed
        + " were committed but " + failed + " failed (" + cause.getMessage()
        + "); nothing was published", new ErrorDetail.RecoveryRequired(commitId), cause);
  }

  /** Microseconds since the epoch, the lineage timestamp unit. */
  public static long nowMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
