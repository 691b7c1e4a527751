package io.omnigraph.engine.table;

import io.omnigraph.api.storage.LanceLocation;
import java.util.Map;
import java.util.Objects;
import org.lance.Dataset;

/**
 * An open Lance dataset pinned at one version. Obtained from {@link TableReader} (or a {@link TableWriter} commit); close it when done.
 * Other packages hold it as an opaque handle and read through {@link TableReader}.
 */
public final class TableSnapshot implements AutoCloseable {
  private final LanceLocation location;
  private final Dataset dataset;

  TableSnapshot(LanceLocation location, Dataset dataset) {
    this.location = Objects.requireNonNull(location);
    this.dataset = Objects.requireNonNull(dataset);
  }

  /** @return where the dataset lives */
  public LanceLocation location() {
    return location;
  }

  /** @return the pinned version */
  public long version() {
    return dataset.version();
  }

  /** @return the pinned version's identity (number and commit time), read from the open manifest without I/O */
  public VersionStamp stamp() {
    java.time.Instant at = dataset.getVersion().getDataTime().toInstant();
    return new VersionStamp(dataset.version(), at.getEpochSecond() * 1_000_000_000L + at.getNano());
  }

  /** @return the schema-level metadata of the pinned version */
  public Map<String, String> schemaMetadata() {
    Map<String, String> m = dataset.getSchema().getCustomMetadata();
    return m == null ? Map.of() : m;
  }

  Dataset dataset() {
    return dataset;
  }

  @Override
  public void close() {
    dataset.close();
  }
}
