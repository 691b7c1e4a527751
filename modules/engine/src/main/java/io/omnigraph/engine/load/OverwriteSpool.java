package io.omnigraph.engine.load;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.engine.write.WriteErrors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The validated batches of an overwrite load into a table its branch has not written yet, kept in a
 * local Arrow IPC stream file while the load prepares (docs/branches.md, "Lazy table forks"). An
 * overwrite on a table the branch owns streams its batches straight into staged fragments of the
 * table's ref; a first-touch table has no ref yet, and the ref may only be created after the
 * write's recovery sidecar names it (sidecar-before-ref), so its batches wait here and are
 * {@link #replay replayed} onto the fork inside the effect window, after arming.
 *
 * <p>The file is created in {@value #DIR_PROPERTY} (default {@code java.io.tmpdir}) as
 * {@code omnigraph-overwrite-*.arrows}, readable by this user only, and deleted by {@link #close}
 * on every path, success or failure. Memory stays one batch per table (writing and replaying alike).
 * Its size is capped at {@value #MAX_BYTES_PROPERTY} bytes (default 64 GiB): a batch that would pass
 * the cap is a typed {@link io.omnigraph.api.ResourceLimitException} ({@code overwrite_spool_bytes},
 * 413), and any I/O failure a typed {@link StorageFailureException} — both before anything is armed.
 * Not thread-safe: opened on the loader's thread, written on the load's writer thread, replayed after
 * the loader returned (each handing over through the load pipeline).
 */
public final class OverwriteSpool implements AutoCloseable {
  /** System property: the directory spool files are created in (default {@code java.io.tmpdir}). */
  public static final String DIR_PROPERTY = "omnigraph.load.spool_dir";
  /** System property: the maximum bytes of one table's spool file. */
  public static final String MAX_BYTES_PROPERTY = "omnigraph.load.spool_max_bytes";
  /** The default of {@value #MAX_BYTES_PROPERTY}: 64 GiB. */
  public static final long DEFAULT_MAX_BYTES = 64L << 30;
  /** The resource a spool over its cap is reported as. */
  public static final String RESOURCE = "overwrite_spool_bytes";

  private static final System.Logger LOG = System.getLogger(OverwriteSpool.class.getName());

  private final String tableKey;
  private final Path file;
  private final long maxBytes;
  private FileChannel channel;
  private WriteChannel out;
  private long rows;
  private boolean finished;
  private boolean closed;

  private OverwriteSpool(String tableKey, Path file, long maxBytes) {
    this.tableKey = tableKey;
    this.file = file;
    this.maxBytes = maxBytes;
  }

  /**
   * Creates the spool file of {@code tableKey} and writes the stream's schema.
   *
   * @throws StorageFailureException the file cannot be created or written (nothing is left behind)
   */
  public static OverwriteSpool open(String tableKey, Schema schema) {
    Path dir = Path.of(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
    long max = Long.getLong(MAX_BYTES_PROPERTY, DEFAULT_MAX_BYTES);
    Path file;
    try {
      file = Files.createTempFile(dir, "omnigraph-overwrite-", ".arrows");
    } catch (IOException e) {
      throw failure("create", dir, e);
    }
    OverwriteSpool spool = new OverwriteSpool(tableKey, file, max);
    try {
      spool.channel = FileChannel.open(file, StandardOpenOption.WRITE);
      spool.out = new WriteChannel(spool.channel);
      MessageSerializer.serialize(spool.out, schema);
    } catch (IOException | RuntimeException e) {
      spool.close();
      throw e instanceof IOException io ? failure("write", file, io) : (RuntimeException) e;
    }
    return spool;
  }

  /**
   * Appends one batch (the caller keeps it).
   *
   * @throws io.omnigraph.api.ResourceLimitException the file would pass its cap
   * @throws StorageFailureException the write failed
   */
  public void write(VectorSchemaRoot batch) {
    if (finished || closed) {
      throw new IllegalStateException("the overwrite spool of " + tableKey + " is finished");
    }
    try (ArrowRecordBatch b = new VectorUnloader(batch).getRecordBatch()) {
      long after = out.getCurrentPosition() + b.computeBodyLength();
      if (after > maxBytes) {
        throw WriteErrors.resourceLimit(RESOURCE, maxBytes, after);
      }
      MessageSerializer.serialize(out, b);
    } catch (IOException e) {
      throw failure("write", file, e);
    }
    rows += batch.getRowCount();
  }

  /**
   * Ends the stream; call once, after the last {@link #write}.
   *
   * @throws StorageFailureException the write failed
   */
  public void finish() {
    if (finished) {
      return;
    }
    try {
      ArrowStreamWriter.writeEndOfStream(out, IpcOption.DEFAULT);
      channel.close();
    } catch (IOException e) {
      throw failure("write", file, e);
    }
    finished = true;
  }

  /** @return rows written */
  public long rows() {
    return rows;
  }

  /** @return the spool file (for tests and messages) */
  public Path file() {
    return file;
  }

  /**
   * Reads the batches back in order, one at a time, into {@code sink} (each valid only during its
   * call). Call after {@link #finish}.
   *
   * @throws StorageFailureException the file cannot be read
   */
  public void replay(BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
    if (!finished || closed) {
      throw new IllegalStateException("the overwrite spool of " + tableKey + " is not finished or already removed");
    }
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
        ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        sink.accept(root);
      }
    } catch (IOException e) {
      throw failure("read", file, e);
    }
  }

  /** Deletes the file (idempotent); a failure to delete is logged, never thrown. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (channel != null && channel.isOpen()) {
        channel.close();
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "closing the overwrite spool " + file + " failed", e);
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "the overwrite spool " + file + " of " + tableKey
          + " could not be deleted; delete it by hand", e);
    }
  }

  private static StorageFailureException failure(String what, Path path, IOException e) {
    String kind = e instanceof AccessDeniedException ? "PERMISSION" : "PERMANENT";
    return new StorageFailureException("cannot " + what + " the overwrite load's spool file " + path + " (set "
        + DIR_PROPERTY + " to a writable local directory with room for the input): " + e.getMessage(),
        new ErrorDetail.Storage(kind, path.toString()), e);
  }
}
