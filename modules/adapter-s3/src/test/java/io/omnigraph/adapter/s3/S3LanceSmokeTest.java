package io.omnigraph.adapter.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.s3.S3ProxyServer;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Lance (lance-core, Rust object_store inside) writes and reads a dataset in s3proxy using only
 * what {@link StorageAdapter#lanceLocation} returns: {@code s3://bucket/prefix/path} plus
 * {@code aws_endpoint}, {@code aws_allow_http}, {@code aws_region},
 * {@code aws_virtual_hosted_style_request=false} and the adapter's keys.
 *
 * <p>Runs on the class path (its own Surefire execution, see the pom): Lance's jars are not
 * modules (the package org.lance.namespace is split across two of them), Arrow needs java.nio
 * opened, and Lance extracts its native library into a dedicated tmpdir under target/.
 */
class S3LanceSmokeTest {
  static {
    // Lance extracts its native library into java.io.tmpdir (a dedicated folder under target/).
    try {
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    } catch (IOException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @RegisterExtension
  static final S3ProxyExtension S3 = new S3ProxyExtension();

  private static final int ROWS = 1_000;
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null), null),
      new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));

  @Test
  void lanceWritesReopensAndReadsBackAThousandRowsThroughTheAdaptersLocation() throws Exception {
    S3ProxyServer server = S3.server();
    String bucket = server.createBucket();
    try (StorageAdapter adapter = StorageAdapters.open(URI.create("s3://" + bucket + "/graph"),
            S3Fixture.options(server.endpoint()));
         BufferAllocator allocator = new RootAllocator()) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      assertThat(loc.uri()).isEqualTo("s3://" + bucket + "/graph/tables/person.lance");

      try (Dataset written = Dataset.write().allocator(allocator).reader(new Rows(allocator, ROWS, 300))
          .uri(loc.uri()).mode(WriteParams.WriteMode.CREATE).storageOptions(loc.storageOptions()).execute()) {
        assertThat(written.countRows()).isEqualTo(ROWS);
      }

      // Lance's files are visible to the adapter under the same root: same bucket, same prefix.
      assertThat(adapter.list("tables/person.lance/_versions").toList()).isNotEmpty();
      assertThat(adapter.list("tables/person.lance/data").toList()).isNotEmpty();

      try (Dataset reopened = Dataset.open(allocator, loc.uri(),
          new ReadOptions.Builder().setStorageOptions(loc.storageOptions()).build())) {
        assertThat(reopened.countRows()).isEqualTo(ROWS);
        List<String> ids = new ArrayList<>();
        long sum = 0;
        try (LanceScanner scanner = reopened.newScan(new ScanOptions.Builder().build());
             ArrowReader reader = scanner.scanBatches()) {
          while (reader.loadNextBatch()) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            VarCharVector id = (VarCharVector) root.getVector("id");
            BigIntVector n = (BigIntVector) root.getVector("n");
            for (int i = 0; i < root.getRowCount(); i++) {
              String key = new String(id.get(i), StandardCharsets.UTF_8);
              ids.add(key);
              assertThat(n.get(i)).as(key).isEqualTo(Long.parseLong(key.substring(1)) * 7);
              sum += n.get(i);
            }
          }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          expected.add(id(i));
        }
        assertThat(ids).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(sum).isEqualTo(7L * ROWS * (ROWS - 1) / 2);
      }
    }
  }

  static String id(int i) {
    return String.format("p%04d", i);
  }

  /** Generates {@code rows} rows ({@code id = p0000..}, {@code n = 7 * index}) in batches. */
  static final class Rows extends ArrowReader {
    private final int rows;
    private final int batch;
    private int next;

    Rows(BufferAllocator allocator, int rows, int batch) {
      super(allocator);
      this.rows = rows;
      this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next >= rows) {
        return false;
      }
      prepareLoadNextBatch();
      VectorSchemaRoot root = getVectorSchemaRoot();
      int count = Math.min(batch, rows - next);
      VarCharVector id = (VarCharVector) root.getVector("id");
      BigIntVector n = (BigIntVector) root.getVector("n");
      id.allocateNew(count);
      n.allocateNew(count);
      for (int i = 0; i < count; i++) {
        id.setSafe(i, id(next + i).getBytes(StandardCharsets.UTF_8));
        n.set(i, 7L * (next + i));
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
