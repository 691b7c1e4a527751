package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;

/** Proves the build's JPMS setup: the engine is a named module and Lance works from it. */
class LanceModuleSetupTest {

  @Test
  void engineAndLanceRunAsNamedModules() {
    assertThat(LanceRuntime.class.getModule().getName()).isEqualTo("io.omnigraph.engine");
    assertThat(Dataset.class.getModule().getName()).isEqualTo("lance.core");
  }

  @Test
  void theSplitNamespacePackageResolvesInsideLanceCore() throws Exception {
    // org.lance.namespace is split between lance-core and lance-namespace-core; without the
    // --patch-module in the surefire argLine the second half is invisible and this load fails.
    Class<?> c = Class.forName("org.lance.namespace.LanceNamespace", false, Dataset.class.getClassLoader());
    assertThat(c.getModule().getName()).isEqualTo("lance.core");
  }

  @Test
  void nativeLanceWritesAndReadsADataset(@TempDir Path dir) {
    LanceRuntime.prepare();
    String uri = dir.resolve("t").toUri().toString();
    try (BufferAllocator a = new RootAllocator()) {
      Field id = new Field("id", new FieldType(false, ArrowType.Utf8.INSTANCE, null,
          Map.of("lance-schema:unenforced-primary-key", "true")), null);
      Schema schema = new Schema(List.of(id));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, a)) {
        VarCharVector v = (VarCharVector) root.getVector("id");
        v.allocateNew();
        v.setSafe(0, "a".getBytes());
        v.setSafe(1, "b".getBytes());
        root.setRowCount(2);
        List<FragmentMetadata> f = Fragment.write().datasetUri(uri).allocator(a).data(root).execute();
        try (Dataset ds = Dataset.commit(a, uri, new FragmentOperation.Overwrite(f, schema), Optional.empty())) {
          assertThat(ds.countRows()).isEqualTo(2);
        }
      }
    }
  }

  @Test
  void sweepDeletesOnlyStaleNativeCopies(@TempDir Path dir) throws Exception {
    Path stale = Files.writeString(dir.resolve("liblance_jni123.so"), "x");
    Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(3600)));
    Path fresh = Files.writeString(dir.resolve("liblance_jni456.so"), "y");
    Path other = Files.writeString(dir.resolve("unrelated.so"), "z");
    Files.setLastModifiedTime(other, FileTime.from(Instant.now().minusSeconds(3600)));

    List<Path> deleted = LanceRuntime.sweepStaleNativeCopies(dir, Instant.now().minus(LanceRuntime.STALE_AFTER));

    assertThat(deleted).containsExactly(stale);
    assertThat(fresh).exists();
    assertThat(other).exists();
    assertThat(stale).doesNotExist();
  }

  @Test
  void tmpdirIsTheDedicatedBuildDirectory() {
    assertThat(System.getProperty("java.io.tmpdir")).endsWith("lance-tmp");
    LanceRuntime.prepare();
    assertThat(Path.of(System.getProperty("java.io.tmpdir"))).isDirectory();
  }
}
