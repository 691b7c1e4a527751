package io.omnigraph.engine.snapshot;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Resolves a {@link GraphRef} of one graph root to a {@link GraphSnapshot}: a branch to the latest
 * manifest state (its head), a commit id to the manifest version that commit produced; then the
 * schema accepted at that cut.
 *
 * <p>The schema of a cut: a cut records the identity of every table it publishes (stable table id
 * and incarnation, which the schema IR assigns). The schema is read from the graph's schema files
 * ({@link SchemaFiles}: source, IR and identity marker, checked against each other) and accepted for
 * the cut only when every table of that schema is published in the cut with the identity the IR
 * gives it; otherwise resolution fails with a typed internal error (rule
 * {@value #SCHEMA_IDENTITY_MISMATCH}). The last schema verified is remembered with the identities it
 * was verified against, so a cut recording the same identities costs no further reads.
 *
 * <p>Unknown refs are typed: {@link NotFoundException} with rule {@value #UNKNOWN_BRANCH} or
 * {@value #UNKNOWN_COMMIT} in its {@link ErrorDetail.Validation} detail (field {@code ref}).
 */
public final class SnapshotResolver {
  /** Rule of the NotFound failure for a branch the graph does not have. */
  public static final String UNKNOWN_BRANCH = "unknown_branch";
  /** Rule of the NotFound failure for a commit id the graph's lineage does not have. */
  public static final String UNKNOWN_COMMIT = "unknown_commit";
  /** Rule of the internal failure for schema files that do not match a cut's table identities. */
  public static final String SCHEMA_IDENTITY_MISMATCH = "schema_identity_mismatch";

  private final GraphRoot root;
  private final TableStore tables;
  private final ManifestStore manifest;
  /** The last schema verified, with the table identities it was verified against. */
  private volatile Verified verified;

  private record Verified(Map<String, TableIdentity> identities, String cutSchemaHash, CompiledSchema schema) {}

  /**
   * The cut {@link #schemaAt} answered last (compared by identity: {@link #resolveForRead} hands out
   * the same state object while main's head is unchanged) and its schema, so a read query on an
   * unchanged head does not rebuild and compare the identity map.
   */
  private volatile CutSchema lastCut;

  private record CutSchema(ManifestState state, CompiledSchema schema) {}

  /**
   * @param root the graph root
   * @param tables the table gateway
   * @param manifest the root's manifest store
   */
  public SnapshotResolver(GraphRoot root, TableStore tables, ManifestStore manifest) {
    this.root = Objects.requireNonNull(root);
    this.tables = Objects.requireNonNull(tables);
    this.manifest = Objects.requireNonNull(manifest);
  }

  /** A resolver with its own manifest store over {@code root}'s {@code __manifest}. */
  public SnapshotResolver(GraphRoot root, TableStore tables) {
    this(root, tables, new ManifestStore(tables, root.lance(ManifestStore.PATH), io.omnigraph.engine.storage.CommitDurability.of(root)));
  }

  /**
   * @param ref a branch or a commit
   * @return the graph at {@code ref} (close it)
   * @throws NotFoundException an unknown branch or commit, or no graph at the root
   * @throws InternalErrorException the schema files do not match the cut
   */
  public GraphSnapshot resolve(GraphRef ref) {
    ManifestState state = state(ref);
    return new GraphSnapshot(ref, state, schemaAt(state), root, tables.reader());
  }

  /**
   * Like {@link #resolve} for a read query (docs/queries.md, "Execution"): the snapshot's tables
   * come from the store's shared read datasets (opened once per table version), and main's head is
   * found by asking the open {@code __manifest} for its latest version number (a listing, no
   * manifest read) and reusing the state read last while that number is unchanged. The snapshot
   * must not be used to write.
   *
   * @param ref a branch or a commit
   * @return the graph at {@code ref} (close it)
   * @throws NotFoundException an unknown branch or commit, or no graph at the root
   * @throws InternalErrorException the schema files do not match the cut
   */
  public GraphSnapshot resolveForRead(GraphRef ref) {
    ManifestState state = ref instanceof GraphRef.Branch b && GraphBranch.MAIN.equals(b.name()) ? mainHeadForRead()
        : state(ref);
    return new GraphSnapshot(ref, state, schemaAt(state), root, tables.reader(), true);
  }

  /** main's head as read queries last saw it: a shared handle on that {@code __manifest} version, and its state. */
  private TableSnapshot headManifest;
  private ManifestState headState;

  private synchronized ManifestState mainHeadForRead() {
    if (headManifest != null && tables.reader().latestVersion(headManifest) == headState.manifestVersion()) {
      return headState;
    }
    ManifestState s = latest();
    TableSnapshot h = tables.reader().openShared(manifest.location(), s.manifestVersion());
    if (headManifest != null) {
      headManifest.close();
    }
    headManifest = h;
    headState = s;
    return s;
  }

  /** Releases the head handle of {@link #resolveForRead} (the graph handle is closing). */
  public synchronized void close() {
    if (headManifest != null) {
      headManifest.close();
      headManifest = null;
      headState = null;
    }
  }

  /**
   * @param ref a branch or a commit
   * @return the manifest state {@code ref} denotes
   * @throws NotFoundException an unknown branch or commit, or no graph at the root
   */
  public ManifestState state(GraphRef ref) {
    if (ref instanceof GraphRef.Branch b) {
      return latest(b.name());
    }
    String id = ((GraphRef.Commit) ref).commitId();
    // A commit is visible in the manifest of the branch it was made on and of every branch created
    // from it; main is searched first, then every live branch.
    ManifestState latest = latest();
    String foundOn = GraphBranch.MAIN;
    Optional<GraphCommit> commit = latest.commit(id);
    if (commit.isEmpty()) {
      for (NativeBranch b : liveBranches()) {
        ManifestState s = latest(b.name());
        commit = s.commit(id);
        if (commit.isPresent()) {
          foundOn = b.name();
          latest = s;
          break;
        }
      }
    }
    GraphCommit c = commit.orElseThrow(() -> new NotFoundException("no commit '" + id
        + "' in the graph at " + root.uri(), new ErrorDetail.Validation(null, null, "ref", UNKNOWN_COMMIT)));
    // An earlier member of a group commit shares its manifest version with the members after it:
    // its state is that version as of its own pins (docs/concurrency.md, "Group commit").
    boolean member = latest.supersededAtItsVersion(c);
    if (c.manifestVersion() == latest.manifestVersion() && !member) {
      return latest;
    }
    String madeOn = GraphBranch.fromColumn(c.branch());
    ManifestState at;
    try {
      at = member ? manifest.readAsOf(madeOn, c.manifestVersion(), c) : manifest.readVersion(madeOn, c.manifestVersion());
    } catch (NotFoundException e) {
      // The branch the commit was made on is gone; the branch it was found on forked from it at or
      // after that version, and Lance opens a branch at any version of its ancestry.
      at = member ? manifest.readAsOf(foundOn, c.manifestVersion(), c) : manifest.readVersion(foundOn, c.manifestVersion());
    }
    if (at.commit(id).isEmpty()) {
      throw new InternalErrorException("corrupted graph manifest: commit " + id + " names manifest version "
          + c.manifestVersion() + ", which does not record it", null);
    }
    return at;
  }

  /** @return the latest manifest state of main */
  public ManifestState latest() {
    TableSnapshot m = manifest.openLatest();
    try {
      return manifest.read(m);
    } finally {
      manifest.keep(m); // the write that captured this version revalidates against it (one LIST, no GET)
    }
  }

  /**
   * @param branch a graph branch
   * @return the latest manifest state of that branch (its head)
   * @throws NotFoundException (rule {@value #UNKNOWN_BRANCH}) when the graph has no such branch
   */
  public ManifestState latest(String branch) {
    if (GraphBranch.MAIN.equals(branch)) {
      return latest();
    }
    if (!validName(branch)) {
      throw unknownBranch(branch);
    }
    try {
      return manifest.readLatest(branch);
    } catch (NotFoundException e) {
      throw unknownBranch(branch);
    }
  }

  /**
   * @return the identity of {@code branch}: {@value GraphBranch#MAIN} for main, otherwise its
   *     native Lance branch identifier of {@code __manifest} (docs/branches.md, "Identity")
   * @throws NotFoundException no such branch (rule {@value #UNKNOWN_BRANCH})
   */
  public String branchIdentity(String branch) {
    if (GraphBranch.MAIN.equals(branch)) {
      return GraphBranch.MAIN;
    }
    if (!validName(branch)) {
      throw unknownBranch(branch);
    }
    return tables.reader().branch(manifest.location(), branch).map(NativeBranch::identifierText)
        .orElseThrow(() -> unknownBranch(branch));
  }

  /**
   * @throws io.omnigraph.api.ConflictException ({@code read_set_conflict} on
   *     {@code branch_identifier:<branch>}) the branch was deleted and re-created since
   *     {@code identity} was read
   */
  public void requireBranchIdentity(String branch, String identity) {
    String now = branchIdentity(branch);
    if (!now.equals(identity)) {
      throw new io.omnigraph.api.ConflictException("branch " + branch + " was deleted and re-created while the"
          + " write was prepared; nothing was written", new ErrorDetail.ReadSetConflict(
              "branch_identifier:" + branch, identity, now));
    }
  }

  /** @return the native branches of {@code __manifest}: every graph branch except main */
  public java.util.List<NativeBranch> liveBranches() {
    return tables.reader().branches(manifest.location());
  }

  private NotFoundException unknownBranch(String branch) {
    return new NotFoundException("no branch '" + branch + "' in the graph at " + root.uri(),
        new ErrorDetail.Validation(null, null, "ref", UNKNOWN_BRANCH));
  }

  /** A name that could be a branch: anything else is unknown without asking storage. */
  private static boolean validName(String name) {
    return !name.isEmpty() && !name.startsWith("/") && !name.endsWith("/") && !name.contains("//")
        && !name.contains("..") && name.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f && ch != '\\');
  }

  /**
   * The schema accepted at a cut: the graph's schema files, verified against the table identities
   * the cut records.
   *
   * @throws InternalErrorException the files are missing, incomplete, disagree with each other, or
   *     do not match the cut's table identities
   */
  public CompiledSchema schemaAt(ManifestState state) {
    CutSchema last = lastCut;
    if (last != null && last.state() == state) {
      return last.schema();
    }
    Map<String, TableIdentity> identities = identities(state);
    Verified v = verified;
    if (v != null && v.identities().equals(identities) && Objects.equals(v.cutSchemaHash(), state.schemaIrHash())) {
      lastCut = new CutSchema(state, v.schema());
      return v.schema();
    }
    CompiledSchema schema;
    if (state.schemaIrHash() != null) {
      // A schema apply recorded the cut's schema: read it from the immutable history, never from
      // the schema files, which are promoted only after the commit is visible.
      schema = v != null && v.schema().ir().hash().equals(state.schemaIrHash()) ? v.schema()
          : SchemaFiles.readHistory(root, state.schemaIrHash());
    } else {
      SchemaFiles.Accepted files = SchemaFiles.readAccepted(root).orElseThrow(() -> new InternalErrorException(
          "graph at " + root.uri() + " has a manifest but no schema files", null));
      schema = files.genesisIrHash() == null ? files.schema() : SchemaFiles.readHistory(root, files.genesisIrHash());
    }
    return accept(schema, state);
  }

  /**
   * Accepts {@code schema} for {@code state} after checking it against the cut's table identities
   * (no I/O): for a schema the caller just wrote as the graph's schema files (init).
   *
   * @return {@code schema}
   * @throws InternalErrorException when it does not match the cut
   */
  public CompiledSchema accept(CompiledSchema schema, ManifestState state) {
    requireIdentities(schema, state);
    verified = new Verified(identities(state), state.schemaIrHash(), schema);
    lastCut = new CutSchema(state, schema);
    return schema;
  }

  /** Every table of the schema must be published in the cut with the identity the IR gives it. */
  private void requireIdentities(CompiledSchema schema, ManifestState state) {
    for (TableSpec t : schema.tables()) {
      TableEntry e = state.table(t.tableKey()).orElseThrow(() -> mismatch(
          "the schema's table " + t.tableKey() + " is not published in the manifest"));
      TableIdentity expected = new TableIdentity(t.stableTableId(), t.tableIncarnationId());
      if (!e.identity().equals(expected)) {
        throw mismatch("table " + t.tableKey() + " is published as " + e.identity() + " but the schema IR says "
            + expected);
      }
    }
  }

  private InternalErrorException mismatch(String what) {
    return new InternalErrorException(what + " (graph at " + root.uri() + ", manifest cut does not match "
        + SchemaFiles.IR + ")", new ErrorDetail.Validation(null, null, SchemaFiles.IR, SCHEMA_IDENTITY_MISMATCH));
  }

  private static Map<String, TableIdentity> identities(ManifestState state) {
    Map<String, TableIdentity> out = new TreeMap<>();
    state.tables().forEach((k, e) -> out.put(k, e.identity()));
    return out;
  }
}
