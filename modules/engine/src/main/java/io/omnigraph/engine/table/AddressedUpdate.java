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
    return commit(s, tableKey, write(allocator, s, rowAddress, rows));
  }

  /**
   * The files of a replacement, written and not committed: invisible to every reader until
   * {@link #commit}; never committed, they are unreferenced (reclaimable, or removed by the caller
   * through {@link #files}).
   *
   * @param readVersion the version the files were written against (the only one they commit on)
   * @param fragmentId the fragment that holds the replaced row
   * @param added the new fragment(s) holding the rows
   * @param after the replaced row's fragment with its new deletion file, or {@code null} when the
   *     row was the fragment's last one (the fragment is then removed)
   */
  public record Written(long readVersion, int fragmentId, List<FragmentMetadata> added, FragmentMetadata after) {
    public Written {
      added = List.copyOf(added);
    }

    /** @return the files this replacement wrote, relative to the dataset directory */
    public List<String> files() {
      List<String> out = new java.util.ArrayList<>();
      for (FragmentMetadata f : added) {
        f.getFiles().forEach(d -> out.add("data/" + d.getPath()));
      }
      if (after != null && after.getDeletionFile() != null) {
        org.lance.fragment.DeletionFile d = after.getDeletionFile();
        String ext = d.getFileType() == org.lance.fragment.DeletionFileType.BITMAP ? "bin" : "arrow";
        out.add("_deletions/" + after.getId() + "-" + d.getReadVersion() + "-" + Long.toUnsignedString(d.getId())
            + "." + ext);
      }
      return out;
    }
  }

  /**
   * Writes the files of a replacement (the rows' fragment, the replaced row's deletion file) without
   * committing them.
   *
   * @throws InternalErrorException the address names no fragment of the version
   */
  public static Written write(BufferAllocator allocator, TableSnapshot s, long rowAddress, VectorSchemaRoot rows) {
    int fragmentId = (int) (rowAddress >>> 32);
    int offset = (int) (rowAddress & 0xffffffffL);
    String uri = s.location().uri();
    return LanceCalls.lance(uri, "write", () -> {
      Fragment target = s.dataset().getFragments().stream().filter(f -> f.getId() == fragmentId).findFirst()
          .orElseThrow(() -> new InternalErrorException("row address " + rowAddress + " names fragment " + fragmentId
              + " which " + uri + " version " + s.version() + " does not have", null));
      List<FragmentMetadata> added = Fragment.write().datasetUri(uri).allocator(allocator).data(rows)
          .storageOptions(s.location().storageOptions()).execute();
      return new Written(s.version(), fragmentId, added, target.deleteRows(List.of(offset)));
    });
  }

  /**
   * Commits files {@link #write} wrote against {@code s}'s version, exactly at that version with
   * zero retries.
   *
   * @throws RetryableCommitConflict another commit updated that fragment first; nothing landed
   * @throws ConflictException the commit landed at another version than the snapshot's + 1
   * @throws InternalErrorException {@code w} was written against another version
   */
  public static Committed commit(TableSnapshot s, String tableKey, Written w) {
    if (w.readVersion() != s.version()) {
      throw new InternalErrorException("a replacement written against version " + w.readVersion() + " of " + tableKey
          + " cannot commit on version " + s.version(), null);
    }
    String uri = s.location().uri();
    Dataset out = LanceCalls.lance(uri, "write", () -> {
      Update op = Update.builder().removedFragmentIds(w.after() == null ? List.of((long) w.fragmentId()) : List.of())
          .updatedFragments(w.after() == null ? List.of() : List.of(w.after())).newFragments(w.added())
          .fieldsModified(new long[0])
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
