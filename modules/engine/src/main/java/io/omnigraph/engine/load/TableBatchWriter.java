package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.TableSpec;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Where an {@code OVERWRITE} load's full batches go when they are written on a second thread while
 * the loader keeps reading ({@link GraphLoader#pipelinedBatchSink}). The engine writes each batch as
 * staged, uncommitted Lance fragments, exactly as with a synchronous {@link BatchSink}; nothing
 * becomes visible before the load's single commit, which happens only after every line, every
 * cross-row check and every batch write has completed.
 */
public interface TableBatchWriter {
  /**
   * Called on the loader's thread, once per table, before its first batch is handed to the writer
   * thread (so it may read the snapshot the load was prepared against).
   *
   * @param table the table whose batches follow
   * @return what writes them, on the writer thread
   */
  Sink open(TableSpec table);

  /** Writes one table's batches, one at a time, on the load's writer thread. */
  interface Sink {
    /**
     * @param batch rows with exactly {@code table.arrowSchema()}; closed by the pipeline when this
     *     returns, so it must not be kept
     */
    void write(VectorSchemaRoot batch);
  }
}
