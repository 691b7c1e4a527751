package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import java.util.Optional;

/**
 * What a backend supplies to run the conformance suite: a fresh empty root per test and,
 * optionally, fault injection and temp-residue hooks. Tests that need a hook the binding does not
 * supply are reported as skipped, with the reason — never silently passed.
 *
 * <p>A binding is typically a few lines: extend {@code StorageAdapterContract} and return one of
 * these from {@code binding()}.
 */
public interface StorageTckBinding {

  /** @return a short backend name for reports, e.g. {@code fs} or {@code s3} */
  String name();

  /**
   * Opens a new, empty root that no other test uses. The suite checks that it is really empty and
   * fails the test if not. The suite closes the adapter after the test.
   */
  StorageAdapter openEmptyRoot() throws Exception;

  /**
   * Called after each test, once the suite has checked its faults and before it closes
   * {@code adapter}: remove what the test left under the root, if the binding wants to (for
   * example {@code adapter.deletePrefix("")}). The default keeps everything. A failure here fails
   * the test.
   */
  default void discardRoot(StorageAdapter adapter) throws Exception {}

  /**
   * @return a controller that makes the next matching storage request fail, or empty when this
   *     backend cannot inject faults. The controller acts on adapters opened by
   *     {@link #openEmptyRoot()} after it is armed.
   */
  default Optional<FaultController> faults() {
    return Optional.empty();
  }

  /**
   * @return a way to leave the residue of an interrupted write, or empty when the backend has no
   *     such residue (object stores write atomically without temp objects)
   */
  default Optional<ResidueMaker> residue() {
    return Optional.empty();
  }

  /** Leaves what a write that died half-way would leave behind. */
  interface ResidueMaker {
    /**
     * Leaves the residue of an interrupted write of {@code path} (for the file-system adapter, a
     * temp file {@code <path>#<digits>} with {@code partialBytes}) under {@code adapter}'s root.
     *
     * @return the residue's own root-relative name (e.g. {@code dir/x.json#4711})
     */
    String leaveResidue(StorageAdapter adapter, String path, byte[] partialBytes) throws Exception;
  }
}
