package io.omnigraph.adapter.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Session;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Lance reaches {@code gs://} through the adapter's {@link LanceLocation}: the Rust object_store
 * GCS client speaks the XML API to the in-repo emulator (service-account key with
 * {@code gcs_base_url} and {@code disable_oauth}). Runs on the class path (Lance has no module
 * descriptor), in its own Surefire execution.
 */
class GcsLanceSmokeTest {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();

  private static final int ROWS = 1_000;
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
      new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null)));

  /** One batch of {@link #ROWS} rows: id = "k<i>", n = i * 7. */
  private static final class Rows extends ArrowReader {
    private boolean done;

    Rows(BufferAllocator a) {
      super(a);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (done) {
        return false;
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      root.allocateNew();
      VarCharVector id = (VarCharVector) root.getVector("id");
      BigIntVector n = (BigIntVector) root.getVector("n");
      for (int i = 0; i < ROWS; i++) {
        id.setSafe(i, ("k" + i).getBytes(StandardCharsets.UTF_8));
        n.setSafe(i, i * 7L);
      }
      root.setRowCount(ROWS);
      done = true;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return SCHEMA;
    }
  }

  @Test
  void lanceWritesAThousandRowDatasetOnGsAndReadsItBackAfterReopening() throws Exception {
    String bucket = gcs.emulator().createBucket();
    try (StorageAdapter adapter = StorageAdapters.open("gs://" + bucket + "/graph",
            GcsStorageAdapterTest.emulatorOptions(gcs.emulator()));
        BufferAllocator allocator = new RootAllocator()) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      try (Rows rows = new Rows(allocator);
          Dataset written = Dataset.write().allocator(allocator).reader(rows).uri(loc.uri())
              .mode(WriteParams.WriteMode.CREATE).storageOptions(loc.storageOptions()).execute()) {
        assertThat(written.countRows()).isEqualTo(ROWS);
      }
      // object_store spoke the XML API (/{bucket}/{object}), not the JSON API.
      assertThat(gcs.emulator().requests()).anyMatch(r -> r.startsWith("PUT /") && !r.startsWith("PUT /upload/")
          && r.contains("/graph%2Ftables%2Fperson%2Elance%2F%5Fversions%2F"));
      // The data really is in the bucket, next to the adapter's own objects.
      assertThat(gcs.emulator().objectNames(bucket))
          .anyMatch(n -> n.startsWith("graph/tables/person.lance/_versions/"))
          .anyMatch(n -> n.startsWith("graph/tables/person.lance/data/"));
      adapter.put("manifest.json", "{}".getBytes(StandardCharsets.UTF_8), WriteCondition.ifAbsent());

      List<String> ids = new ArrayList<>();
      List<Long> ns = new ArrayList<>();
      gcs.emulator().clearRequests();
      // A fresh session, so nothing comes from the writer's in-process caches.
      try (Session session = Session.create();
          Dataset reopened = Dataset.open().allocator(allocator).uri(loc.uri()).session(session)
              .readOptions(new ReadOptions.Builder().setStorageOptions(loc.storageOptions()).build()).build();
          LanceScanner scan = reopened.newScan(new ScanOptions.Builder().build());
          ArrowReader r = scan.scanBatches()) {
        assertThat(reopened.countRows()).isEqualTo(ROWS);
        assertThat(reopened.version()).isEqualTo(1);
        while (r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          VarCharVector id = (VarCharVector) root.getVector("id");
          BigIntVector n = (BigIntVector) root.getVector("n");
          for (int i = 0; i < root.getRowCount(); i++) {
            ids.add(new String(id.get(i), StandardCharsets.UTF_8));
            ns.add(n.get(i));
          }
        }
      }
      assertThat(gcs.emulator().requests())
          .anyMatch(r -> r.startsWith("GET /") && r.contains("%2Fdata%2F"));
      assertThat(ids).hasSize(ROWS);
      for (int i = 0; i < ROWS; i++) {
        assertThat(ids.get(i)).isEqualTo("k" + i);
        assertThat(ns.get(i)).isEqualTo(i * 7L);
      }
      assertThat(adapter.list("").toList()).containsExactly("manifest.json");
    }
    assertThat(gcs.emulator().unsupportedRequests()).isEmpty();
  }
}
