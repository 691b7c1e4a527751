package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.gq.ColumnRef;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.testing.TableSamples;
import io.omnigraph.engine.write.KeyedWrites;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableStoreTest {
  private static final Schema SCHEMA = TableSamples.ID_N;

  @TempDir Path dir;
  TableStore store;
  LanceLocation loc;

  @BeforeEach
  void setUp() {
    store = new TableStore();
    loc = new LanceLocation(dir.resolve("t").toUri().toString(), Map.of());
    assertThat(store.writer().createTable(loc, "node:P", SCHEMA, List.of())).isEqualTo(1);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  VectorSchemaRoot rows(Object... idAndN) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, store.allocator());
    VarCharVector id = (VarCharVector) root.getVector("id");
    BigIntVector n = (BigIntVector) root.getVector("n");
    id.allocateNew();
    n.allocateNew();
    for (int i = 0; i < idAndN.length / 2; i++) {
      id.setSafe(i, ((String) idAndN[2 * i]).getBytes(StandardCharsets.UTF_8));
      n.setSafe(i, ((Number) idAndN[2 * i + 1]).longValue());
    }
    root.setRowCount(idAndN.length / 2);
    return root;
  }

  Map<String, Long> contents(long version) {
    Map<String, Long> out = new TreeMap<>();
    try (TableSnapshot s = store.reader().openAt(loc, version)) {
      store.reader().scan(s, null, null, r -> {
        for (int i = 0; i < r.getRowCount(); i++) {
          out.put(new String(((VarCharVector) r.getVector("id")).get(i), StandardCharsets.UTF_8),
              ((BigIntVector) r.getVector("n")).get(i));
        }
      });
    }
    return out;
  }

  long latest() {
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      return s.version();
    }
  }

  long commit(KeyedWriteMode mode, Object... rows) {
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows(rows)) {
      StagedWrite w = KeyedWrites.stage(store.writer(), s, "node:P", b, mode);
      return store.writer().commitStaged(s, w);
    }
  }

  @Test
  void aSharedHandleRemembersTheStampOfItsOwnVersionOnly() {
    long v2 = commit(KeyedWriteMode.UPSERT, "a", 1);
    long v3 = commit(KeyedWriteMode.UPSERT, "b", 2);
    for (long v : List.of(1L, v2, v3, v2, 1L)) {
      try (TableSnapshot own = store.reader().openAt(loc, v); TableSnapshot shared = store.reader().openShared(loc, v);
          TableSnapshot again = store.reader().openShared(loc, v)) {
        assertThat(shared.stamp()).isEqualTo(own.stamp()).isEqualTo(again.stamp());
        assertThat(shared.stamp().version()).isEqualTo(v);
      }
    }
    try (TableSnapshot a = store.reader().openShared(loc, v2); TableSnapshot b = store.reader().openShared(loc, v3)) {
      assertThat(a.stamp()).isNotEqualTo(b.stamp());
    }
  }

  @Test
  void stagingMovesNoHeadUntilCommit() {
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows("a", 1)) {
      StagedWrite w = store.writer().stageKeyedWrite(s, "node:P", b, KeyedWriteMode.STRICT_INSERT);
      assertThat(store.reader().latestVersion(s)).isEqualTo(1);
      assertThat(store.writer().commitStaged(s, w)).isEqualTo(2);
    }
    assertThat(contents(2)).containsExactlyEntriesOf(Map.of("a", 1L));
  }

  @Test
  void strictInsertOfExistingIdsIsAKeyConflictListingEveryExistingId() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    assertThatThrownBy(() -> commit(KeyedWriteMode.STRICT_INSERT, "c", 3, "b", 4, "a", 5))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.KeyConflict("node", "P", List.of("b", "a"))));
    assertThat(contents(latest())).containsOnlyKeys("a", "b");
  }

  @Test
  void strictInsertRejectsDuplicateIdsInTheBatch() {
    assertThatThrownBy(() -> commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "a", 2))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.getMessage()).contains("more than once"));
  }

  @Test
  void upsertReplacesExistingRowsAndLastRowInTheBatchWins() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    long v = commit(KeyedWriteMode.UPSERT, "b", 20, "c", 3, "b", 21);
    assertThat(contents(v)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 1L, "b", 21L, "c", 3L)));
  }

  /** {@code n <op> value} over the I64 column {@code n}, rendered by the one filter renderer. */
  static LanceFilter whereN(CompOp op, long value) {
    return LanceFilter.of(new RowFilter.Compare(new ColumnRef("n", new PropertyType.Scalar(ScalarKind.I64), true), op, value));
  }

  @Test
  void deleteStagesOnlyWhenRowsMatch() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2, "c", 3);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      assertThat(store.writer().stageDelete(s, "node:P", whereN(CompOp.GT, 100))).isEmpty();
      StagedWrite w = store.writer().stageDelete(s, "node:P", whereN(CompOp.GE, 2)).orElseThrow();
      assertThat(w.rowsWritten()).isEqualTo(2);
      assertThat(contents(store.writer().commitStaged(s, w))).containsOnlyKeys("a");
    }
  }

  @Test
  void zeroRowOverwriteIsAValidEmptyVersion() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      StagedWrite w = store.writer().stageOverwrite(s, "node:P", SCHEMA, List.of());
      long v = store.writer().commitStaged(s, w);
      assertThat(contents(v)).isEmpty();
      try (TableSnapshot after = store.reader().openAt(loc, v)) {
        assertThat(store.reader().countRows(after)).isZero();
      }
    }
  }

  @Test
  void overwriteReplacesEverything() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("x", 9); VectorSchemaRoot b2 = rows("y", 8)) {
      long v = store.writer().commitStaged(s, store.writer().stageOverwrite(s, "node:P", SCHEMA, List.of(b1, b2)));
      assertThat(contents(v)).containsOnlyKeys("x", "y");
    }
  }

  @Test
  void anOverwriteStagedBatchByBatchIsInvisibleUntilCommittedThenReplacesEverything() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      TableWriter.OverwriteStaging staging = store.writer().beginOverwrite(s, "node:P", SCHEMA);
      try (VectorSchemaRoot b1 = rows("x", 9)) {
        staging.write(b1);
      }
      try (VectorSchemaRoot b2 = rows("y", 8)) {
        staging.write(b2); // the first batch is already closed: its fragments were written at once
      }
      assertThat(staging.rows()).isEqualTo(2);
      assertThat(store.reader().latestVersion(s)).isEqualTo(s.version());
      StagedWrite w = staging.finish();
      try (VectorSchemaRoot late = rows("z", 1)) {
        assertThatThrownBy(() -> staging.write(late)).isInstanceOf(IllegalStateException.class);
      }
      long v = store.writer().commitStaged(s, w);
      assertThat(contents(v)).containsOnlyKeys("x", "y");
      try (TableSnapshot after = store.reader().openAt(loc, v)) {
        assertThat(store.reader().countRows(after)).isEqualTo(2);
      }
    }
  }

  @Test
  void aRebasedCommitIsAConflictNotASuccess() {
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 1); VectorSchemaRoot b2 = rows("b", 2)) {
      StagedWrite first = store.writer().stageKeyedWrite(s, "node:P", b1, KeyedWriteMode.STRICT_INSERT);
      StagedWrite second = store.writer().stageKeyedWrite(s, "node:P", b2, KeyedWriteMode.STRICT_INSERT);
      store.writer().commitStaged(s, first);
      // Lance rebases a second Append past the first even with zero retries; commitStaged must refuse it.
      assertThatThrownBy(() -> store.writer().commitStaged(s, second))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail()).contains(
              new ErrorDetail.ReadSetConflict("table_head:node:P", "2", "3")));
    }
  }

  @Test
  void anInsertRefusedByAConcurrentOverwriteIsRetryableAndLandsNothing() {
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 1); VectorSchemaRoot b2 = rows("b", 2)) {
      StagedWrite overwrite = store.writer().stageOverwrite(s, "node:P", SCHEMA, List.of(b1));
      StagedWrite insert = store.writer().stageKeyedWrite(s, "node:P", b2, KeyedWriteMode.STRICT_INSERT);
      long v = store.writer().commitStaged(s, overwrite);
      assertThatThrownBy(() -> store.writer().commitStaged(s, insert)).isInstanceOf(RetryableCommitConflict.class)
          .hasMessageContaining("incompatible");
      assertThat(latest()).isEqualTo(v);
      assertThat(contents(v)).containsOnlyKeys("a");
    }
  }

  @Test
  void competingUpsertsOfTheSameRowLetExactlyOneWin() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 10); VectorSchemaRoot b2 = rows("a", 20)) {
      StagedWrite first = store.writer().stageKeyedWrite(s, "node:P", b1, KeyedWriteMode.UPSERT);
      StagedWrite second = store.writer().stageKeyedWrite(s, "node:P", b2, KeyedWriteMode.UPSERT);
      long v = store.writer().commitStaged(s, first);
      assertThatThrownBy(() -> store.writer().commitStaged(s, second)).isInstanceOf(RetryableCommitConflict.class);
      assertThat(contents(latest())).containsExactlyEntriesOf(Map.of("a", 10L));
      assertThat(latest()).isEqualTo(v);
    }
  }

  @Test
  void keyedWritesAbove8192RowsAreRefusedBeforeAnyIo() {
    List<Object> many = new ArrayList<>();
    for (int i = 0; i < KeyedWrites.MAX_ROWS + 1; i++) {
      many.add("k" + i);
      many.add(i);
    }
    assertThatThrownBy(() -> commit(KeyedWriteMode.UPSERT, many.toArray()))
        .isInstanceOfSatisfying(ResourceLimitException.class, e -> assertThat(e.detail()).contains(
            new ErrorDetail.ResourceLimit("keyed write entities for node:P", 8192, 8193)));
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      assertThat(s.version()).isEqualTo(1);
    }
  }

  @Test
  void exactly8192RowsAreAccepted() {
    List<Object> many = new ArrayList<>();
    for (int i = 0; i < KeyedWrites.MAX_ROWS; i++) {
      many.add("k" + i);
      many.add(i);
    }
    assertThat(contents(commit(KeyedWriteMode.STRICT_INSERT, many.toArray()))).hasSize(8192);
  }

  @Test
  void mergeRowsOnKeyUpserts() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows("a", 5, "z", 6)) {
      long v = store.writer().mergeRowsOnKey(s, "__manifest", "id", b);
      assertThat(contents(v)).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 5L, "z", 6L)));
    }
  }

  @Test
  void concurrentMergesOnTheSameKeyAreRetryableConflicts() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 5); VectorSchemaRoot b2 = rows("a", 6)) {
      store.writer().mergeRowsOnKey(s, "__manifest", "id", b1);
      assertThatThrownBy(() -> store.writer().mergeRowsOnKey(s, "__manifest", "id", b2)).isInstanceOf(RetryableCommitConflict.class);
    }
  }

  /**
   * The manifest publish's route for a commit that replaces only the head row (AddressedUpdate):
   * it deletes that row by address and adds the new rows. Its compare-and-set is the merge-insert's:
   * of two commits on the same base that replace the same row — by address or by a merge-insert on
   * its key, in either order — Lance refuses the second and nothing of it lands.
   */
  /** @return the address of the row with {@code id} (fragment id in the high 32 bits) */
  long address(TableSnapshot s, String id) {
    Map<Integer, List<Integer>> at = store.reader().rowAddresses(s, TableReader.idFilterChunks(List.of(id)));
    assertThat(at).hasSize(1);
    Map.Entry<Integer, List<Integer>> e = at.entrySet().iterator().next();
    assertThat(e.getValue()).hasSize(1);
    return ((long) e.getKey() << 32) | e.getValue().get(0);
  }

  @Test
  void replacingARowByAddressIsRefusedWhenAnotherCommitReplacedItFirst() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 5); VectorSchemaRoot b2 = rows("a", 6)) {
      List<Long> at = List.of(address(s, "a"));
      AddressedUpdate.Committed first = AddressedUpdate.replaceRow(store.allocator(), s, "__manifest", at.get(0), b1);
      try (TableSnapshot out = first.snapshot()) {
        assertThat(out.version()).isEqualTo(s.version() + 1);
        assertThat(address(out, "a")).isEqualTo(first.addedRowsAddress());
      }
      assertThatThrownBy(() -> AddressedUpdate.replaceRow(store.allocator(), s, "__manifest", at.get(0), b2))
          .isInstanceOf(RetryableCommitConflict.class);
      assertThatThrownBy(() -> store.writer().mergeRowsOnKey(s, "__manifest", "id", b2))
          .isInstanceOf(RetryableCommitConflict.class);
    }
    assertThat(contents(latest())).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 5L, "b", 2L)));
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b1 = rows("a", 7); VectorSchemaRoot b2 = rows("a", 8)) {
      long at = address(s, "a");
      store.writer().mergeRowsOnKey(s, "__manifest", "id", b1);
      assertThatThrownBy(() -> AddressedUpdate.replaceRow(store.allocator(), s, "__manifest", at, b2))
          .isInstanceOf(RetryableCommitConflict.class);
    }
    assertThat(contents(latest())).containsExactlyEntriesOf(new TreeMap<>(Map.of("a", 7L, "b", 2L)));
  }

  @Test
  void creatingAnExistingTableIsAConflict() {
    assertThatThrownBy(() -> store.writer().createTable(loc, "node:P", SCHEMA, List.of())).isInstanceOf(ConflictException.class);
  }

  @Test
  void openingAMissingDatasetIsNotFound() {
    LanceLocation missing = new LanceLocation(dir.resolve("nope").toUri().toString(), Map.of());
    assertThatThrownBy(() -> store.reader().openLatest(missing)).isInstanceOf(NotFoundException.class);
    assertThat(store.reader().openLatestIfExists(missing)).isEmpty();
  }

  @Test
  void idFilterEscapesQuotes() {
    assertThat(LanceFilter.in("id", List.of("a", "o'brien")).sql()).isEqualTo("id IN ('a', 'o''brien')");
    commit(KeyedWriteMode.STRICT_INSERT, "o'brien", 1);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      assertThat(store.reader().existingIds(s, List.of("x", "o'brien"))).containsExactly("o'brien");
    }
  }

  @Test
  void createIndicesIsStagedAndVisibleOnlyAfterCommit() {
    commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      StagedWrite w = store.writer().stageCreateIndices(s, "node:P", List.of(new IndexSpec.BTree("id", null)));
      assertThat(store.reader().latestVersion(s)).isEqualTo(s.version());
      long v = store.writer().commitStaged(s, w);
      try (TableSnapshot after = store.reader().openAt(loc, v)) {
        assertThat(store.reader().indexNames(after)).contains("id_idx");
        assertThat(store.reader().existingIds(after, List.of("b", "zz"))).containsExactly("b");
      }
    }
  }
}
