package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.TableSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The pipelined {@link BatchSink} of an {@code OVERWRITE} load (docs/ndjson-format.md, "Streaming
 * and memory"): the loader's thread keeps reading and validating the next rows while one writer
 * thread writes the previous full batch as staged Lance fragments — on two cores, parsing and the
 * fragment writes run at once.
 *
 * <ul>
 *   <li><b>Bounded:</b> a hand-off, not a queue — {@link #write} waits until the writer has taken
 *       the batch, so at most one batch is being written while the loader fills the next (one
 *       batch per table more than the synchronous sink).</li>
 *   <li><b>Ownership:</b> the batch's buffers are transferred (no copy) into a batch the writer owns
 *       and closes after writing; the loader's batch is left empty, which is what its
 *       {@link BatchSink#write} contract expects.</li>
 *   <li><b>Table opens on the loader's thread:</b> {@link TableBatchWriter#open} runs on the calling
 *       thread (it may read the committed snapshot, which is not shared across threads); only the
 *       returned {@link TableBatchWriter.Sink} runs on the writer thread.</li>
 *   <li><b>Failures:</b> a failure of a write is thrown, as raised, by the loader's next
 *       {@link #write} or by {@link #drain}; {@link #abandon} (the load failed) waits for the batch
 *       being written, discards the rest and adds a write failure the loader has not thrown to the
 *       load's failure as suppressed. Nothing is committed either way: the fragments are
 *       staged, and the load commits only after {@link #drain} returned.</li>
 * </ul>
 */
final class PipelinedBatchSink implements BatchSink {
  private static final VectorSchemaRoot END = new VectorSchemaRoot(List.of());

  private record Job(TableBatchWriter.Sink sink, VectorSchemaRoot batch) {}

  private final TableBatchWriter writer;
  private final Map<String, TableBatchWriter.Sink> opened = new HashMap<>();
  private final SynchronousQueue<Job> handOff = new SynchronousQueue<>();
  private volatile Throwable failure;
  private volatile boolean stopping;
  private Thread thread;
  private boolean ended;

  PipelinedBatchSink(TableBatchWriter writer) {
    this.writer = writer;
  }

  @Override
  public void write(TableSpec table, VectorSchemaRoot batch) {
    rethrowFailure();
    TableBatchWriter.Sink sink = opened.get(table.tableKey());
    if (sink == null) {
      sink = writer.open(table);
      opened.put(table.tableKey(), sink);
    }
    VectorSchemaRoot owned = transfer(batch);
    try {
      handOver(new Job(sink, owned));
    } catch (RuntimeException | Error e) {
      owned.close();
      throw e;
    }
  }

  /** Waits for every batch handed over to be written; then throws the first write failure, if any. */
  void drain() {
    if (thread != null && !ended) {
      handOver(new Job(null, END));
      ended = true;
      joinWriter();
    }
    rethrowFailure();
  }

  /**
   * Ends the writer because the load failed with {@code primary}: the batch being written is
   * finished, nothing more is taken. A write failure that the loader has not thrown (the writer
   * failed while the loader failed on its own, e.g. on an invalid line) is added to {@code primary}
   * as suppressed: both failures are reported, neither is dropped.
   *
   * @param primary the load's failure, thrown by the caller after this returns
   */
  void abandon(Throwable primary) {
    if (thread != null && !ended) {
      ended = true;
      stopping = true; // a writer waiting for the next batch stops; one writing finishes that batch first
      joinWriter();
    }
    Throwable t = failure;
    if (t != null && t != primary) {
      primary.addSuppressed(t);
    }
  }

  private void handOver(Job job) {
    if (thread == null) {
      thread = new Thread(this::run, "omnigraph-load-writer");
      thread.setDaemon(true);
      thread.start();
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (handOff.offer(job, 50, TimeUnit.MILLISECONDS)) {
            return;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
        if (!thread.isAlive()) { // the writer failed and stopped taking batches
          rethrowFailure();
          throw new IllegalStateException("the load's batch writer stopped");
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run() {
    while (true) {
      Job job;
      try {
        job = handOff.poll(20, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        continue; // nobody interrupts this thread on purpose: stop only on END or abandon()
      }
      if (job == null) {
        if (stopping) {
          return; // abandon(): the load failed
        }
        continue;
      }
      if (job.batch() == END) {
        return;
      }
      try {
        job.sink().write(job.batch());
      } catch (Throwable t) {
        failure = t;
        return;
      } finally {
        job.batch().close();
      }
    }
  }

  private void joinWriter() {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the writer may still be writing files: wait for it
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void rethrowFailure() {
    Throwable t = failure;
    if (t != null) {
      PipelinedBatchSink.<RuntimeException>sneaky(t);
    }
  }

  /** Rethrows {@code t} as raised: Lance's binding throws checked IOExceptions undeclared, and the load reports them as before. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /** @return a batch owning {@code batch}'s buffers (no copy); {@code batch} is left empty */
  private static VectorSchemaRoot transfer(VectorSchemaRoot batch) {
    List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
    try {
      for (FieldVector v : batch.getFieldVectors()) {
        TransferPair tp = v.getTransferPair(v.getAllocator());
        tp.transfer();
        vectors.add((FieldVector) tp.getTo());
      }
    } catch (RuntimeException | Error e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    return new VectorSchemaRoot(batch.getSchema(), vectors, batch.getRowCount());
  }
}
