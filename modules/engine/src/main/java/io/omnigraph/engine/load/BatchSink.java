package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.TableSpec;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Receives full Arrow batches of a table while an {@code OVERWRITE} load is still being read, so the
 * loader's memory stays bounded by one batch per table. The engine writes each batch as staged,
 * uncommitted Lance fragments; nothing becomes visible before the load's single commit, and the
 * commit happens only after every line and every cross-row check has passed.
 */
@FunctionalInterface
public interface BatchSink {
  /**
   * Consumes one batch synchronously; the loader closes {@code batch} when this returns, so the
   * sink must not keep a reference to it.
   *
   * @param table the table the rows belong to
   * @param batch rows with exactly {@code table.arrowSchema()}
   */
  void write(TableSpec table, VectorSchemaRoot batch);
}
