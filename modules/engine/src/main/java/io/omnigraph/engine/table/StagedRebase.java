package io.omnigraph.engine.table;

import io.omnigraph.api.InternalErrorException;
import java.util.Objects;
import org.lance.operation.Operation;
import org.lance.operation.Update;

/**
 * Re-bases a staged insertion-only transaction onto a later version of its table (group commit,
 * docs/concurrency.md, "Group commit"): member j of a batch was staged against the published
 * version V like every write, and is committed at read version V + (j − 1), on top of the members
 * before it. Its data files are already written and stay as they are; only the Lance transaction is
 * rebuilt — the same insertion-only {@code Update} (Lance numbers the new fragments at commit), the
 * new read version, a pre-minted transaction UUID, and the insertion-absence certificate minted
 * again for that read version.
 *
 * <p>Why that certificate is still true is the caller's obligation, checked where the batch is
 * formed: the member's ids were probed absent at V, and every transaction between V and the new
 * read version inserts only ids disjoint from them. This class checks what it can see: the write is
 * a certified pure insertion on the same table, the new read version is not older, and the shape
 * certifies against the schema at the new read version (a schema that changed in between fails
 * closed).
 */
public final class StagedRebase {
  private StagedRebase() {}

  /**
   * @param staged a certified insertion-only staged write
   * @param onto the same table opened at the version to commit on ({@code >= staged.readVersion()})
   * @param uuid the pre-minted transaction UUID of the re-based transaction
   * @return the staged write to commit on {@code onto} with {@link TableWriter#commitStagedAndOpen}
   * @throws InternalErrorException the write is not a certified insertion, {@code onto} is another
   *     table or an older version, or the shape does not certify on {@code onto}'s schema; nothing
   *     was committed
   */
  public static StagedWrite rebase(StagedWrite staged, TableSnapshot onto, String uuid) {
    Objects.requireNonNull(staged, "staged");
    Objects.requireNonNull(onto, "onto");
    Objects.requireNonNull(uuid, "uuid");
    if (!rebaseable(staged)) {
      throw refused(staged, "it is not a certified insertion-only transaction");
    }
    if (!onto.location().uri().equals(staged.location().uri())) {
      throw refused(staged, "the target snapshot is table " + onto.location().uri());
    }
    if (onto.version() < staged.readVersion()) {
      throw refused(staged, "version " + onto.version() + " is older than its read version " + staged.readVersion());
    }
    Operation op = staged.operation();
    InsertAbsence.Certification cert = LanceCalls.lance(onto.location().uri(), "read", () -> InsertAbsence.certify(
        onto.dataset().getLanceSchema(), onto.version(), onto.version(), uuid, op, staged.rowsWritten()));
    if (!cert.certified()) {
      throw refused(staged, "its shape does not certify at version " + onto.version() + " (" + cert.refusal() + ")");
    }
    return new StagedWrite(staged.tableKey(), staged.location(), onto.version(), uuid, staged.kind(),
        staged.rowsWritten(), staged.ids(), op, cert.properties());
  }

  /**
   * @return whether {@code staged} may be re-based: a certified pure insertion (a strict insert or
   *     an all-new upsert) that removes and rewrites no fragment
   */
  public static boolean rebaseable(StagedWrite staged) {
    return (staged.kind() == StagedWrite.Kind.STRICT_INSERT || staged.kind() == StagedWrite.Kind.UPSERT)
        && staged.insertAbsenceCertified() && staged.operation() instanceof Update u
        && u.removedFragmentIds().isEmpty() && u.updatedFragments().isEmpty() && !u.newFragments().isEmpty();
  }

  private static InternalErrorException refused(StagedWrite staged, String why) {
    return new InternalErrorException("cannot re-base the staged write on " + staged.tableKey() + " (read version "
        + staged.readVersion() + "): " + why + "; nothing was committed", null);
  }
}
