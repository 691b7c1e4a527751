package io.omnigraph.conformance;

import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * A vendor's binding for the standalone runner, found with {@link java.util.ServiceLoader}: it lets
 * {@code omnigraph tck} and the runner jar run every test (faults and residue included) against the
 * vendor's real service, which a plain URI cannot offer. Put the provider's jar on the runner's
 * class path (or module path) and list the class in
 * {@code META-INF/services/io.omnigraph.conformance.TckBindingProvider} (or {@code provides} it in
 * {@code module-info.java}). Providers need a public no-argument constructor.
 *
 * <p>Without a provider for the URI's scheme the runner binds the URI itself: faults only through
 * an adapter's {@link io.omnigraph.api.storage.StorageIoHook}, residue only for local files — and
 * in strict mode (the default) every test it cannot run fails the certification.
 */
public interface TckBindingProvider {

  /** @return the URI schemes this provider binds, e.g. {@code s3} */
  Set<String> schemes();

  /**
   * Binds the suite below {@code runRoot}: every {@link StorageTckBinding#openEmptyRoot()} must
   * return an adapter on a fresh, empty sub-root of {@code runRoot} (the runner deletes
   * {@code runRoot} afterwards). If the returned binding is {@link AutoCloseable}, the runner closes
   * it after the run.
   *
   * @param runRoot the root of this run, {@code <uri>/tck-<time>-<random>}
   * @param options the adapter options the user gave ({@code --option key=value})
   */
  StorageTckBinding bind(URI runRoot, Map<String, String> options) throws Exception;
}
