package io.omnigraph.engine.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.StorageFailureException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spool of a first-touch overwrite load (docs/branches.md, "Lazy table forks"): batches come
 * back exactly and in order, the file lives in the configured directory and is gone after
 * {@link OverwriteSpool#close}, the size cap is a typed limit, and I/O failures are typed.
 */
class OverwriteSpoolTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Utf8()), null),
      new Field("n", FieldType.nullable(new ArrowType.Int(32, true)), null)));

  @TempDir Path dir;
  BufferAllocator alloc;

  @BeforeEach
  void init() {
    alloc = new RootAllocator();
    System.setProperty(OverwriteSpool.DIR_PROPERTY, dir.toString());
  }

  @AfterEach
  void close() {
    System.clearProperty(OverwriteSpool.DIR_PROPERTY);
    System.clearProperty(OverwriteSpool.MAX_BYTES_PROPERTY);
    alloc.close();
  }

  VectorSchemaRoot batch(int from, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    VarCharVector id = (VarCharVector) root.getVector("id");
    IntVector n = (IntVector) root.getVector("n");
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, ("k" + (from + i)).getBytes(StandardCharsets.UTF_8));
      if ((from + i) % 3 == 0) {
        n.setNull(i);
      } else {
        n.setSafe(i, from + i);
      }
    }
    root.setRowCount(rows);
    return root;
  }

  List<Path> files() throws Exception {
    try (var s = Files.list(dir)) {
      return s.toList();
    }
  }

  @Test
  void batchesComeBackExactlyAndInOrderAndTheFileIsRemovedOnClose() throws Exception {
    List<String> replayed = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    try (OverwriteSpool spool = OverwriteSpool.open("node:T", SCHEMA)) {
      for (int[] b : new int[][] {{0, 5}, {5, 1000}, {1005, 0}, {1005, 3}}) {
        try (VectorSchemaRoot r = batch(b[0], b[1])) {
          spool.write(r);
        }
      }
      spool.finish();
      assertThat(spool.rows()).isEqualTo(1008);
      assertThat(files()).containsExactly(spool.file());
      assertThat(spool.file().getFileName().toString()).startsWith("omnigraph-overwrite-").endsWith(".arrows");
      spool.replay(alloc, r -> {
        sizes.add(r.getRowCount());
        for (int i = 0; i < r.getRowCount(); i++) {
          IntVector n = (IntVector) r.getVector("n");
          replayed.add(r.getVector("id").getObject(i) + "=" + (n.isNull(i) ? "null" : n.get(i)));
        }
      });
    }
    assertThat(sizes).containsExactly(5, 1000, 0, 3);
    assertThat(replayed).hasSize(1008);
    assertThat(replayed.get(0)).isEqualTo("k0=null");
    assertThat(replayed.get(1)).isEqualTo("k1=1");
    assertThat(replayed.get(1007)).isEqualTo("k1007=1007");
    assertThat(files()).isEmpty();
    assertThat(alloc.getAllocatedMemory()).isZero();
  }

  @Test
  void aSpoolOverItsCapIsATypedLimit() throws Exception {
    System.setProperty(OverwriteSpool.MAX_BYTES_PROPERTY, "4096");
    try (OverwriteSpool spool = OverwriteSpool.open("node:T", SCHEMA); VectorSchemaRoot big = batch(0, 1000)) {
      assertThatThrownBy(() -> spool.write(big)).isInstanceOfSatisfying(ResourceLimitException.class, e -> {
        ErrorDetail.ResourceLimit d = (ErrorDetail.ResourceLimit) e.detail().orElseThrow();
        assertThat(d.resource()).isEqualTo(OverwriteSpool.RESOURCE);
        assertThat(d.limit()).isEqualTo(4096);
        assertThat(d.actual()).isGreaterThan(4096);
      });
    }
    assertThat(files()).isEmpty();
  }

  @Test
  void aSpoolDirectoryThatCannotBeWrittenIsATypedStorageFailure() {
    System.setProperty(OverwriteSpool.DIR_PROPERTY, dir.resolve("missing").toString());
    assertThatThrownBy(() -> OverwriteSpool.open("node:T", SCHEMA)).isInstanceOfSatisfying(
        StorageFailureException.class, e -> assertThat(e.detail().orElseThrow()).isInstanceOf(ErrorDetail.Storage.class));
  }
}
