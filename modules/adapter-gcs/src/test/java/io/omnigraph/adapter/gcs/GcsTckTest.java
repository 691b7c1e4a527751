package io.omnigraph.adapter.gcs;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import io.omnigraph.testkit.gcs.GcsAdapterOptions;
import io.omnigraph.testkit.gcs.GcsEmulator;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import io.omnigraph.testkit.tck.HttpStoreBindings;
import java.net.URI;
import java.util.UUID;
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
  @RegisterExtension static final HttpStoreBindings BINDINGS = new HttpStoreBindings(GcsTckTest::bind);
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    return BINDINGS.of(path);
  }

  private static HttpStoreBinding bind(AdapterPath path) throws Exception {
    GcsEmulator emulator = GCS.emulator();
    String bucket = emulator.createBucket();
    var provider = path.provider("gs");
    return new HttpStoreBinding("gcs (" + path + ")", URI.create(emulator.baseUrl()), HttpDialects.gcs(1), proxy -> {
      String prefix = "tck-" + UUID.randomUUID();
      return new HttpStoreBinding.Root(provider.open(URI.create("gs://" + bucket + "/" + prefix),
          GcsAdapterOptions.atEndpoint(emulator, proxy, "max-attempts", "1", "list-page-size", "100")), bucket, prefix);
    }, emulator::putObject);
  }
}
