package io.omnigraph.conformance;

import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.gcs.GcsEmulatorExtension;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The GCS adapter against the whole contract with every jar on the class path (found through
 * META-INF/services),
 * against the in-repo emulator behind a FaultProxy.
 */
class GcsTckOnClassPathTest extends StorageAdapterContract {
  @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();
  private static FaultProxy proxy;
  private static String bucket;

  @Override
  protected StorageTckBinding binding() {
    try {
      synchronized (GcsTckOnClassPathTest.class) {
        if (proxy == null) {
          proxy = FaultProxy.start(URI.create(gcs.emulator().baseUrl()));
          bucket = gcs.emulator().createBucket();
        }
      }
      return new GcsTckBinding(AdapterModules.onClassPath("gs"), gcs.emulator(), proxy, bucket);
    } catch (Exception e) {
      throw new AssertionError("cannot bind the 'gs' provider on the class path", e);
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
