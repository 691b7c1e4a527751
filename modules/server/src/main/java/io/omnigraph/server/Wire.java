package io.omnigraph.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.api.WriteWarning;
import java.util.List;
import java.util.Map;

/**
 * The JSON bodies of the routes (docs/server.md, "Routes"): the reference server's field names, plus
 * a few extra fields that let {@code HttpGraph} rebuild the API's result records exactly.
 */
final class Wire {
  static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private Wire() {}

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  /** CommitOutput: {@code graph_commit_id, graph_branch, graph_manifest_version, parent_commit_id, ...}. */
  static ObjectNode commit(CommitInfo c, TableOrder order) {
    ObjectNode o = object();
    o.put("graph_commit_id", c.id());
    o.put("graph_branch", c.branch());
    o.put("graph_manifest_version", c.manifestVersion());
    if (!c.parents().isEmpty()) {
      o.put("parent_commit_id", c.parents().get(0));
    }
    if (c.parents().size() > 1) {
      o.put("merged_parent_commit_id", c.parents().get(1));
    }
    ArrayNode parents = o.putArray("parent_commit_ids");
    c.parents().forEach(parents::add);
    if (c.actor() != null) {
      o.put("actor_id", c.actor());
    }
    o.put("created_at", c.createdAt().toString());
    if (c.message() != null) {
      o.put("message", c.message());
    }
    ObjectNode tables = o.putObject("table_versions");
    order.sorted(c.tableVersions()).forEach(tables::put);
    return o;
  }

  static ObjectNode commits(List<CommitInfo> commits, TableOrder order) {
    ObjectNode o = object();
    ArrayNode a = o.putArray("commits");
    commits.forEach(c -> a.add(commit(c, order)));
    return o;
  }

  /** {@code {branch, query_name, affected_nodes, affected_edges, actor_id, commit, tables}}. */
  static ObjectNode mutation(MutationResult r, String branch, String actor, CommitInfo commit, TableOrder order) {
    ObjectNode o = object();
    o.put("branch", branch);
    o.put("query_name", r.queryName());
    o.put("affected_nodes", r.affectedNodes());
    o.put("affected_edges", r.affectedEdges());
    if (actor != null) {
      o.put("actor_id", actor);
    }
    if (commit != null) {
      o.set("commit", commit(commit, order));
    } else {
      o.putNull("commit");
    }
    ObjectNode tables = o.putObject("tables");
    order.sorted(r.tables()).forEach((k, t) -> {
      ObjectNode n = tables.putObject(k);
      n.put("inserted", t.inserted());
      n.put("updated", t.updated());
      n.put("deleted", t.deleted());
    });
    o.set("warnings", warnings(r.warnings()));
    return o;
  }

  /**
   * {@code [{code, message, status, error}]}: what went wrong after a write was published without
   * failing it (docs/server.md, "Warnings"); {@code error} is the follow-up failure's ErrorOutput and
   * {@code status} the status it would have had as an error, so a client rebuilds the same exception.
   */
  static ArrayNode warnings(List<WriteWarning> warnings) {
    ArrayNode a = JSON.createArrayNode();
    for (WriteWarning w : warnings) {
      ObjectNode n = a.addObject();
      n.put("code", w.code());
      n.put("message", w.message());
      n.put("status", w.cause().httpStatus());
      try {
        n.set("error", JSON.readTree(w.cause().toJson()));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("OmnigraphException.toJson() is not JSON", e);
      }
    }
    return a;
  }

  /** {@code {branch, branch_created, mode, nodes:[{name, entities_loaded}], edges, total_entities, actor_id, commit}}. */
  static ObjectNode load(LoadResult r, String actor, CommitInfo commit, String branch, boolean branchCreated,
      TableOrder order) {
    ObjectNode o = object();
    o.put("branch", branch);
    o.put("branch_created", branchCreated);
    o.put("mode", r.mode().wireName());
    ArrayNode nodes = o.putArray("nodes");
    ArrayNode edges = o.putArray("edges");
    long total = 0;
    for (Map.Entry<String, Long> e : order.sorted(r.rowsByTable()).entrySet()) {
      String key = e.getKey();
      int colon = key.indexOf(':');
      ObjectNode n = (key.startsWith("edge:") ? edges : nodes).addObject();
      n.put("name", colon < 0 ? key : key.substring(colon + 1));
      n.put("entities_loaded", e.getValue());
      total += e.getValue();
    }
    o.put("total_entities", total);
    o.put("rows_read", r.rowsRead());
    if (actor != null) {
      o.put("actor_id", actor);
    }
    o.set("commit", commit == null ? null : commit(commit, order));
    ObjectNode phases = o.putObject("phase_nanos");
    r.phaseNanos().forEach(phases::put);
    o.set("warnings", warnings(r.warnings()));
    return o;
  }

  /** {@code {schema_source, schema_identity, schema_ir_json, table_keys}}. */
  static ObjectNode schema(SchemaInfo s) {
    ObjectNode o = object();
    o.put("schema_source", s.source());
    o.put("schema_identity", s.identity());
    o.put("schema_ir_json", s.irJson());
    ArrayNode keys = o.putArray("table_keys");
    s.tableKeys().forEach(keys::add);
    return o;
  }

  /**
   * {@code {graph_branch, graph_commit_id, graph_manifest_version, internal_schema_version, datasets:
   * [{entity_kind, type_name, table_key, dataset_path, published_dataset_version, native_dataset_branch,
   * entity_count}]}}.
   */
  static ObjectNode snapshot(io.omnigraph.api.SnapshotInfo s, TableOrder order) {
    ObjectNode o = object();
    o.put("graph_branch", s.branch());
    o.put("graph_commit_id", s.commitId());
    o.put("graph_manifest_version", s.manifestVersion());
    o.put("internal_schema_version", s.internalSchemaVersion());
    ArrayNode ds = o.putArray("datasets");
    for (io.omnigraph.api.SnapshotInfo.Dataset d : s.datasets().stream()
        .sorted(java.util.Comparator.comparing(io.omnigraph.api.SnapshotInfo.Dataset::tableKey, order)).toList()) {
      ObjectNode n = ds.addObject();
      n.put("entity_kind", d.entityKind());
      n.put("type_name", d.typeName());
      n.put("table_key", d.tableKey());
      n.put("dataset_path", d.path());
      n.put("published_dataset_version", d.version());
      if (d.nativeBranch() == null) {
        n.putNull("native_dataset_branch");
      } else {
        n.put("native_dataset_branch", d.nativeBranch());
      }
      n.put("entity_count", d.entityCount());
    }
    return o;
  }

  /** The merge result's one JSON form ({@link io.omnigraph.api.MergeResult#toJson()}), as an object to add to. */
  static ObjectNode merge(io.omnigraph.api.MergeResult r) {
    try {
      return (ObjectNode) JSON.readTree(r.toJson());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("MergeResult.toJson() is not JSON", e);
    }
  }

  static ArrayNode steps(List<io.omnigraph.api.SchemaPlanStep> steps) {
    ArrayNode a = JSON.createArrayNode();
    for (io.omnigraph.api.SchemaPlanStep step : steps) {
      ObjectNode n = a.addObject();
      n.put("kind", step.kind());
      step.fields().forEach((k, v) -> {
        if (v instanceof List<?> l) {
          ArrayNode values = n.putArray(k);
          l.forEach(item -> values.add(item.toString()));
        } else {
          n.put(k, v.toString());
        }
      });
    }
    return a;
  }

  /** {@code {supported, accepted_identity, desired_identity, steps: [{kind, ...fields}]}}. */
  static ObjectNode schemaPlan(io.omnigraph.api.SchemaPlan p) {
    ObjectNode o = object();
    o.put("supported", p.supported());
    o.put("accepted_identity", p.acceptedIdentity());
    o.put("desired_identity", p.desiredIdentity());
    o.set("steps", steps(p.steps()));
    return o;
  }

  /** {@code {uri, applied, schema_identity, commit, steps}}; {@code commit} is a CommitOutput or {@code null}. */
  static ObjectNode schemaApply(io.omnigraph.api.SchemaApplyResult r, CommitInfo commit, TableOrder order) {
    ObjectNode o = object();
    o.put("uri", r.uri());
    o.put("applied", r.applied());
    o.put("schema_identity", r.schemaIdentity());
    if (commit == null) {
      o.putNull("commit");
    } else {
      o.set("commit", commit(commit, order));
    }
    o.set("steps", steps(r.steps()));
    return o;
  }

  static ObjectNode recoveries(List<RecoveryRecord> records) {
    ObjectNode o = object();
    ArrayNode a = o.putArray("recoveries");
    for (RecoveryRecord r : records) {
      ObjectNode n = a.addObject();
      n.put("graph_commit_id", r.graphCommitId());
      n.put("kind", r.kind());
      if (r.forActor() != null) {
        n.put("for_actor", r.forActor());
      }
      n.put("operation_id", r.operationId());
      if (r.writerKind() != null) {
        n.put("writer_kind", r.writerKind());
      }
      ArrayNode tables = n.putArray("tables");
      r.tables().forEach(t -> tables.addObject().put("table_key", t.tableKey())
          .put("from_version", t.fromVersion()).put("to_version", t.toVersion()));
      n.put("created_at", r.createdAt().toString());
    }
    return o;
  }
}
