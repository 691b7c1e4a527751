package io.omnigraph.engine.table;

import io.omnigraph.api.InternalErrorException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.ColumnOrdering;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * A pull cursor over one Lance scan of a pinned version, in batches of at most {@code batchRows}
 * rows (docs/branches.md, "Memory bound of the ordered merge"): the caller asks for the next batch
 * when it is done with the current one, so several scans can be walked side by side (the merge's
 * base, source and target cursors). The batch handed out is valid until the next {@link #next()} or
 * {@link #close()}. Lance failures are typed ({@link LanceCalls}).
 */
public final class ScanCursor implements AutoCloseable {
  private final String uri;
  private final LanceScanner scanner;
  private final ArrowReader reader;
  private boolean done;

  private ScanCursor(TableSnapshot s, ScanOptions options) {
    this.uri = s.location().uri();
    LanceScanner sc = LanceCalls.lance(uri, "read", () -> s.dataset().newScan(options));
    try {
      this.reader = LanceCalls.lance(uri, "read", sc::scanBatches);
    } catch (RuntimeException e) {
      closeQuietly(sc, e);
      throw e;
    }
    this.scanner = sc;
  }

  /**
   * Every row of the pinned version in ascending {@code id} order. Lance orders a UTF-8 column by
   * its bytes (unsigned), the order the merge's cursors compare in; the sort runs inside Lance over
   * the whole version before the first batch (docs/branches.md, "Memory bound of the ordered merge").
   */
  public static ScanCursor orderedById(TableSnapshot s, int batchRows) {
    ColumnOrdering.Builder byId = new ColumnOrdering.Builder();
    byId.setColumnName(TableReader.ID);
    byId.setAscending(true);
    byId.setNullFirst(false);
    return new ScanCursor(s, new ScanOptions.Builder().setColumnOrderings(List.of(byId.build()))
        .batchSize(batchRows).build());
  }

  /**
   * The rows a proven interval inserted (its new fragments, ascending by fragment id), as
   * {@link TableReader#scanProvenRows} reads them, or {@code null} when the interval added no fragment.
   */
  public static ScanCursor provenRows(InsertProof proof, int batchRows) {
    if (!proof.proven()) {
      throw new InternalErrorException("scan of an unproven interval of " + proof.tableKey() + ": "
          + proof.refusal(), null);
    }
    if (proof.newFragments().isEmpty()) {
      return null;
    }
    return new ScanCursor(proof.source(), new ScanOptions.Builder().fragmentIds(proof.newFragments())
        .batchSize(batchRows).build());
  }

  /** @return the next batch (valid until the next call), or {@code null} at the end */
  public VectorSchemaRoot next() {
    if (done) {
      return null;
    }
    boolean loaded = LanceCalls.lance(uri, "read", () -> {
      try {
        return reader.loadNextBatch();
      } catch (java.io.IOException e) {
        throw new LanceCalls.LanceCallFailure(e);
      }
    });
    if (!loaded) {
      done = true;
      return null;
    }
    try {
      return reader.getVectorSchemaRoot();
    } catch (java.io.IOException e) {
      throw LanceCalls.mapped(uri, "read", e);
    }
  }

  @Override
  public void close() {
    RuntimeException first = null;
    try {
      reader.close();
    } catch (Exception e) {
      first = LanceCalls.mapped(uri, "read", e);
    }
    try {
      scanner.close();
    } catch (Exception e) {
      if (first == null) {
        first = LanceCalls.mapped(uri, "read", e);
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static void closeQuietly(LanceScanner sc, RuntimeException cause) {
    try {
      sc.close();
    } catch (Exception e) {
      cause.addSuppressed(e);
    }
  }
}
