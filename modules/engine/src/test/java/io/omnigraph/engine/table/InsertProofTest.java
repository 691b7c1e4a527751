package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableReader#proveInsertOnlyHistory}: the insertion-only history proof the merge's
 * proven-insert route stands on (docs/branches.md, "The proven-insert route"), read back from real
 * Lance transaction history, and {@link TableWriter#stageProvenInsert}, which stages without an id
 * probe.
 */
class InsertProofTest {
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

  InsertProof prove(long from, long to, long expectedRows) {
    try (TableSnapshot base = store.reader().openAt(loc, from); TableSnapshot source = store.reader().openAt(loc, to)) {
      return store.reader().proveInsertOnlyHistory("node:P", base, source, expectedRows);
    }
  }

  List<String> provenIds(long from, long to, long expectedRows) {
    List<String> ids = new ArrayList<>();
    try (TableSnapshot base = store.reader().openAt(loc, from); TableSnapshot source = store.reader().openAt(loc, to)) {
      InsertProof p = store.reader().proveInsertOnlyHistory("node:P", base, source, expectedRows);
      assertThat(p.refusal()).isNull();
      store.reader().scanProvenRows(p, 2, b -> {
        VarCharVector v = (VarCharVector) b.getVector("id");
        for (int i = 0; i < b.getRowCount(); i++) {
          ids.add(new String(v.get(i), StandardCharsets.UTF_8));
        }
      });
    }
    return ids;
  }

  @Test
  void aChainOfStrictInsertsAndAllNewUpsertsIsProvenAndYieldsExactlyItsRows() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    rows.commit(KeyedWriteMode.STRICT_INSERT, "c", 3, "d", 4, "e", 5);
    long end = rows.commit(KeyedWriteMode.UPSERT, "f", 6);
    InsertProof p = prove(base, end, 4);
    assertThat(p.proven()).isTrue();
    assertThat(p.rows()).isEqualTo(4);
    assertThat(provenIds(base, end, 4)).containsExactlyInAnyOrder("c", "d", "e", "f");
  }

  @Test
  void anUpsertOfAnExistingRowInTheIntervalIsAGap() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    rows.commit(KeyedWriteMode.STRICT_INSERT, "c", 3);
    // an upsert of a row the interval itself inserted: every base fragment is still there, the link is the gap
    long end = rows.commit(KeyedWriteMode.UPSERT, "c", 10, "d", 4);
    InsertProof p = prove(base, end, 2);
    assertThat(p.proven()).isFalse();
    assertThat(p.refusal()).contains("version " + end).contains("insert_absence");
    // an upsert of a base row rewrites a base fragment: refused too
    long later = rows.commit(KeyedWriteMode.UPSERT, "a", 10);
    assertThat(prove(base, later, 2).proven()).isFalse();
  }

  @Test
  void aDeleteInTheIntervalIsAGap() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    long end;
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      end = store.writer().commitStaged(s, store.writer().stageDelete(s, "node:P", LanceFilter.in("id", List.of("a")))
          .orElseThrow());
    }
    assertThat(prove(base, end, -1).refusal()).contains("insert_absence");
  }

  @Test
  void anIndexBuildInTheIntervalIsAGap() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      store.writer().commitStaged(s, store.writer().stageCreateIndices(s, "node:P",
          List.of(new IndexSpec.BTree("id", null))));
    }
    long end = rows.commit(KeyedWriteMode.STRICT_INSERT, "b", 2);
    assertThat(prove(base, end, 1).refusal()).contains("version " + (base + 1));
  }

  @Test
  void linksThatDoNotAddUpToTheEntityCountDeltaAreRefused() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    long end = rows.commit(KeyedWriteMode.STRICT_INSERT, "b", 2, "c", 3);
    assertThat(prove(base, end, 3).refusal()).contains("entity count");
    assertThat(prove(base, end, 2).proven()).isTrue();
  }

  @Test
  void anEmptyIntervalIsNoProof() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    assertThat(prove(base, base, 0).proven()).isFalse();
  }

  @Test
  void aProvenChunkIsStagedWithoutAnIdProbeAndCarriesANewCertificate() {
    long base = rows.commit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    long end = rows.commit(KeyedWriteMode.STRICT_INSERT, "b", 2);
    try (TableSnapshot b = store.reader().openAt(loc, base); TableSnapshot e = store.reader().openAt(loc, end);
        TableSnapshot head = store.reader().openLatest(loc); VectorSchemaRoot chunk = rows.rows("b", 2)) {
      InsertProof p = store.reader().proveInsertOnlyHistory("node:P", b, e, 1);
      // "b" is present at HEAD: a strict insert would refuse it; the proven writer does not look.
      // That is why the merge only admits a target still at the proof's base version.
      StagedWrite w = store.writer().stageProvenInsert(head, p, chunk);
      assertThat(w.insertAbsenceCertified()).isTrue();
      assertThat(w.readVersion()).isEqualTo(end);
    }
  }
}
