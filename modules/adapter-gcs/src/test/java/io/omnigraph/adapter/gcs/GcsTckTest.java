package io.omnigraph.adapter.gcs;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import java.net.URI;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The GCS adapter against the whole storage contract (docs/tck.md), loaded as the named module
 * under test and again from the class path, on the in-repo emulator: one bucket, a fresh prefix per
 * test, every request through a FaultProxy ({@code max-attempts=1}, so an emulator bug cannot hide
 * behind retries), residue written straight into the emulator. Pages of 100 entries.
 */
@ParameterizedClass
@EnumSource(AdapterPath.class)
class GcsTckTest extends StorageAdapterContract {
  @RegisterExtension static final GcsEmulatorExtension GCS = new GcsEmulatorExtension();
  private static final Map<AdapterPath, HttpStoreBinding> BINDINGS = new EnumMap<>(AdapterPath.class);
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    synchronized (BINDINGS) {
      if (!BINDINGS.containsKey(path)) {
        BINDINGS.put(path, bind(GCS.emulator()));
      }
      return BINDINGS.get(path);
    }
  }

  private HttpStoreBinding bind(GcsEmulator emulator) {
    String bucket = emulator.createBucket();
    try {
      var provider = path.provider("gs");
      return new HttpStoreBinding("gcs (" + path + ")", URI.create(emulator.baseUrl()), HttpDialects.gcs(1), proxy -> {
        String prefix = "tck-" + UUID.randomUUID();
        return new HttpStoreBinding.Root(provider.open(URI.create("gs://" + bucket + "/" + prefix),
            GcsAdapterOptions.atEndpoint(emulator, proxy, "max-attempts", "1", "list-page-size", "100")), bucket, prefix);
      }, emulator::putObject);
    } catch (Exception e) {
      throw new AssertionError("cannot bind the 'gs' provider " + path, e);
    }
  }

  @AfterAll
  static void closeProxies() {
    synchronized (BINDINGS) {
      BINDINGS.values().forEach(HttpStoreBinding::close);
      BINDINGS.clear();
    }
  }
}
