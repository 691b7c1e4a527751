package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.engine.manifest.ManifestState;
import java.util.Objects;
import java.util.Optional;

/**
 * The optimistic-concurrency token of one write attempt (docs/write-protocol.md, "1. Capture the
 * token"): the target branch's identity, its exact graph head (absence is a value) and the accepted
 * schema identity, captured when the attempt is prepared and compared again inside the effect
 * window before any table HEAD moves.
 *
 * <p>A branch's identity is its name until branches can be deleted and re-created (then it becomes
 * the native Lance branch identifier of {@code __manifest}); the schema identity is the IR hash of
 * the schema accepted at the cut the attempt was prepared on. Both are carried so the comparison is
 * the one place to extend.
 *
 * @param branch the target branch's name
 * @param branchIdentity the target branch's identity
 * @param head the branch's exact graph head when the attempt was prepared (empty: no commit yet)
 * @param schemaIdentity the accepted schema identity (IR hash)
 */
public record WriteToken(String branch, String branchIdentity, Optional<String> head, String schemaIdentity) {
  public WriteToken {
    Objects.requireNonNull(branch);
    Objects.requireNonNull(branchIdentity);
    Objects.requireNonNull(head);
    Objects.requireNonNull(schemaIdentity);
  }

  /**
   * Captures the token of {@code branch} from a manifest state.
   *
   * @param state the cut
   * @param branch the target graph branch
   * @param schemaIdentity the IR hash of the schema accepted at that cut
   */
  public static WriteToken capture(ManifestState state, String branch, String schemaIdentity) {
    return new WriteToken(branch, branch, state.headCommitId(branch), schemaIdentity);
  }

  /**
   * Captures the token of {@code branch} with its native identity (docs/branches.md, "Identity"),
   * so a delete and re-create of a same-name branch between preparation and effects is caught.
   *
   * @param branchIdentity the branch's identity read with {@code state}
   */
  public static WriteToken capture(ManifestState state, String branch, String branchIdentity, String schemaIdentity) {
    return new WriteToken(branch, branchIdentity, state.headCommitId(branch), schemaIdentity);
  }

  /** What changed between the prepared token and a fresh one. */
  public enum Movement {
    /** Nothing: the attempt may run its effects. */
    NONE,
    /** The head moved (another write published); the attempt's reads are stale. */
    HEAD,
    /** The branch was replaced or the schema changed: preparation itself is invalid. */
    IDENTITY
  }

  /** @return how {@code fresh} differs from this prepared token */
  public Movement compare(WriteToken fresh) {
    if (!branch.equals(fresh.branch) || !branchIdentity.equals(fresh.branchIdentity) || !schemaIdentity.equals(fresh.schemaIdentity)) {
      return Movement.IDENTITY;
    }
    return head.equals(fresh.head) ? Movement.NONE : Movement.HEAD;
  }

  /** @return the typed ReadSetChanged conflict (409) describing how {@code fresh} differs from this token */
  public ConflictException readSetChanged(WriteToken fresh, String what) {
    if (!branch.equals(fresh.branch) || !branchIdentity.equals(fresh.branchIdentity)) {
      return new ConflictException(what + ": branch " + branch + " was replaced while it was prepared",
          new ErrorDetail.ReadSetConflict("branch_identifier:" + branch, branchIdentity, fresh.branchIdentity));
    }
    if (!schemaIdentity.equals(fresh.schemaIdentity)) {
      return new ConflictException(what + ": the schema changed while it was prepared",
          new ErrorDetail.ReadSetConflict("schema_ir_hash", schemaIdentity, fresh.schemaIdentity));
    }
    return new ConflictException(what + ": the graph head of " + branch + " moved from "
        + head.orElse("(none)") + " to " + fresh.head.orElse("(none)") + " while it was prepared; nothing was written",
        new ErrorDetail.ReadSetConflict("graph_head:" + branch, head.orElse(null), fresh.head.orElse(null)));
  }

  /**
   * Checks a caller-supplied head expectation ({@code --expect-head}); a mismatch is terminal,
   * never a re-prepare.
   *
   * @param expected the commit id the caller expects, or {@code null} for none
   * @throws PreconditionFailedException (412) when the head is anything else
   */
  public void requireHead(String expected) {
    if (expected != null && !head.equals(Optional.of(expected))) {
      throw new PreconditionFailedException("the head of " + branch + " is " + head.orElse("(none)")
          + ", not the expected " + expected + "; nothing was written",
          new ErrorDetail.PreconditionFailure(branch, expected, head.orElse(null)));
    }
  }

  /**
   * {@link #requireHead(String)}, except that automatic maintenance commits on top of
   * {@code expected} do not break it (docs/maintenance.md, "Automatic maintenance"): they change no
   * row, so "nothing changed since {@code expected}" still holds when only they came after it.
   *
   * @param state the manifest state this token was captured from (its lineage)
   * @throws PreconditionFailedException (412) when the head is anything else
   */
  public void requireHead(String expected, io.omnigraph.engine.manifest.ManifestState state) {
    if (expected == null || head.equals(Optional.of(expected))) {
      return;
    }
    Optional<io.omnigraph.engine.manifest.GraphCommit> c = head.flatMap(state::commit);
    while (c.isPresent() && io.omnigraph.api.MaintenancePolicy.COMMIT_MESSAGE.equals(c.get().message())
        && io.omnigraph.api.MaintenancePolicy.COMMIT_ACTOR.equals(c.get().actorId())) {
      String parent = c.get().parentCommitId();
      if (expected.equals(parent)) {
        return;
      }
      c = parent == null ? Optional.empty() : state.commit(parent);
    }
    requireHead(expected);
  }
}
