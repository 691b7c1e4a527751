package io.omnigraph.engine.table;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.operation.Update;

/**
 * One Lance {@code Update} that replaces ONE row whose address the caller knows and adds new rows,
 * without reading any data (docs/write-protocol.md, "7. Publish"): the manifest publisher's route
 * when the only existing row its commit replaces is the branch's {@code graph_head} row, whose
 * address it learned from its previous publish. A merge-insert would find that row by joining on the
 * key over every fragment and deletion file of the version (one GET each); here the row is deleted
 * by address (a new deletion file of its fragment) and the rows are written as one new fragment.
 *
 * <p>Concurrency is the merge-insert's: the transaction is committed exactly at the snapshot's
 * version with zero retries, and it updates the fragment that holds the replaced row. Every other
 * publish of the same branch replaces the same row, so it updates the same fragment, and a
 * compaction rewrites it: Lance refuses the second of two such commits (a retryable conflict) and
 * nothing of it lands.
 */
public final class AddressedUpdate {
  private AddressedUpdate() {}

  /**
   * A committed replacement.
   *
   * @param snapshot the handle Lance returned for the committed version (the caller closes or keeps it)
   * @param addedRowsAddress the address of the first added row at that version (fragment id in the
   *     high 32 bits, offset 0), or -1 when the rows did not land in exactly one new fragment
   */
  public record Committed(TableSnapshot snapshot, long addedRowsAddress) {}

  /**
   * Commits: delete the row at {@code rowAddress} of {@code s}'s version, add {@code rows} (one
   * small batch: one new fragment, rows in order).
   *
   * @param allocator the store's allocator (the fragment is written from {@code rows})
   * @param tableKey names the table in errors
   * @throws RetryableCommitConflict another commit updated that fragment first; nothing landed
   * @throws ConflictException the commit landed at another version than the snapshot's + 1
   * @throws InternalErrorException the address names no fragment of the version
   */
  public static Committed replaceRow(BufferAllocator allocator, TableSnapshot s, String tableKey,
      long rowAddress, VectorSchemaRoot rows) {
    int fragmentId = (int) (rowAddress >>> 32);
    int offset = (int) (rowAddress & 0xffffffffL);
    String uri = s.location().uri();
    Dataset out = LanceCalls.lance(uri, "write", () -> {
      Fragment target = s.dataset().getFragments().stream().filter(f -> f.getId() == fragmentId).findFirst()
          .orElseThrow(() -> new InternalErrorException("row address " + rowAddress + " names fragment " + fragmentId
              + " which " + uri + " version " + s.version() + " does not have", null));
      List<FragmentMetadata> added = Fragment.write().datasetUri(uri).allocator(allocator).data(rows)
          .storageOptions(s.location().storageOptions()).execute();
      FragmentMetadata after = target.deleteRows(List.of(offset));
      Update op = Update.builder().removedFragmentIds(after == null ? List.of((long) fragmentId) : List.of())
          .updatedFragments(after == null ? List.of() : List.of(after)).newFragments(added).fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(InsertAbsence.fieldPreorder(s.dataset().getLanceSchema()))
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      try (Transaction tx = new Transaction.Builder().readVersion(s.version()).uuid(UUID.randomUUID().toString())
          .operation(op).build()) {
        return new CommitBuilder(s.dataset()).writeParams(s.location().storageOptions()).maxRetries(0)
            .skipAutoCleanup(true).execute(tx);
      } catch (RuntimeException e) {
        throw LanceErrors.commitFailure(tableKey, e);
      }
    });
    TableSnapshot committed = new TableSnapshot(s.location(), out);
    if (committed.version() != s.version() + 1) {
      committed.close();
      throw new ConflictException(tableKey + " update landed at version " + committed.version() + " instead of "
          + (s.version() + 1), new ErrorDetail.ReadSetConflict("table_head:" + tableKey,
              Long.toString(s.version() + 1), Long.toString(committed.version())));
    }
    Set<Integer> before = new HashSet<>();
    s.dataset().getFragments().forEach(f -> before.add(f.getId()));
    List<Integer> fresh = out.getFragments().stream().map(Fragment::getId).filter(id -> !before.contains(id)).toList();
    return new Committed(committed, fresh.size() == 1 ? ((long) fresh.get(0)) << 32 : -1);
  }
}
