package io.omnigraph.engine.write;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.engine.manifest.ManifestState;
import java.util.Objects;
import java.util.Optional;

/**
 * The optimistic-concurrency token of one write attempt (seed, "Mutation/load coarse OCC"; engine.md
 * 2.3): the target branch's identity, its exact graph head (absence is a value) and the accepted
 * schema identity, captured when the attempt is prepared and compared again inside the effect
 * window before any table HEAD moves.
 *
 * <p>Only {@code main} exists in this release and it is never deleted or recreated, so its branch
 * identity is the constant {@value #MAIN}; the schema identity is the handle's accepted IR hash,
 * fixed for the handle's lifetime because no schema change operation exists yet. Both are carried so
 * the comparison is the one place to extend.
 *
 * @param branchIdentity the target branch's identity
 * @param head the branch's exact graph head when the attempt was prepared (empty: no commit yet)
 * @param schemaIdentity the accepted schema identity (IR hash)
 */
public record WriteToken(String branchIdentity, Optional<String> head, String schemaIdentity) {
  /** The identity of the main branch. */
  public static final String MAIN = "main";

  public WriteToken {
    Objects.requireNonNull(branchIdentity);
    Objects.requireNonNull(head);
    Objects.requireNonNull(schemaIdentity);
  }

  /** Captures the token of main from a manifest state. */
  public static WriteToken capture(ManifestState state, String schemaIdentity) {
    return new WriteToken(MAIN, Optional.ofNullable(state.graphHeads().get(MAIN)), schemaIdentity);
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
    if (!branchIdentity.equals(fresh.branchIdentity) || !schemaIdentity.equals(fresh.schemaIdentity)) {
      return Movement.IDENTITY;
    }
    return head.equals(fresh.head) ? Movement.NONE : Movement.HEAD;
  }

  /** @return the typed ReadSetChanged conflict (409) describing how {@code fresh} differs from this token */
  public ConflictException readSetChanged(WriteToken fresh, String what) {
    if (!branchIdentity.equals(fresh.branchIdentity)) {
      return new ConflictException(what + ": branch " + branchIdentity + " was replaced while it was prepared",
          new ErrorDetail.ReadSetConflict("branch_identifier:" + branchIdentity, branchIdentity, fresh.branchIdentity));
    }
    if (!schemaIdentity.equals(fresh.schemaIdentity)) {
      return new ConflictException(what + ": the schema changed while it was prepared",
          new ErrorDetail.ReadSetConflict("schema_ir_hash", schemaIdentity, fresh.schemaIdentity));
    }
    return new ConflictException(what + ": the graph head of " + branchIdentity + " moved from "
        + head.orElse("(none)") + " to " + fresh.head.orElse("(none)") + " while it was prepared; nothing was written",
        new ErrorDetail.ReadSetConflict("graph_head:" + branchIdentity, head.orElse(null), fresh.head.orElse(null)));
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
      throw new PreconditionFailedException("the head of " + branchIdentity + " is " + head.orElse("(none)")
          + ", not the expected " + expected + "; nothing was written",
          new ErrorDetail.PreconditionFailure(branchIdentity, expected, head.orElse(null)));
    }
  }
}
