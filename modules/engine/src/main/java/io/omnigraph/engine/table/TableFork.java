package io.omnigraph.engine.table;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.storage.GraphRoot;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The lazy fork of a data table on a graph branch (docs/branches.md, "Lazy table forks"): the
 * first write to a table on branch {@code b} creates the table's native ref {@code tree/<b>} at
 * exactly the version the branch publishes. The caller holds the root's effect window, so no other
 * fork, branch create or delete of this graph runs meanwhile (in any process of the supported
 * single-writer-process topology); that is what makes a leftover found here a dead attempt's, not a
 * live one's.
 *
 * <p>Lance creates a ref in two physical steps: it shallow-clones the tree {@code tree/<b>}, then
 * writes the ref's contents record. What an interrupted fork leaves is therefore one of
 * <ul>
 *   <li>nothing;</li>
 *   <li>a clone-only tree without a contents record: unreachable (no manifest names a ref that
 *       Lance does not list), reclaimed before the native call — a clone onto it fails inside
 *       Lance ("Clone operation should not enter build_manifest");</li>
 *   <li>a complete, untouched ref forked from exactly the version the branch publishes: adopted
 *       (it holds the same rows);</li>
 *   <li>such a ref with commits past the fork (the commits of a write orphan-discarded with a
 *       deleted incarnation of the branch), or a complete ref forked from anything else (a fork of
 *       an earlier version, or of an earlier incarnation of the branch): replaced. No pending intent
 *       can own those commits: every fork runs under its writer's own armed sidecar, which was armed
 *       only after the effect window's re-list of {@code __recovery/} found no other
 *       (docs/branches.md, "Lazy table forks").</li>
 * </ul>
 * A replaced ref is unreachable: no manifest names it, because a branch names its own table ref
 * only from the publish that followed the fork, and never leaves it afterwards. A tree that cannot be proven to be such a leftover — another listed ref of the table is a path
 * ancestor or descendant of {@code tree/<b>}, so reclaiming would reach into that ref's files — is
 * never touched: the write fails with a typed {@link ConflictException} ({@value #UNOWNED_FORK_RULE}).
 * A native failure that leaves no exact fork keeps its typed error (storage, permission); one Lance
 * reports as untyped becomes the same typed conflict, never an internal error.
 */
public final class TableFork {
  /** The rule of the conflict for a table ref this fork cannot prove it may reclaim or adopt. */
  public static final String UNOWNED_FORK_RULE = "unowned_table_ref";

  private final TableReader reader;
  private final TableWriter writer;
  private final GraphRoot root;

  /**
   * @param root the graph root the table lives under (for reclaiming a clone-only tree)
   */
  public TableFork(TableReader reader, TableWriter writer, GraphRoot root) {
    this.reader = Objects.requireNonNull(reader);
    this.writer = Objects.requireNonNull(writer);
    this.root = Objects.requireNonNull(root);
  }

  /**
   * Opens the ref {@code branch} of the table at {@code tablePath} pinned at {@code version},
   * forking it from {@code version} of {@code parentBranch} ({@code null}: the table's main) when
   * it is not there. Call inside the root's effect window.
   *
   * @param tablePath the table's path relative to the graph root (its manifest entry's path)
   * @throws ConflictException ({@value #UNOWNED_FORK_RULE}) a leftover this fork cannot prove it
   *     may reclaim, or a native failure that left no exact fork
   */
  public TableSnapshot openForWrite(String tablePath, String tableKey, String branch, String parentBranch,
      long version) {
    LanceLocation main = root.lance(tablePath);
    List<NativeBranch> refs = reader.branches(main);
    Optional<NativeBranch> existing = refs.stream().filter(b -> b.name().equals(branch)).findFirst();
    if (existing.isPresent() && exact(existing.get(), parentBranch, version)
        && reader.latestVersionOf(TableReader.branchLocation(main, branch)) == version) {
      return reader.openAt(TableReader.branchLocation(main, branch), version); // untouched: adopted
    }
    requireDisjoint(tableKey, branch, refs);
    if (existing.isPresent()) {
      writer.deleteBranch(main, branch); // unreachable and no pending intent's: see the class comment
    }
    reclaimCloneOnlyTree(tablePath, branch);
    try {
      Failpoints.hit(Failpoints.TABLE_FORK_PRE_NATIVE);
      writer.createBranch(main, branch, parentBranch, version);
    } catch (OmnigraphException e) {
      Optional<NativeBranch> now = reader.branch(main, branch);
      if (now.isEmpty() || !exact(now.get(), parentBranch, version)) {
        if (!(e instanceof io.omnigraph.api.InternalErrorException)) {
          throw e; // already typed (a storage failure, a permission error, ...)
        }
        throw new ConflictException("forking table " + tableKey + " on branch '" + branch + "' failed ("
            + e.getMessage() + ") and left no fork of version " + version + "; nothing was written",
            new ErrorDetail.Validation(null, null, "branch", UNOWNED_FORK_RULE), e);
      }
    }
    Failpoints.hit(Failpoints.TABLE_FORK_POST_NATIVE);
    return reader.openAt(TableReader.branchLocation(main, branch), version);
  }

  /**
   * A first-touch fork a write plans while it prepares and performs only after its recovery sidecar
   * is armed (sidecar-before-ref, docs/branches.md "Lazy table forks"): the sidecar names
   * {@code (main, branch)} and the inherited {@code version} before the ref can exist.
   *
   * @param tablePath the table's path relative to the graph root
   * @param branch the graph branch, also the name of the ref the fork creates
   * @param parentBranch the ref the branch's entry points at ({@code null} = the table's main)
   * @param version the version the branch publishes, which the fork starts at
   */
  public record Plan(TableFork fork, String tablePath, String tableKey, String branch, String parentBranch,
      long version) {
    /** @return the table's main location (the sidecar pins the table by its canonical main URI) */
    public LanceLocation main() {
      return fork.root.lance(tablePath);
    }

    /** Creates (or adopts) the fork; call inside the root's effect window, after arming. */
    public TableSnapshot open() {
      return fork.openForWrite(tablePath, tableKey, branch, parentBranch, version);
    }

    /** @return what is at the fork's place now */
    public Leftover inspect() {
      return fork.inspect(tablePath, branch, parentBranch, version);
    }

    /**
     * @return the native identifier ({@link NativeBranch#identifierText}) of the ref at the fork's
     *     place now, read from fresh metadata; empty when no ref is listed. A writer reads it right
     *     after {@link #open} and its confirmation binds it; recovery compares it (docs/recovery.md)
     */
    public Optional<String> identity() {
      return fork.reader.branch(main(), branch).map(NativeBranch::identifierText);
    }

    /**
     * Removes what a fork of this plan left while it is still unpublished and untouched: an exact
     * ref at {@code version} is deleted, a clone-only tree reclaimed; nothing is a no-op.
     *
     * @throws ConflictException ({@value #UNOWNED_FORK_RULE}) the ref has commits past the fork, was
     *     forked from something else, or overlaps another ref's path: it is left untouched
     */
    public void removeUntouched() {
      fork.removeUntouched(tablePath, tableKey, branch, parentBranch, version);
    }
  }

  /** What stands where a planned fork's ref goes. */
  public enum Leftover {
    /** No ref is listed (a clone-only tree may exist: Lance lists a ref only once its record exists). */
    ABSENT,
    /** The exact fork, untouched: parent ref and version as planned, HEAD at that version. */
    UNTOUCHED,
    /** The exact fork with commits past the fork version. */
    ADVANCED,
    /** A listed ref forked from anything else. */
    FOREIGN
  }

  /** @return what stands at {@code tree/<branch>} of the table at {@code tablePath} */
  Leftover inspect(String tablePath, String branch, String parentBranch, long version) {
    LanceLocation main = root.lance(tablePath);
    Optional<NativeBranch> ref = reader.branch(main, branch);
    if (ref.isEmpty()) {
      return Leftover.ABSENT;
    }
    if (!exact(ref.get(), parentBranch, version)) {
      return Leftover.FOREIGN;
    }
    return reader.latestVersionOf(TableReader.branchLocation(main, branch)) == version ? Leftover.UNTOUCHED
        : Leftover.ADVANCED;
  }

  private void removeUntouched(String tablePath, String tableKey, String branch, String parentBranch, long version) {
    LanceLocation main = root.lance(tablePath);
    Leftover left = inspect(tablePath, branch, parentBranch, version);
    if (left == Leftover.ADVANCED || left == Leftover.FOREIGN) {
      throw new ConflictException("the ref '" + branch + "' of table " + tableKey + " is not the untouched fork of"
          + " version " + version + " (" + left + "); it is left untouched",
          new ErrorDetail.Validation(null, null, "branch", UNOWNED_FORK_RULE));
    }
    List<NativeBranch> refs = reader.branches(main);
    boolean overlapped = refs.stream().anyMatch(r -> r.name().startsWith(branch + "/")
        || branch.startsWith(r.name() + "/"));
    if (overlapped) {
      if (left == Leftover.UNTOUCHED) {
        requireDisjoint(tableKey, branch, refs); // Lance would delete the overlapping ref's files too
      }
      return; // no ref of ours: a fork refused for the overlap created nothing, and the tree is not ours to reclaim
    }
    if (left == Leftover.UNTOUCHED) {
      writer.deleteBranch(main, branch);
    }
    reclaimCloneOnlyTree(tablePath, branch);
  }

  private static boolean exact(NativeBranch b, String parentBranch, long version) {
    return Objects.equals(b.parentBranch(), parentBranch) && b.parentVersion() == version;
  }

  /** Refuses when another listed ref's tree overlaps {@code tree/<branch>} (Lance reclaims trees recursively). */
  private static void requireDisjoint(String tableKey, String branch, List<NativeBranch> refs) {
    for (NativeBranch r : refs) {
      if (r.name().startsWith(branch + "/") || branch.startsWith(r.name() + "/")) {
        throw new ConflictException("table " + tableKey + " cannot be forked on branch '" + branch + "': its ref '"
            + r.name() + "' overlaps the path tree/" + branch + ", which is therefore left untouched",
            new ErrorDetail.Validation(null, null, "branch", UNOWNED_FORK_RULE));
      }
    }
  }

  /**
   * Reclaims what an interrupted fork or ref delete leaves under {@code tree/<branch>} without a
   * contents record; deleting a missing prefix is a no-op.
   */
  private void reclaimCloneOnlyTree(String tablePath, String branch) {
    String path = tablePath;
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    root.deletePrefix(path + "/tree/" + branch + "/");
  }
}
