package io.omnigraph.engine.branch;

import io.omnigraph.api.BranchInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.GraphCommit;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.NativeBranch;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.EffectWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Graph branch control (docs/branches.md): list, create, delete. A graph branch other than main is
 * a native Lance branch of {@code __manifest}; creating one forks the manifest only (tables fork
 * lazily, on the first write to a table on the branch). Create and delete emit no graph commit
 * and use no recovery sidecar: their only authority is Lance's branch contents record of
 * {@code __manifest}, which Lance changes in two physical steps (create: clone the tree, then write
 * the record; delete: remove the record, then reclaim the tree). Both run inside the root's effect
 * window, validate everything before the first effect, and classify an ambiguous native failure by
 * fresh metadata (docs/branches.md, "Crash safety").
 */
public final class BranchControl {
  /** Native attempts of one create. */
  static final int CREATE_ATTEMPTS = 2;

  private final GraphRoot root;
  private final TableStore tables;
  private final ManifestStore manifest;
  private final SnapshotResolver snapshots;
  private final Supplier<EffectWindow> window;

  /**
   * @param window enters the root's effect window (this process's write gate, then the lease)
   */
  public BranchControl(GraphRoot root, TableStore tables, ManifestStore manifest, SnapshotResolver snapshots,
      Supplier<EffectWindow> window) {
    this.root = Objects.requireNonNull(root);
    this.tables = Objects.requireNonNull(tables);
    this.manifest = Objects.requireNonNull(manifest);
    this.snapshots = Objects.requireNonNull(snapshots);
    this.window = Objects.requireNonNull(window);
  }

  /** @return every branch, main first, then by name */
  public List<BranchInfo> list() {
    List<BranchInfo> out = new ArrayList<>();
    out.add(info(GraphBranch.MAIN, null, snapshots.latest()));
    for (NativeBranch b : snapshots.liveBranches()) {
      ManifestState state;
      try {
        state = manifest.readLatest(b.name());
      } catch (NotFoundException e) {
        continue; // deleted meanwhile
      }
      out.add(info(b.name(), GraphBranch.fromColumn(b.parentBranch()), state));
    }
    return out;
  }

  private static BranchInfo info(String name, String parent, ManifestState state) {
    String head = state.head(name).map(GraphCommit::commitId).orElseThrow(() -> new io.omnigraph.api
        .InternalErrorException("branch " + name + " has no commit at all", null));
    return new BranchInfo(name, head, parent);
  }

  /** @return the names of every live branch, main included */
  public List<String> names() {
    List<String> out = new ArrayList<>();
    out.add(GraphBranch.MAIN);
    snapshots.liveBranches().forEach(b -> out.add(b.name()));
    return out;
  }

  /** Where a new branch forks: a manifest branch and one of its versions, and the commit there. */
  record ForkPoint(String branch, long manifestVersion, String commitId) {}

  /**
   * Creates branch {@code name} at {@code from}: the head of a branch, or a commit.
   *
   * @param from a branch name or a commit id ({@code null}: main)
   * @throws InvalidInputException an invalid name (nothing done)
   * @throws ConflictException the name is taken or overlaps a live branch's path (nothing done)
   * @throws NotFoundException {@code from} is neither a branch nor a commit (nothing done)
   */
  public BranchInfo create(String name, String from) {
    BranchNames.requireValid(name);
    try (EffectWindow w = window.get()) {
      List<NativeBranch> live = snapshots.liveBranches();
      List<String> names = new ArrayList<>();
      names.add(GraphBranch.MAIN);
      live.forEach(b -> names.add(b.name()));
      BranchNames.requireFree(name, names);
      ForkPoint fork = forkPoint(from == null ? GraphBranch.MAIN : from, names);
      List<NativeBranch.Element> parentId = fork.branch().equals(GraphBranch.MAIN) ? List.of()
          : live.stream().filter(b -> b.name().equals(fork.branch())).findFirst().orElseThrow().identifier();
      w.checkValid();
      NativeBranch created = createNative(name, fork, parentId);
      // Durability (docs/write-protocol.md, "Durability"): Lance wrote the record and the cloned tree
      // without a sync; the create is acknowledged only once both survive a power failure.
      manifest.durability().syncBranchCreated(manifest.location(), name);
      Failpoints.hit(Failpoints.BRANCH_CREATE_POST_NATIVE);
      return new BranchInfo(created.name(), fork.commitId(), fork.branch());
    }
  }

  private ForkPoint forkPoint(String from, List<String> names) {
    if (names.contains(from)) {
      ManifestState s = snapshots.latest(from);
      String head = s.head(from).map(GraphCommit::commitId).orElseThrow();
      return new ForkPoint(from, s.manifestVersion(), head);
    }
    ManifestState at;
    try {
      at = snapshots.state(GraphRef.commit(from));
    } catch (NotFoundException e) {
      throw new NotFoundException("no branch or commit '" + from + "' in the graph at " + root.uri(),
          new ErrorDetail.Validation(null, null, "from", looksLikeCommit(from) ? SnapshotResolver.UNKNOWN_COMMIT
              : SnapshotResolver.UNKNOWN_BRANCH), e);
    }
    GraphCommit c = at.commit(from).orElseThrow();
    if (snapshots.latest().supersededAtItsVersion(c)) {
      // Lance forks a manifest version, and this commit's version also holds the group members after it.
      throw new InvalidInputException("commit " + from + " is an earlier member of a group commit; a branch can be"
          + " created from the group's last commit " + snapshots.latest().commits().stream()
              .filter(d -> d.manifestVersion() == c.manifestVersion() && java.util.Objects.equals(d.branch(), c.branch()))
              .reduce((a, b) -> b).map(GraphCommit::commitId).orElse("?") + " (docs/concurrency.md, \"Group commit\")",
          new ErrorDetail.Validation(null, null, "from", "group_member_commit"));
    }
    String on = GraphBranch.fromColumn(c.branch());
    if (!names.contains(on)) {
      // Made on a branch deleted since: fork from a live branch whose manifest still holds it.
      on = names.stream().filter(n -> {
        try {
          return snapshots.latest(n).commit(from).isPresent();
        } catch (NotFoundException e) {
          return false;
        }
      }).findFirst().orElseThrow(() -> new NotFoundException("commit " + from + " is on no live branch",
          new ErrorDetail.Validation(null, null, "from", SnapshotResolver.UNKNOWN_COMMIT)));
    }
    return new ForkPoint(on, c.manifestVersion(), from);
  }

  private static boolean looksLikeCommit(String s) {
    return s.length() == 26 && s.chars().allMatch(Character::isLetterOrDigit);
  }

  /**
   * At most {@value #CREATE_ATTEMPTS} native attempts. Before each, a tree left under the name by
   * an interrupted create (cloned, contents record never written) is reclaimed. After a failure,
   * fresh metadata decides: the branch exists with exactly the captured parent, parent version and
   * parent identifier plus one new element, and opens → the create landed; absent → retry;
   * anything else is foreign and never deleted.
   */
  private NativeBranch createNative(String name, ForkPoint fork, List<NativeBranch.Element> parentId) {
    String parent = GraphBranch.toColumn(fork.branch());
    OmnigraphException last = null;
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      reclaimAbsentRefTree(name);
      try {
        Failpoints.hit(Failpoints.BRANCH_CREATE_PRE_NATIVE);
        return tables.writer().createBranch(manifest.location(), name, parent, fork.manifestVersion());
      } catch (OmnigraphException e) {
        last = e;
      }
      Optional<NativeBranch> now = tables.reader().branch(manifest.location(), name);
      if (now.isEmpty()) {
        continue;
      }
      NativeBranch b = now.get();
      boolean ours = Objects.equals(b.parentBranch(), parent) && b.parentVersion() == fork.manifestVersion()
          && b.identifier().size() == parentId.size() + 1 && b.identifier().subList(0, parentId.size()).equals(parentId);
      if (ours && opens(name)) {
        return b;
      }
      throw new ConflictException("creating branch '" + name + "' failed (" + last.getMessage()
          + ") and a branch of that name now exists that this create did not make; it is left untouched",
          new ErrorDetail.Validation(null, null, "name", BranchNames.BRANCH_EXISTS), last);
    }
    throw last;
  }

  private boolean opens(String name) {
    try {
      manifest.readLatest(name);
      return true;
    } catch (OmnigraphException e) {
      return false;
    }
  }

  /**
   * Reclaims the tree of a branch name that Lance does not list (a create interrupted after its
   * clone, a delete interrupted after removing the contents record). Deleting a missing prefix is
   * a no-op. Only called for a name no live branch's path overlaps ({@link BranchNames#requireFree}
   * or the delete of that very name), so no live tree is inside.
   */
  private void reclaimAbsentRefTree(String name) {
    if (tables.reader().branch(manifest.location(), name).isEmpty()) {
      root.deletePrefix(ManifestStore.PATH + "/tree/" + name + "/");
    }
  }

  /**
   * Deletes branch {@code name}.
   *
   * @throws InvalidInputException deleting main
   * @throws NotFoundException no such branch
   * @throws ConflictException another branch was created from it (Lance keeps its versions), or it
   *     was deleted and re-created while this delete ran
   */
  public void delete(String name) {
    if (GraphBranch.MAIN.equals(name)) {
      throw new InvalidInputException("the branch main cannot be deleted",
          new ErrorDetail.Validation(null, null, "name", "cannot_delete_main"));
    }
    try (EffectWindow w = window.get()) {
      NativeBranch captured = tables.reader().branch(manifest.location(), name).orElseThrow(() ->
          new NotFoundException("no branch '" + name + "' in the graph at " + root.uri(),
              new ErrorDetail.Validation(null, null, "ref", SnapshotResolver.UNKNOWN_BRANCH)));
      List<String> children = snapshots.liveBranches().stream().filter(b -> name.equals(b.parentBranch()))
          .map(NativeBranch::name).toList();
      if (!children.isEmpty()) {
        throw new ConflictException("branch '" + name + "' cannot be deleted: the branches " + children
            + " were created from it and share its history; delete them first",
            new ErrorDetail.Validation(null, null, "name", "branch_has_children"));
      }
      // The tables this branch forked (entries on its own ref), for the derived cleanup below.
      List<String> forked = new ArrayList<>();
      try {
        manifest.readLatest(name).tables().values().stream().filter(t -> name.equals(t.branch()))
            .forEach(t -> forked.add(t.path()));
      } catch (NotFoundException e) {
        // Nothing readable: nothing to clean.
      }
      w.checkValid();
      try {
        Failpoints.hit(Failpoints.BRANCH_DELETE_PRE_NATIVE);
        tables.writer().deleteBranch(manifest.location(), name);
      } catch (OmnigraphException e) {
        Optional<NativeBranch> now = tables.reader().branch(manifest.location(), name);
        if (now.isPresent()) {
          if (now.get().identifier().equals(captured.identifier())) {
            throw e;
          }
          throw new ConflictException("branch '" + name + "' was deleted and re-created while this delete ran",
              new ErrorDetail.ReadSetConflict("branch_identifier:" + name, captured.identifierText(),
                  now.get().identifierText()), e);
        }
        // Absent: the contents record is gone, which is the delete's logical effect.
      }
      // The removal of the record and the tree is durable before the delete is acknowledged.
      manifest.durability().syncBranchDeleted(manifest.location(), name);
      Failpoints.hit(Failpoints.BRANCH_DELETE_POST_NATIVE);
      // Derived cleanup, best effort: a tree Lance left behind is unreachable without its record.
      try {
        reclaimAbsentRefTree(name);
      } catch (OmnigraphException e) {
        // Deliberate: the branch is deleted; the next create of the name reclaims the tree first.
      }
      // The table refs the branch forked are unreachable now; a ref left behind (a failed delete, or
      // a fork of a write that never published) is replaced by the next fork of that name.
      for (String path : forked) {
        try {
          tables.writer().deleteBranch(root.lance(path), name);
          manifest.durability().syncBranchDeleted(root.lance(path), name);
        } catch (OmnigraphException e) {
          // Deliberate, as above: derived cleanup is best effort.
        }
      }
    }
  }
}
