package io.omnigraph.adapter.fs;

import io.omnigraph.conformance.AdapterPath;
import io.omnigraph.conformance.LocalDirectoryBinding;
import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fs adapter against the whole storage contract (docs/tck.md), loaded as the named module
 * under test and again from the class path: a fresh directory per test, faults at the adapter's
 * own I/O points, residue as the temp file an interrupted write leaves. Pages of 100 entries, so
 * the 1,000-child listing spans ten pages.
 */
@ParameterizedClass
@EnumSource(AdapterPath.class)
class FsTckTest extends StorageAdapterContract {
  @Parameter AdapterPath path;

  @Override
  protected StorageTckBinding binding() {
    try {
      return new LocalDirectoryBinding("fs (" + path + ")", path.provider("file"), Path.of("target/tck-fs"),
          Map.of("list-page-size", "100"));
    } catch (Exception e) {
      throw new AssertionError("cannot load the 'file' provider " + path, e);
    }
  }
}
