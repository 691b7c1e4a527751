package io.omnigraph.testkit.lance;

import io.omnigraph.api.storage.LanceLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Session;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * The Lance smoke test every storage backend runs: lance-core writes a {@value #ROWS}-row dataset
 * using only what {@code StorageAdapter.lanceLocation(path)} returned (the dataset URI and the
 * storage options), then reopens it in a fresh {@link Session} — nothing comes from the writer's
 * caches — and reads every row back. Backend tests assert the result and add what is particular
 * to their store (where the files landed, which API Lance spoke).
 *
 * <p>Lance's jars are not modules, so callers run on the class path (their own Surefire
 * execution) with {@code --add-opens=java.base/java.nio=ALL-UNNAMED}; Lance extracts its native
 * library into {@code java.io.tmpdir}, which this class creates if it is missing.
 */
public final class LanceSmoke {
  /** Rows written: {@code id = "p0000" .. "p0999"}, {@code n = 7 * index}. */
  public static final int ROWS = 1_000;

  private static final int BATCH = 300;
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));

  static {
    tmpDir();
  }

  private LanceSmoke() {}

  /**
   * Creates {@code java.io.tmpdir} if it is missing (the smoke executions point it at a folder
   * under {@code target/}). Lance extracts its native library there, and JUnit's {@code @TempDir}
   * creates its folders there too, so a test class with a {@code @TempDir} field calls this from
   * its static initializer.
   *
   * @return the directory
   */
  public static Path tmpDir() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try {
      return Files.createDirectories(tmp);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create java.io.tmpdir " + tmp, e);
    }
  }

  /**
   * One row of the smoke dataset.
   *
   * @param id {@code p0000} .. {@code p0999}
   * @param n seven times the row's index
   */
  public record Row(String id, long n) {}

  /**
   * What a fresh reader saw.
   *
   * @param version the dataset version it opened
   * @param countRows the row count Lance reported
   * @param rows every row, in scan order
   */
  public record ReadBack(long version, long countRows, List<Row> rows) {}

  /** @return the rows {@link #write} writes, in index order */
  public static List<Row> expectedRows() {
    List<Row> rows = new ArrayList<>(ROWS);
    for (int i = 0; i < ROWS; i++) {
      rows.add(row(i));
    }
    return rows;
  }

  /**
   * Creates the dataset at {@code location} (in batches of {@value #BATCH} rows).
   *
   * @param location from the adapter under test
   * @return the row count of the dataset Lance wrote
   */
  public static long write(LanceLocation location) {
    try (BufferAllocator allocator = new RootAllocator();
        Rows rows = new Rows(allocator);
        Dataset written = Dataset.write().allocator(allocator).reader(rows).uri(location.uri())
            .mode(WriteParams.WriteMode.CREATE).storageOptions(location.storageOptions()).execute()) {
      return written.countRows();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Opens the dataset at {@code location} in a new session and scans it completely.
   *
   * @param location from the adapter under test
   * @return version, row count and rows as read
   */
  public static ReadBack reopenAndRead(LanceLocation location) {
    List<Row> rows = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        Session session = Session.create();
        Dataset reopened = Dataset.open().allocator(allocator).uri(location.uri()).session(session)
            .readOptions(new ReadOptions.Builder().setStorageOptions(location.storageOptions()).build()).build();
        LanceScanner scan = reopened.newScan(new ScanOptions.Builder().build());
        ArrowReader reader = scan.scanBatches()) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        VarCharVector id = (VarCharVector) root.getVector("id");
        BigIntVector n = (BigIntVector) root.getVector("n");
        for (int i = 0; i < root.getRowCount(); i++) {
          rows.add(new Row(new String(id.get(i), StandardCharsets.UTF_8), n.get(i)));
        }
      }
      return new ReadBack(reopened.version(), reopened.countRows(), rows);
    } catch (Exception e) {
      throw new IllegalStateException("reading back " + location.uri() + " failed", e);
    }
  }

  private static Row row(int i) {
    return new Row(String.format("p%04d", i), 7L * i);
  }

  /** Generates the rows in batches. */
  private static final class Rows extends ArrowReader {
    private int next;

    Rows(BufferAllocator allocator) {
      super(allocator);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next >= ROWS) {
        return false;
      }
      prepareLoadNextBatch();
      VectorSchemaRoot root = getVectorSchemaRoot();
      int count = Math.min(BATCH, ROWS - next);
      VarCharVector id = (VarCharVector) root.getVector("id");
      BigIntVector n = (BigIntVector) root.getVector("n");
      id.allocateNew(count);
      n.allocateNew(count);
      for (int i = 0; i < count; i++) {
        Row r = row(next + i);
        id.setSafe(i, r.id().getBytes(StandardCharsets.UTF_8));
        n.set(i, r.n());
      }
      id.setValueCount(count);
      n.setValueCount(count);
      root.setRowCount(count);
      next += count;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      // nothing to release: rows are generated
    }

    @Override
    protected Schema readSchema() {
      return SCHEMA;
    }
  }
}
