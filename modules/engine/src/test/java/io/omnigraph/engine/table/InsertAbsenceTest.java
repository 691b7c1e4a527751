package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.testing.TableSamples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.operation.Append;
import org.lance.operation.Update;

/**
 * The insertion-absence certificate ({@code omnigraph.insert_absence = "v1"}) as Lance transaction
 * history records it: every assertion reads the committed transaction back from the dataset.
 */
class InsertAbsenceTest {
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

  /** @return the properties of the transaction that produced {@code version}, read from Lance history */
  Map<String, String> history(long version) {
    try (TableSnapshot s = store.reader().openAt(loc, version)) {
      return store.reader().transactionProperties(s);
    }
  }

  long stageAndCommit(KeyedWriteMode mode, Object... idAndN) {
    return rows.commit(mode, idAndN);
  }

  @Test
  void strictInsertCarriesTheCertificateInTransactionHistory() {
    long v1 = stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    long v2 = stageAndCommit(KeyedWriteMode.STRICT_INSERT, "c", 3);
    assertThat(history(v1)).containsEntry(InsertAbsence.PROPERTY, InsertAbsence.V1);
    assertThat(history(v2)).containsEntry(InsertAbsence.PROPERTY, InsertAbsence.V1);
    assertThat(rows.contents(v2)).containsOnlyKeys("a", "b", "c");
  }

  @Test
  void theCertificateIsBoundToTheCommittedTransactionAndItsParent() {
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows.rows("a", 1)) {
      StagedWrite w = store.writer().stageKeyedWrite(s, "node:P", b, KeyedWriteMode.STRICT_INSERT);
      assertThat(w.insertAbsenceCertified()).isTrue();
      assertThat(w.operation()).isInstanceOf(Update.class);
      long v = store.writer().commitStaged(s, w);
      try (TableSnapshot after = store.reader().openAt(loc, v)) {
        var tx = after.dataset().readTransaction().orElseThrow();
        assertThat(tx.uuid()).isEqualTo(w.uuid());
        assertThat(tx.readVersion()).isEqualTo(s.version());
        assertThat(tx.operation()).isInstanceOf(Update.class);
        tx.close();
      }
    }
  }

  @Test
  void allNewUpsertIsCertified() {
    stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    long v = stageAndCommit(KeyedWriteMode.UPSERT, "b", 2, "c", 3);
    assertThat(history(v)).containsEntry(InsertAbsence.PROPERTY, InsertAbsence.V1);
  }

  @Test
  void mixedUpsertIsNeverCertified() {
    stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    long mixed = stageAndCommit(KeyedWriteMode.UPSERT, "a", 10, "b", 2);
    long updateOnly = stageAndCommit(KeyedWriteMode.UPSERT, "b", 20);
    assertThat(history(mixed)).doesNotContainKey(InsertAbsence.PROPERTY);
    assertThat(history(updateOnly)).doesNotContainKey(InsertAbsence.PROPERTY);
    assertThat(rows.contents(updateOnly)).containsEntry("a", 10L).containsEntry("b", 20L);
  }

  @Test
  void deletesAndOverwritesAreNeverCertified() {
    stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    long deleted;
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      deleted = store.writer().commitStaged(s, store.writer().stageDelete(s, "node:P", LanceFilter.in("id", List.of("a"))).orElseThrow());
    }
    long overwritten;
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows.rows("z", 9)) {
      overwritten = store.writer().commitStaged(s, store.writer().stageOverwrite(s, "node:P", TableSamples.ID_N, List.of(b)));
    }
    assertThat(history(deleted)).doesNotContainKey(InsertAbsence.PROPERTY);
    assertThat(history(overwritten)).doesNotContainKey(InsertAbsence.PROPERTY);
  }

  @Test
  void anExistingIndexDoesNotClaimTheInsertedFragments() {
    stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1, "b", 2);
    try (TableSnapshot s = store.reader().openLatest(loc)) {
      store.writer().commitStaged(s, store.writer().stageCreateIndices(s, "node:P", List.of(new IndexSpec.BTree("id", null))));
    }
    long v = stageAndCommit(KeyedWriteMode.STRICT_INSERT, "c", 3);
    try (TableSnapshot s = store.reader().openAt(loc, v)) {
      assertThat(store.reader().indexNames(s)).contains("id_idx");
      // An index wrongly covering the new fragment would answer this lookup from index data that lacks "c".
      assertThat(store.reader().existingIds(s, List.of("a", "c", "zz"))).containsExactly("a", "c");
      assertThat(store.reader().countRows(s)).isEqualTo(3);
    }
  }

  @Test
  void fieldPreorderListsNestedFieldsParentFirst() {
    Schema nested = new Schema(List.of(
        new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
            Map.of("lance-schema:unenforced-primary-key", "true")), null),
        new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(new Field("item", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))),
        new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    LanceLocation nestedLoc = new LanceLocation(dir.resolve("nested").toUri().toString(), Map.of());
    store.writer().createTable(nestedLoc, "node:N", nested, List.of());
    try (TableSnapshot s = store.reader().openLatest(nestedLoc); VectorSchemaRoot b = VectorSchemaRoot.create(nested, store.allocator())) {
      long[] preorder = InsertAbsence.fieldPreorder(s.dataset().getLanceSchema());
      assertThat(preorder).hasSize(4);
      var tags = s.dataset().getLanceSchema().fields().get(1);
      int tagsAt = indexOf(preorder, tags.getId());
      assertThat(preorder[tagsAt + 1]).isEqualTo(tags.getChildren().get(0).getId());

      ((VarCharVector) b.getVector("id")).setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
      ListVector list = (ListVector) b.getVector("tags");
      list.startNewValue(0);
      ((VarCharVector) list.getDataVector()).setSafe(0, "t".getBytes(StandardCharsets.UTF_8));
      list.endValue(0, 1);
      b.setRowCount(1);
      StagedWrite w = store.writer().stageKeyedWrite(s, "node:N", b, KeyedWriteMode.STRICT_INSERT);
      assertThat(((Update) w.operation()).fieldsForPreservingFragBitmap()).containsExactly(preorder);
      long v = store.writer().commitStaged(s, w);
      try (TableSnapshot after = store.reader().openAt(nestedLoc, v)) {
        assertThat(store.reader().transactionProperties(after)).containsEntry(InsertAbsence.PROPERTY, InsertAbsence.V1);
      }
    }
  }

  private static int indexOf(long[] a, long v) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == v) {
        return i;
      }
    }
    throw new AssertionError(v + " not in preorder");
  }

  @Test
  void certifyRefusesEveryShapeThatIsNotAPureInsertion() {
    stageAndCommit(KeyedWriteMode.STRICT_INSERT, "a", 1);
    try (TableSnapshot s = store.reader().openLatest(loc); VectorSchemaRoot b = rows.rows("b", 2)) {
      var schema = s.dataset().getLanceSchema();
      Update good = (Update) store.writer().stageKeyedWrite(s, "node:P", b, KeyedWriteMode.STRICT_INSERT).operation();
      long v = s.version();
      assertThat(InsertAbsence.certify(schema, v, v, "u", good, 1).certified()).isTrue();
      assertThat(InsertAbsence.certify(schema, v, v - 1, "u", good, 1).refusal()).contains("read version");
      assertThat(InsertAbsence.certify(schema, v, v, "", good, 1).refusal()).contains("transaction id");
      assertThat(InsertAbsence.certify(schema, v, v, "u", good, 2).refusal()).contains("rows");
      assertThat(InsertAbsence.certify(schema, v, v, "u",
          Append.builder().fragments(good.newFragments()).build(), 1).refusal()).contains("not Update");
      Update removing = Update.builder().removedFragmentIds(List.of(0L)).updatedFragments(List.of())
          .newFragments(good.newFragments()).fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(good.fieldsForPreservingFragBitmap())
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      assertThat(InsertAbsence.certify(schema, v, v, "u", removing, 1).refusal()).contains("removes");
      Update columns = Update.builder().removedFragmentIds(List.of()).updatedFragments(List.of())
          .newFragments(good.newFragments()).fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(good.fieldsForPreservingFragBitmap())
          .updateMode(Optional.of(Update.UpdateMode.RewriteColumns)).build();
      assertThat(InsertAbsence.certify(schema, v, v, "u", columns, 1).refusal()).contains("RewriteRows");
      Update modifying = Update.builder().removedFragmentIds(List.of()).updatedFragments(List.of())
          .newFragments(good.newFragments()).fieldsModified(new long[] {1})
          .fieldsForPreservingFragBitmap(good.fieldsForPreservingFragBitmap())
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      assertThat(InsertAbsence.certify(schema, v, v, "u", modifying, 1).refusal()).contains("modifies");
      Update partialPreorder = Update.builder().removedFragmentIds(List.of()).updatedFragments(List.of())
          .newFragments(good.newFragments()).fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(new long[] {0})
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      assertThat(InsertAbsence.certify(schema, v, v, "u", partialPreorder, 1).refusal()).contains("preorder");
      Update empty = Update.builder().removedFragmentIds(List.of()).updatedFragments(List.of())
          .newFragments(List.of()).fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(good.fieldsForPreservingFragBitmap())
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
      assertThat(InsertAbsence.certify(schema, v, v, "u", empty, 1).refusal()).contains("no fragment");
    }
  }
}
