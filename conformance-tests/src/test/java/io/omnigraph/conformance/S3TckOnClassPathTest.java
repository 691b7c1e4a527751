package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.s3.S3ProxyExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The S3 adapter against the whole contract, with every jar on the class path,
 * against s3proxy with faults through a FaultProxy.
 */
class S3TckOnClassPathTest extends StorageAdapterContract {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();
  private static S3TckBinding binding;

  @Override
  protected StorageTckBinding binding() {
    synchronized (S3TckOnClassPathTest.class) {
      if (binding == null) {
        try {
          binding = new S3TckBinding(AdapterModules.onClassPath("s3"), S3.server());
        } catch (Exception e) {
          throw new AssertionError("cannot bind the 's3' provider from the class path", e);
        }
      }
      return binding;
    }
  }

  @AfterAll
  static void closeProxy() {
    synchronized (S3TckOnClassPathTest.class) {
      if (binding != null) {
        assertThat(binding.proxyProblems()).as("fault proxy failures").isEmpty();
        binding.close();
        binding = null;
      }
    }
  }
}
