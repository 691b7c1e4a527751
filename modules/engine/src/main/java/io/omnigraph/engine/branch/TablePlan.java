package io.omnigraph.engine.branch;

import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.table.InsertProof;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One table's part of a merge ({@link BranchMerge}): its route, its counts, the number of chunks
 * its chain writes and what the merged-graph checks need of it. The rows themselves are not held:
 * the planning pass counts the chunks ({@link TableRows}), the effect window produces them again one
 * at a time ({@link TableSteps}); only the delete plan is retained (budgeted, {@link MergeMemory}).
 */
final class TablePlan implements AutoCloseable {
  final TableSpec spec;
  final TableEntry targetEntry;
  final TableEntry sourceEntry;
  String sourceUri;
  String route;
  /** The pinned versions the ordered route reads (owned by the merge's snapshots). */
  TableSnapshot baseTable;
  TableSnapshot sourceTable;
  TableSnapshot targetTable;
  /** The schema rows are rendered with, and the merge's meter. */
  CompiledSchema schema;
  MergeMemory memory;
  /** Chunks the planning pass cut: new rows (strict insert) and changed rows (upsert). */
  int insertChunks;
  int upsertChunks;
  final List<List<String>> deletes = new ArrayList<>();
  long inserted;
  long updated;
  long deleted;
  /** Whether the merged-graph checks read this table's taken rows ({@link #checked}, {@link #takenIds}). */
  boolean checksNeedRows;
  /** Ids the merge rewrites on this table (taken rows), and the ids it deletes. */
  final Set<String> takenIds = new HashSet<>();
  final Set<String> deletedIds = new HashSet<>();
  /** Route {@code proven_insert}: the verified interval, and the source ref's identifier it was proven on. */
  InsertProof proof;
  LanceLocation sourceMain;
  String sourceRefIdentity;
  /** Why the proven-insert route was not taken (diagnostics), or {@code null}. */
  String provenRefusal;
  /** Route {@code proven_insert} by adoption: the links replayed (one transaction each), else 0. */
  int adoptedLinks;
  /** The taken rows' columns the merged-graph checks read (id, endpoints, {@code @unique} fields), budgeted. */
  final List<VectorSchemaRoot> checked = new ArrayList<>();

  TablePlan(TableSpec spec, TableEntry targetEntry, TableEntry sourceEntry) {
    this.spec = spec;
    this.targetEntry = targetEntry;
    this.sourceEntry = sourceEntry;
  }

  String key() {
    return spec.tableKey();
  }

  /** @return whether the table's rows are produced by {@link TableRows} in the effect window */
  boolean producesRows() {
    return insertChunks + upsertChunks > 0;
  }

  int transactions() {
    return adoptedLinks + insertChunks + upsertChunks + deletes.size();
  }

  boolean writesData() {
    return transactions() > 0;
  }

  List<VectorSchemaRoot> taken() {
    return checked;
  }

  @Override
  public void close() {
    checked.forEach(VectorSchemaRoot::close);
    checked.clear();
  }

  /** A pointer table writes nothing: its counts stay, its chain is empty. */
  void dropData() {
    insertChunks = 0;
    upsertChunks = 0;
    deletes.clear();
  }
}
