package io.omnigraph.engine.branch;

import io.omnigraph.engine.manifest.TableEntry;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.table.InsertProof;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;

/** One table's part of a merge ({@link BranchMerge}): its route, its chunks and its counts. */
final class TablePlan implements AutoCloseable {
  final TableSpec spec;
  final TableEntry targetEntry;
  final TableEntry sourceEntry;
  String sourceUri;
  String route;
  final List<VectorSchemaRoot> inserts = new ArrayList<>();
  final List<VectorSchemaRoot> upserts = new ArrayList<>();
  final List<List<String>> deletes = new ArrayList<>();
  long inserted;
  long updated;
  long deleted;
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
  /** Adopted rows read only for the merged-graph checks (never written). */
  final List<VectorSchemaRoot> checkedRows = new ArrayList<>();

  TablePlan(TableSpec spec, TableEntry targetEntry, TableEntry sourceEntry) {
    this.spec = spec;
    this.targetEntry = targetEntry;
    this.sourceEntry = sourceEntry;
  }

  String key() {
    return spec.tableKey();
  }

  int transactions() {
    return adoptedLinks + inserts.size() + upserts.size() + deletes.size();
  }

  boolean writesData() {
    return transactions() > 0;
  }

  List<VectorSchemaRoot> taken() {
    List<VectorSchemaRoot> all = new ArrayList<>(inserts);
    all.addAll(upserts);
    all.addAll(checkedRows);
    return all;
  }

  @Override
  public void close() {
    inserts.forEach(VectorSchemaRoot::close);
    upserts.forEach(VectorSchemaRoot::close);
    checkedRows.forEach(VectorSchemaRoot::close);
    inserts.clear();
    upserts.clear();
    checkedRows.clear();
  }

  /** A pointer table writes nothing: drop its staged rows once the checks have read them. */
  void dropData() {
    close();
    deletes.clear();
  }
}
