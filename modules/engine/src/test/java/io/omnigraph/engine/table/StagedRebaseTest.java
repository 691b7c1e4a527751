package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.storage.LanceLocation;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-basing a staged insertion-only transaction (group commit's chain, docs/concurrency.md): two
 * writes staged against the same version commit one after the other as a chain, each its own
 * Lance version with its own pre-minted transaction and a valid insertion-absence certificate.
 * Every assertion reads the table and its transaction history back from real Lance.
 */
class StagedRebaseTest {
  @TempDir Path dir;
  TableStore store;
  LanceLocation loc;
  TableStoreTest rows;

  @BeforeEach
  void setUp() {
    rows = new TableStoreTest();
    rows.dir = dir;
    rows.setUp();
    store = rows.store;
    loc = rows.loc;
  }

  @AfterEach
  void tearDown() {
    rows.tearDown();
  }

  StagedWrite stage(TableSnapshot s, KeyedWriteMode mode, Object... idAndN) {
    try (VectorSchemaRoot b = rows.rows(idAndN)) {
      return store.writer().stageKeyedWrite(s, "node:P", b, mode);
    }
  }

  @Test
  void twoWritesStagedOnOneVersionCommitAsAChainEachWithItsOwnCertifiedTransaction() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "seed", 0);
    String uuid2 = UUID.randomUUID().toString();
    long second;
    try (TableSnapshot v = store.reader().openAt(loc, base)) {
      StagedWrite a = stage(v, KeyedWriteMode.STRICT_INSERT, "a", 1);
      StagedWrite b = stage(v, KeyedWriteMode.UPSERT, "b", 2, "c", 3); // an all-new upsert
      assertThat(StagedRebase.rebaseable(a)).isTrue();
      assertThat(StagedRebase.rebaseable(b)).isTrue();
      try (TableSnapshot afterA = store.writer().commitStagedAndOpen(v, a)) {
        assertThat(afterA.version()).isEqualTo(base + 1);
        StagedWrite rebased = StagedRebase.rebase(b, afterA, uuid2);
        assertThat(rebased.readVersion()).isEqualTo(base + 1);
        assertThat(rebased.insertAbsenceCertified()).isTrue();
        try (TableSnapshot afterB = store.writer().commitStagedAndOpen(afterA, rebased)) {
          second = afterB.version();
        }
      }
    }
    assertThat(second).isEqualTo(base + 2);
    assertThat(rows.contents(base + 1)).containsOnlyKeys("seed", "a");
    assertThat(rows.contents(second)).containsOnlyKeys("seed", "a", "b", "c");
    CommittedTransaction tx = store.reader().transactionAt(loc, second).orElseThrow();
    assertThat(tx.readVersion()).isEqualTo(base + 1);
    assertThat(tx.uuid()).isEqualTo(uuid2);
    try (TableSnapshot s = store.reader().openAt(loc, second)) {
      assertThat(store.reader().transactionProperties(s)).containsEntry(InsertAbsence.PROPERTY, InsertAbsence.V1);
    }
    // The chain is a proven insertion-only interval: each link certified against its own parent.
    try (TableSnapshot from = store.reader().openAt(loc, base); TableSnapshot to = store.reader().openAt(loc, second)) {
      InsertProof proof = store.reader().proveInsertOnlyHistory("node:P", from, to, 3);
      assertThat(proof.proven()).as(proof.refusal()).isTrue();
    }
  }

  @Test
  void aWriteThatRemovesOrRewritesRowsIsNeverRebased() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot v = store.reader().openAt(loc, base)) {
      StagedWrite mixed = stage(v, KeyedWriteMode.UPSERT, "a", 10, "b", 2);
      StagedWrite delete = store.writer().stageDelete(v, "node:P", LanceFilter.in("id", java.util.List.of("a")))
          .orElseThrow();
      assertThat(StagedRebase.rebaseable(mixed)).isFalse();
      assertThat(StagedRebase.rebaseable(delete)).isFalse();
      assertThatThrownBy(() -> StagedRebase.rebase(mixed, v, UUID.randomUUID().toString()))
          .isInstanceOf(InternalErrorException.class).hasMessageContaining("not a certified insertion-only");
    }
    assertThat(rows.latest()).isEqualTo(base);
  }

  @Test
  void aRebaseOntoAnOlderVersionIsRefused() {
    long v1 = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    long v2 = rows.commit(KeyedWriteMode.STRICT_INSERT, "b", 2);
    try (TableSnapshot at2 = store.reader().openAt(loc, v2); TableSnapshot at1 = store.reader().openAt(loc, v1)) {
      StagedWrite c = stage(at2, KeyedWriteMode.STRICT_INSERT, "c", 3);
      assertThatThrownBy(() -> StagedRebase.rebase(c, at1, UUID.randomUUID().toString()))
          .isInstanceOf(InternalErrorException.class).hasMessageContaining("older than its read version");
    }
  }
}
