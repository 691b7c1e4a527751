package io.omnigraph.engine.manifest;

import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.storage.CommitDurability;
import io.omnigraph.engine.table.TableReader;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.table.AddressedUpdate;
import io.omnigraph.engine.table.RetryableCommitConflict;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.table.VersionStamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Publishes table versions and one graph commit with a compare-and-set on {@code __manifest}
 * (docs/write-protocol.md, "7. Publish"): each attempt opens the latest manifest, re-checks the
 * storage stamp, the
 * expected graph head and every expected table version against that scan, then writes all rows in
 * ONE Lance commit with Lance's own retries off: an Update that replaces the head row by its
 * address ({@link AddressedUpdate}; its files may have been written ahead while the writer committed
 * its tables, {@link WrittenAhead}) or, for a catalog change, a merge-insert keyed on
 * {@code object_id}. A lost race
 * (Lance reports the merge as contended) consumes one of {@link #RETRY_BUDGET} retries and the next
 * attempt rescans; a changed expectation is terminal and never re-parented.
 *
 * <p>Every publish targets one graph branch ({@link PublishRequest#branch()}): each attempt opens
 * that branch's manifest (a native Lance branch of {@code __manifest} for any branch but main), its
 * {@code graph_head:<branch>} row is the head checked and moved, and its lineage is the parent. The
 * branch's identity is checked by the writer inside its effect window, which branch create and
 * delete share (docs/branches.md, "Writes on a branch").
 */
public final class ManifestPublisher {
  /** Retries after the first attempt (six attempts in all). */
  public static final int RETRY_BUDGET = 5;

  private static final java.util.concurrent.atomic.AtomicLong AHEAD_COMMITTED = new java.util.concurrent.atomic.AtomicLong();
  private static final java.util.concurrent.atomic.AtomicLong AHEAD_DISCARDED = new java.util.concurrent.atomic.AtomicLong();

  /** @return publishes of this process that committed files written ahead ({@link WrittenAhead}) */
  public static long writtenAheadCommitted() {
    return AHEAD_COMMITTED.get();
  }

  /** @return files written ahead that this process discarded unused ({@link WrittenAhead}) */
  public static long writtenAheadDiscarded() {
    return AHEAD_DISCARDED.get();
  }

  private final TableStore tables;
  private final ManifestStore manifest;
  /** Failpoint seam: runs after an attempt's scan and checks, right before its merge. Tests use it to race. */
  volatile Runnable beforeMerge = () -> { };

  public ManifestPublisher(TableStore tables, ManifestStore manifest) {
    this.tables = Objects.requireNonNull(tables);
    this.manifest = Objects.requireNonNull(manifest);
  }

  /**
   * A new published version of a table.
   *
   * @param identity the table
   * @param tableKey its key (must match its registration)
   * @param version the committed Lance version to publish
   * @param rowCount the table's row count at that version
   * @param tableUri the table's Lance URI (recorded in the version metadata)
   * @param tableBranch the native ref the version lives on ({@code null} = main; docs/branches.md)
   */
  public record TableUpdate(TableIdentity identity, String tableKey, long version, long rowCount, String tableUri,
      String tableBranch) {
    /** An update of a version on the table's main ref. */
    public TableUpdate(TableIdentity identity, String tableKey, long version, long rowCount, String tableUri) {
      this(identity, tableKey, version, rowCount, tableUri, null);
    }
  }

  /**
   * The commit to record.
   *
   * @param commitId pre-minted, stable across retries
   * @param actorId who, or {@code null}
   * @param message commit message, or {@code null}
   * @param createdAtMicros when
   * @param mergedParentCommitId a merge commit's second parent (the merged source head), or {@code null}
   */
  public record LineageIntent(String commitId, String actorId, String message, long createdAtMicros,
      String mergedParentCommitId) {
    /** An ordinary (single-parent) commit. */
    public LineageIntent(String commitId, String actorId, String message, long createdAtMicros) {
      this(commitId, actorId, message, createdAtMicros, null);
    }
  }

  /**
   * One publish.
   *
   * @param branch the graph branch whose head moves
   * @param updates new table versions
   * @param expectedVersions per table key, the published version the write was prepared against
   * @param expectedHead the branch head the write was prepared against (empty: any head is fine)
   * @param lineage the commit to record
   */
  public record PublishRequest(String branch, List<TableUpdate> updates, Map<String, Long> expectedVersions,
      Optional<String> expectedHead, LineageIntent lineage, CatalogDelta catalog, List<GroupStep> earlier) {
    public PublishRequest {
      Objects.requireNonNull(branch, "branch");
      updates = List.copyOf(updates);
      expectedVersions = Map.copyOf(expectedVersions);
      Objects.requireNonNull(expectedHead);
      Objects.requireNonNull(lineage);
      Objects.requireNonNull(catalog);
      earlier = List.copyOf(earlier);
      if (!earlier.isEmpty()) {
        GroupStep.requireChain(earlier, updates, lineage, catalog);
      }
    }

    /** A publish of one commit. */
    public PublishRequest(String branch, List<TableUpdate> updates, Map<String, Long> expectedVersions,
        Optional<String> expectedHead, LineageIntent lineage, CatalogDelta catalog) {
      this(branch, updates, expectedVersions, expectedHead, lineage, catalog, List.of());
    }

    /**
     * A group commit's publish (docs/concurrency.md, "Group commit"): {@code earlier} are the
     * batch's members before the last, in chain order; {@code lineage} and {@code updates} are the
     * last member's commit and the final version of every table the batch touched.
     */
    public static PublishRequest group(String branch, List<TableUpdate> updates, Map<String, Long> expectedVersions,
        Optional<String> expectedHead, List<GroupStep> earlier, LineageIntent last) {
      return new PublishRequest(branch, updates, expectedVersions, expectedHead, last, CatalogDelta.NONE, earlier);
    }

    /** @return the commit ids this publish records, in chain order (one unless it is a group's) */
    public List<String> commitIds() {
      List<String> out = new ArrayList<>();
      earlier.forEach(s -> out.add(s.lineage().commitId()));
      out.add(lineage.commitId());
      return out;
    }

    /** A publish that changes no registration and keeps the accepted schema. */
    public PublishRequest(String branch, List<TableUpdate> updates, Map<String, Long> expectedVersions,
        Optional<String> expectedHead, LineageIntent lineage) {
      this(branch, updates, expectedVersions, expectedHead, lineage, CatalogDelta.NONE);
    }
  }

  /**
   * One member of a group commit before the last (docs/concurrency.md, "Group commit"): its own
   * graph commit, whose parent is the member before it (the first member's: the branch head), and
   * the table versions it produced. Its commit pins those versions and, for every other table, the
   * version as of the member before it; so reading at that commit shows exactly the members up to it.
   *
   * @param lineage the member's commit
   * @param updates the versions its transactions produced, one per table it touched
   */
  public record GroupStep(LineageIntent lineage, List<TableUpdate> updates) {
    public GroupStep {
      Objects.requireNonNull(lineage, "lineage");
      updates = List.copyOf(updates);
    }

    /**
     * Checks the chain: no catalog change, commit times strictly increasing (lineage order within
     * one manifest version), and per table strictly increasing versions up to the final one in
     * {@code last} (every table of a step is in it; a table the last member does not touch ends at a
     * step's version).
     */
    static void requireChain(List<GroupStep> steps, List<TableUpdate> last, LineageIntent lastLineage,
        CatalogDelta catalog) {
      if (catalog != CatalogDelta.NONE && (!catalog.registrations().isEmpty() || !catalog.tombstones().isEmpty()
          || catalog.schemaIrHash() != null)) {
        throw new IllegalArgumentException("a group commit changes no registration");
      }
      Map<String, Long> finals = new TreeMap<>();
      last.forEach(u -> finals.put(u.tableKey(), u.version()));
      Map<String, Long> seen = new TreeMap<>();
      long time = Long.MIN_VALUE;
      java.util.Set<String> ids = new java.util.HashSet<>();
      for (GroupStep s : steps) {
        if (s.lineage().createdAtMicros() <= time || !ids.add(s.lineage().commitId())
            || s.lineage().mergedParentCommitId() != null) {
          throw new IllegalArgumentException("group commit members must have distinct ids, no second parent and"
              + " strictly increasing commit times");
        }
        time = s.lineage().createdAtMicros();
        for (TableUpdate u : s.updates()) {
          Long fin = finals.get(u.tableKey());
          Long before = seen.put(u.tableKey(), u.version());
          if (fin == null || u.version() > fin || (before != null && u.version() <= before)) {
            throw new IllegalArgumentException("group commit member " + s.lineage().commitId() + " publishes "
                + u.tableKey() + " at " + u.version() + " out of chain order");
          }
        }
      }
      if (lastLineage.createdAtMicros() <= time || !ids.add(lastLineage.commitId())) {
        throw new IllegalArgumentException("the last group commit member must be the newest and distinct");
      }
    }
  }

  /**
   * Registration changes a schema apply publishes with its commit (docs/schema-migration.md).
   *
   * @param registrations tables to (re-)register: a new table, or an existing identity under a new key
   * @param tombstones tables to hide from this commit on (dropped types)
   * @param schemaIrHash the schema the commit accepts, or {@code null} to keep the current one
   */
  public record CatalogDelta(List<Registration> registrations, List<Registration> tombstones, String schemaIrHash) {
    /** No change. */
    public static final CatalogDelta NONE = new CatalogDelta(List.of(), List.of(), null);

    public CatalogDelta {
      registrations = List.copyOf(registrations);
      tombstones = List.copyOf(tombstones);
    }
  }

  /**
   * One table registration.
   *
   * @param identity the table identity
   * @param tableKey the key it is (re-)registered under
   */
  public record Registration(TableIdentity identity, String tableKey) {
    public Registration {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(tableKey, "tableKey");
    }
  }

  /**
   * The latest manifest version, opened, with its state: what a writer checks its token against
   * inside its effect window and then hands to {@link #publish(PublishRequest, Base)} as the first
   * attempt's base, so the manifest is opened once per write instead of twice. Close it after the
   * publish.
   *
   * @param snapshot the opened manifest version
   * @param state its state
   */
  public record Base(TableSnapshot snapshot, ManifestState state, ManifestStore store) implements AutoCloseable {
    /** A base closed with its snapshot. */
    public Base(TableSnapshot snapshot, ManifestState state) {
      this(snapshot, state, null);
    }

    /** Closes the snapshot, or gives it back to the store that opened it (kept while it is the latest). */
    @Override
    public void close() {
      if (store == null) {
        snapshot.close();
      } else {
        store.keep(snapshot);
      }
    }
  }

  /** @return the latest manifest version and its state (the caller closes it) */
  public Base openBase() {
    return openBase(GraphBranch.MAIN);
  }

  /** @return the latest manifest version of {@code branch} and its state (the caller closes it) */
  public Base openBase(String branch) {
    TableSnapshot s = manifest.openLatest(branch);
    try {
      return new Base(s, manifest.read(s), manifest);
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * Publishes {@code request}; every attempt opens the latest manifest.
   *
   * @return the state after the publish, folded in memory (no re-scan)
   * @throws ConflictException a changed head ({@link ErrorDetail.ReadSetConflict}), a moved table
   *     version ({@link ErrorDetail.PublishedVersionConflict}), or the retry budget exhausted
   */
  public ManifestState publish(PublishRequest request) {
    return publish(request, null);
  }

  /**
   * Publishes {@code request}, the first attempt on {@code first} (a manifest version opened
   * earlier, e.g. inside the writer's effect window) instead of a new open. That is as safe as a
   * fresh open: the attempt checks every expectation against {@code first}'s state, and its merge
   * is based on {@code first}'s version, so if anything published since, the merge is refused as
   * contended and the next attempt opens and checks the latest version. {@code first} stays open
   * (the caller closes it).
   *
   * @param first the first attempt's base, or {@code null} to open the latest
   * @return the state after the publish, folded in memory (no re-scan)
   * @throws ConflictException as {@link #publish(PublishRequest)}
   */
  public ManifestState publish(PublishRequest request, Base first) {
    return publish(request, first, null);
  }

  /**
   * {@link #publish(PublishRequest, Base)}, whose first attempt commits the files {@code ahead}
   * wrote when they are exactly that attempt's (the same base version and the same rows); otherwise
   * they are discarded and the attempt writes its own. {@code ahead} is consumed either way.
   *
   * @param ahead files written by {@link #writeAhead}, or {@code null}
   */
  public ManifestState publish(PublishRequest request, Base first, WrittenAhead ahead) {
    try (WrittenAhead unused = ahead) {
      return publishAttempts(request, first, ahead);
    }
  }

  /** One attempt's rows against one base version, checked and validated, before anything is written. */
  private record Plan(List<ManifestRow> rows, List<GraphCommit> earlier, GraphCommit commit,
      Map<String, TableEntry> registered) {}

  /**
   * Builds an attempt's rows against {@code snapshot} / {@code state}: checks every expectation,
   * applies the catalog delta, and validates the folded result, so an invalid batch never advances
   * the manifest.
   *
   * @throws ConflictException as {@link #publish(PublishRequest)}
   */
  private Plan plan(PublishRequest request, TableSnapshot snapshot, ManifestState state) {
    check(request, state);
    List<ManifestRow> rows = new ArrayList<>();
    Map<String, TableEntry> registered = catalog(request.catalog(), state, rows);
    Map<String, Long> pins = new TreeMap<>();
    registered.forEach((k, t) -> pins.put(k, t.version()));
    String branch = request.branch();
    String parent = state.head(branch).map(GraphCommit::commitId).orElse(null);
    // A group commit: each earlier member's commit pins the versions as of that member.
    List<GraphCommit> earlier = new ArrayList<>();
    java.util.Set<String> written = new java.util.HashSet<>();
    for (GroupStep step : request.earlier()) {
      for (TableUpdate u : step.updates()) {
        rows.add(versionRow(registered, u));
        written.add(u.tableKey() + "@" + u.version());
        pins.put(u.tableKey(), u.version());
      }
      LineageIntent m = step.lineage();
      GraphCommit c = new GraphCommit(m.commitId(), GraphBranch.toColumn(branch), snapshot.version() + 1, parent,
          null, m.actorId(), m.message(), m.createdAtMicros(), pins);
      rows.add(ManifestStore.commitRow(c));
      earlier.add(c);
      parent = m.commitId();
    }
    for (TableUpdate u : request.updates()) {
      if (!written.contains(u.tableKey() + "@" + u.version())) { // a table the last member did not touch
        rows.add(versionRow(registered, u));
      }
      pins.put(u.tableKey(), u.version());
    }
    LineageIntent l = request.lineage();
    GraphCommit commit = new GraphCommit(l.commitId(), GraphBranch.toColumn(branch), snapshot.version() + 1,
        parent, l.mergedParentCommitId(), l.actorId(), l.message(), l.createdAtMicros(), pins);
    rows.add(ManifestStore.commitRow(commit));
    if (request.catalog().schemaIrHash() != null) {
      rows.add(ManifestRow.graphSchema(request.catalog().schemaIrHash(), l.commitId()));
    }
    // The head row goes first: a publish that replaces no other row writes it at offset 0 of its
    // new fragment, so the next publish knows its address (AddressedUpdate).
    rows.add(0, ManifestStore.headRow(branch, l.commitId(), parent));
    // Validate the folded result before writing, so an invalid batch never advances the manifest.
    // A merge-insert on object_id: a row replaces the base row of the same id (a re-registration).
    Map<String, ManifestRow> folded = new java.util.LinkedHashMap<>();
    foldBase(state).forEach(r -> folded.put(r.objectId(), r));
    rows.forEach(r -> folded.put(r.objectId(), r));
    ManifestStore.assemble(snapshot.version() + 1, new ArrayList<>(folded.values()));
    return new Plan(List.copyOf(rows), List.copyOf(earlier), commit, registered);
  }

  /** The {@code table_version} row of {@code u}, checked against the registration it updates. */
  private static ManifestRow versionRow(Map<String, TableEntry> registered, TableUpdate u) {
    TableEntry current = Optional.ofNullable(registered.get(u.tableKey())).orElseThrow(() -> new ConflictException(
        "table " + u.tableKey() + " is not registered in the manifest",
        new ErrorDetail.ReadSetConflict("dataset_binding:" + u.identity(), u.tableKey(), null)));
    if (!current.identity().equals(u.identity())) {
      throw new ConflictException("table " + u.tableKey() + " is now bound to " + current.identity(),
          new ErrorDetail.ReadSetConflict("dataset_binding:" + u.identity(), u.tableKey(),
              current.tableKey() + "@" + current.path()));
    }
    return ManifestRow.tableVersion(u.identity(), u.tableKey(), u.version(), u.rowCount(),
        ManifestStore.versionMetadata(u.tableUri(), u.version()), u.tableBranch());
  }

  /**
   * The files of a publish attempt written ahead of it (docs/write-protocol.md, "7. Publish"): the
   * new rows' fragment and the replaced head row's deletion file, written against one base version
   * while the writer still commits and confirms its tables. Nothing references them until the
   * publish commits them; a publish whose first attempt has another base or other rows (a row count
   * that differs from the one predicted) discards them ({@link #close}: on local disk they are
   * deleted, elsewhere they stay unreferenced and reclaimable) and writes its own.
   */
  public final class WrittenAhead implements AutoCloseable {
    private final TableSnapshot base;
    private final List<ManifestRow> rows;
    private final long headAddress;
    private final AddressedUpdate.Written written;
    /** The request, state and plan the files were written for: the same request on the same base has this plan. */
    private final PublishRequest request;
    private final ManifestState state;
    private final Plan plan;
    private boolean consumed;

    private WrittenAhead(TableSnapshot base, List<ManifestRow> rows, long headAddress,
        AddressedUpdate.Written written, PublishRequest request, ManifestState state, Plan plan) {
      this.base = base;
      this.rows = rows;
      this.headAddress = headAddress;
      this.written = written;
      this.request = request;
      this.state = state;
      this.plan = plan;
    }

    /**
     * @return the plan these files were written for, when {@code request} on {@code snapshot} /
     *     {@code state} is exactly the one they were planned from (a plan is a function of those three:
     *     it need not be built and checked twice), else {@code null}
     */
    private Plan planFor(PublishRequest request, TableSnapshot snapshot, ManifestState state) {
      return !consumed && state == this.state && snapshot == base && request.equals(this.request) ? plan : null;
    }

    /**
     * @return whether these files are exactly what an attempt with {@code plan} on {@code snapshot},
     *     replacing the head row at {@code head}, writes
     */
    private boolean matches(TableSnapshot snapshot, Plan plan, long head) {
      return !consumed && head >= 0 && head == headAddress
          && snapshot.location().uri().equals(base.location().uri()) && snapshot.stamp().equals(base.stamp())
          && written.readVersion() == snapshot.version() && plan.rows().equals(rows);
    }

    /** Discards the files unless a publish committed them. */
    @Override
    public void close() {
      if (!consumed) {
        consumed = true;
        AHEAD_DISCARDED.incrementAndGet();
        manifest.durability().discard(base.location(), written.files());
      }
    }
  }

  /**
   * Writes the files of {@code request}'s first publish attempt on {@code first} now, without
   * committing anything (see {@link WrittenAhead}). Safe to run on another thread while the writer
   * commits its tables: it reads only {@code first}, which the writer does not use until the
   * publish.
   *
   * @param headAddress the head row's address at {@code first} ({@link #headRowAddress}), read by
   *     the caller beforehand; -1: nothing is written
   * @return the written files, or empty when the attempt would not take the addressed route
   * @throws ConflictException the request fails against {@code first} already (the publish will
   *     report it)
   */
  public Optional<WrittenAhead> writeAhead(PublishRequest request, Base first, long headAddress) {
    if (headAddress < 0 || !onlyHeadReplaced(request, first.state())) {
      return Optional.empty();
    }
    Plan plan = plan(request, first.snapshot(), first.state());
    try (VectorSchemaRoot root = ManifestCodec.toArrow(plan.rows(), tables.allocator(),
        first.snapshot().schemaMetadata().get(ManifestCodec.STAMP_KEY))) {
      AddressedUpdate.Written w = AddressedUpdate.write(tables.allocator(), first.snapshot(), headAddress, root);
      return Optional.of(new WrittenAhead(first.snapshot(), plan.rows(), headAddress, w, request, first.state(), plan));
    }
  }

  /**
   * @return the address of {@code branch}'s head row at {@code base} when a publish of
   *     {@code request} on it would replace only that row (the addressed route), else -1
   */
  public long headRowAddress(PublishRequest request, Base base) {
    return onlyHeadReplaced(request, base.state()) ? manifest.headRowAddress(base.snapshot(), request.branch()) : -1;
  }

  private ManifestState publishAttempts(PublishRequest request, Base first, WrittenAhead ahead) {
    // Every table version this commit will name is durable before the commit can be (the one
    // place every writer passes through; a version its writer synced already is skipped).
    makeDurable(request.updates(), request.expectedVersions());
    RetryableCommitConflict last = null;
    for (int attempt = 0; attempt <= RETRY_BUDGET; attempt++) {
      Base given = attempt == 0 ? first : null;
      try (TableSnapshot opened = given == null ? manifest.openLatest(request.branch()) : null) {
        TableSnapshot snapshot = given == null ? opened : given.snapshot();
        ManifestState state = given == null ? manifest.read(snapshot) : given.state();
        // The publish written ahead planned this very request on this very base already: its plan
        // (every expectation checked, the folded result validated) is this attempt's.
        Plan ahead0 = ahead == null ? null : ahead.planFor(request, snapshot, state);
        Plan plan = ahead0 != null ? ahead0 : plan(request, snapshot, state);
        String branch = request.branch();
        LineageIntent l = request.lineage();
        GraphCommit commit = plan.commit();
        beforeMerge.run();
        Failpoints.hit(Failpoints.PUBLISH_BEFORE);
        VersionStamp committed;
        long newHead = -1;
        // A commit that replaces no row but the branch's head row deletes that row by its address
        // instead of a merge-insert, which would read every data and deletion file of the version to
        // find it (docs/write-protocol.md, "7. Publish"); the conflict rules are the same.
        long head = onlyHeadReplaced(request, state) ? manifest.headRowAddress(snapshot, branch) : -1;
        TableSnapshot out;
        if (ahead != null && ahead.matches(snapshot, plan, head)) {
          AddressedUpdate.Committed c;
          try {
            c = AddressedUpdate.commit(snapshot, ManifestStore.PATH, ahead.written);
          } catch (RetryableCommitConflict e) {
            ahead.close(); // refused: nothing landed, so nothing references the files
            throw e;
          } catch (RuntimeException e) {
            ahead.consumed = true; // the commit may have landed with them: they stay
            throw e;
          }
          ahead.consumed = true;
          AHEAD_COMMITTED.incrementAndGet();
          out = c.snapshot();
          newHead = c.addedRowsAddress();
        } else {
          try (VectorSchemaRoot root = ManifestCodec.toArrow(plan.rows(), tables.allocator(),
              snapshot.schemaMetadata().get(ManifestCodec.STAMP_KEY))) {
            if (head >= 0) {
              AddressedUpdate.Committed c = AddressedUpdate.replaceRow(tables.allocator(), snapshot,
                  ManifestStore.PATH, head, root);
              out = c.snapshot();
              newHead = c.addedRowsAddress();
            } else {
              out = tables.writer().mergeRowsOnKeyAndOpen(snapshot, ManifestStore.PATH, "object_id", root);
            }
          }
        }
        // The new version's handle is kept: the next write captures and revalidates against it
        // with one LIST each while no other writer published (ManifestStore.keep).
        committed = out.stamp();
        manifest.keep(out);
        long version = committed.version();
        try {
          manifest.durability().syncOnce(tables.reader(),
              List.of(new CommitDurability.TableCommit(snapshot.location(), snapshot.version(), version)));
        } catch (OmnigraphException e) {
          throw new StorageFailureException("graph commit " + l.commitId() + " is visible at manifest version "
              + version + " but could not be made durable: " + e.getMessage(), e.detail().orElse(null), e);
        }
        List<GraphCommit> commits = new ArrayList<>(state.commits());
        commits.addAll(plan.earlier());
        commits.add(commit);
        Map<String, TableEntry> published = new TreeMap<>(plan.registered());
        for (TableUpdate u : request.updates()) {
          TableEntry old = published.get(u.tableKey());
          published.put(u.tableKey(), new TableEntry(old.identity(), old.tableKey(), old.path(), u.version(),
              u.tableBranch(), u.rowCount()));
        }
        Map<String, String> heads = new TreeMap<>(state.graphHeads());
        heads.put(branch, l.commitId());
        published.values().removeIf(t -> t.version() == 0); // registered but never given a version
        String schemaHash = request.catalog().schemaIrHash() == null ? state.schemaIrHash()
            : request.catalog().schemaIrHash();
        ManifestState after = new ManifestState(version, published, heads, commits, schemaHash);
        // The merge landed at exactly snapshot + 1 (TableStore checks), so the fold is that version's state.
        manifest.published(snapshot, committed, after, branch, newHead);
        Failpoints.hit(Failpoints.PUBLISH_AFTER);
        return after;
      } catch (RetryableCommitConflict e) {
        last = e;
      }
    }
    throw new ConflictException("manifest publish exhausted " + RETRY_BUDGET + " retries against concurrent writers",
        null, last);
  }

  /**
   * Makes the table versions of {@code updates} durable (docs/write-protocol.md, "Durability"), as
   * one group: what each commit made reachable since the version the writer started from
   * ({@code expectedVersions}; a table without one is synced whole). Writers call it before they
   * confirm their recovery sidecar; {@link #publish} calls it again, which costs nothing for a
   * version already synced.
   *
   * @return the sync calls made
   * @throws OmnigraphException a file could not be synced (the versions may not be durable)
   */
  public int makeDurable(List<TableUpdate> updates, Map<String, Long> expectedVersions) {
    CommitDurability durability = manifest.durability();
    if (!durability.active() || updates.isEmpty()) {
      return 0;
    }
    List<CommitDurability.TableCommit> commits = new ArrayList<>();
    for (TableUpdate u : updates) {
      LanceLocation main = new LanceLocation(u.tableUri(), manifest.location().storageOptions());
      long from = expectedVersions.getOrDefault(u.tableKey(), 0L);
      if (u.tableBranch() == null) {
        commits.add(new CommitDurability.TableCommit(main, from, u.version()));
      } else if (u.tableUri().endsWith("/tree/" + u.tableBranch())) {
        LanceLocation owner = new LanceLocation(u.tableUri().substring(0,
            u.tableUri().length() - ("/tree/" + u.tableBranch()).length()), main.storageOptions());
        commits.add(new CommitDurability.TableCommit(main, from, u.version(), owner, u.tableBranch()));
      } else {
        commits.add(new CommitDurability.TableCommit(TableReader.branchLocation(main, u.tableBranch()), from,
            u.version(), main, u.tableBranch()));
      }
    }
    return durability.sync(tables.reader(), commits);
  }

  /**
   * Whether every row of {@code request}'s commit is new at {@code state} except the branch's
   * {@code graph_head} row: no catalog change, a head row to replace, a commit id not yet recorded,
   * and every table version above the highest one recorded for its table (the highest
   * {@code table_version} row of a table is its published version, so a higher one has no row).
   */
  private static boolean onlyHeadReplaced(PublishRequest request, ManifestState state) {
    CatalogDelta c = request.catalog();
    if (!c.registrations().isEmpty() || !c.tombstones().isEmpty() || c.schemaIrHash() != null
        || state.headCommitId(request.branch()).isEmpty()
        || request.commitIds().stream().anyMatch(id -> state.commit(id).isPresent())) {
      return false;
    }
    for (GroupStep step : request.earlier()) {
      for (TableUpdate u : step.updates()) {
        Optional<TableEntry> t = state.table(u.tableKey());
        if (t.isEmpty() || u.version() <= t.get().version()) {
          return false;
        }
      }
    }
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (TableUpdate u : request.updates()) {
      Optional<TableEntry> t = state.table(u.tableKey());
      if (!keys.add(u.tableKey()) || t.isEmpty() || u.version() <= t.get().version()) {
        return false;
      }
    }
    return true;
  }

  private static void check(PublishRequest request, ManifestState state) {
    if (request.expectedHead().isPresent()) {
      String branch = request.branch();
      String actual = state.graphHeads().get(branch);
      String expected = request.expectedHead().get();
      if (!expected.equals(actual)) {
        throw new ConflictException("graph head of " + branch + " moved from " + expected + " to " + actual
            + " while this write was prepared", new ErrorDetail.ReadSetConflict("graph_head:" + branch, expected,
                actual));
      }
    }
    for (Map.Entry<String, Long> e : request.expectedVersions().entrySet()) {
      long actual = state.table(e.getKey()).map(TableEntry::version).orElse(0L);
      if (actual != e.getValue()) {
        String key = e.getKey();
        int colon = key.indexOf(':');
        throw new ConflictException("table " + key + " is published at version " + actual + ", expected "
            + e.getValue() + ": a concurrent writer published first",
            new ErrorDetail.PublishedVersionConflict(key.substring(0, colon), key.substring(colon + 1),
                e.getValue(), actual));
      }
    }
  }

  /**
   * Applies a catalog delta to the tables of {@code state}: adds the registration and tombstone
   * rows to {@code rows} and returns the tables by key as they are registered afterwards (a new
   * table has version 0 until an update gives it one).
   */
  private static Map<String, TableEntry> catalog(CatalogDelta delta, ManifestState state, List<ManifestRow> rows) {
    Map<String, TableEntry> out = new TreeMap<>(state.tables());
    for (Registration t : delta.tombstones()) {
      TableEntry e = out.get(t.tableKey());
      if (e == null || !e.identity().equals(t.identity())) {
        throw new ConflictException("table " + t.tableKey() + " to drop is not registered as " + t.identity(),
            new ErrorDetail.ReadSetConflict("dataset_binding:" + t.identity(), t.tableKey(), null));
      }
      rows.add(ManifestRow.tombstone(t.identity(), t.tableKey(), e.version()));
      out.remove(t.tableKey());
    }
    for (Registration r : delta.registrations()) {
      TableEntry old = out.values().stream().filter(e -> e.identity().equals(r.identity())).findFirst().orElse(null);
      if (old != null) {
        out.remove(old.tableKey());
      }
      if (out.containsKey(r.tableKey())) {
        throw new ConflictException("table key " + r.tableKey() + " is already registered to "
            + out.get(r.tableKey()).identity(), new ErrorDetail.ReadSetConflict("dataset_binding:" + r.identity(),
                r.tableKey(), out.get(r.tableKey()).identity().toString()));
      }
      rows.add(ManifestRow.table(r.identity(), r.tableKey()));
      out.put(r.tableKey(), old == null ? new TableEntry(r.identity(), r.tableKey(),
          r.identity().canonicalPath(r.tableKey()), 0, null, 0)
          : new TableEntry(old.identity(), r.tableKey(), old.path(), old.version(), old.branch(), old.rowCount()));
    }
    return out;
  }

  /** The rows needed to re-assemble {@code state}: registrations and current versions. */
  private static List<ManifestRow> foldBase(ManifestState state) {
    List<ManifestRow> rows = new ArrayList<>();
    for (TableEntry t : state.tables().values()) {
      rows.add(ManifestRow.table(t.identity(), t.tableKey()));
      rows.add(new ManifestRow(String.format("table_version:%s:%020d", t.identity(), t.version()),
          ManifestRow.TABLE_VERSION, null, "{}", t.tableKey(), t.identity().stableTableId(),
          t.identity().incarnationId(), t.version(), t.branch(), t.rowCount()));
    }
    return rows;
  }
}
