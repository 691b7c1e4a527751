package io.omnigraph.conformance;

import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The GCS adapter against the whole contract, loaded as a named module together with
 * google-cloud-storage and its dependencies as automatic modules (see {@link AdapterModules}),
 * against the in-repo emulator behind a FaultProxy.
 */
class GcsTckOnModulePathTest extends StorageAdapterContract {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();
  private static FaultProxy proxy;
  private static String bucket;

  @Override
  protected StorageTckBinding binding() {
    try {
      synchronized (GcsTckOnModulePathTest.class) {
        if (proxy == null) {
          proxy = FaultProxy.start(URI.create(gcs.emulator().baseUrl()));
          bucket = gcs.emulator().createBucket();
        }
      }
      return new GcsTckBinding(AdapterModules.onModulePath("gs"), gcs.emulator(), proxy, bucket);
    } catch (Exception e) {
      throw new AssertionError("cannot bind the 'gs' provider from the adapter layer", e);
    }
  }

  @AfterAll
  static void stopProxy() {
    if (proxy != null) {
      proxy.close();
      proxy = null;
    }
  }
}
