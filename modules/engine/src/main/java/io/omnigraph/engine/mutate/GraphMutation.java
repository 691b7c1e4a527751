package io.omnigraph.engine.mutate;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.gq.CheckedQuery;
import io.omnigraph.engine.gq.GqCompiler;
import io.omnigraph.engine.gq.QueryException;
import io.omnigraph.engine.gq.CheckedMutation;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.write.GraphWrite.TableEffect;
import io.omnigraph.engine.write.GraphWrite;
import io.omnigraph.engine.write.StaleAttempt;
import io.omnigraph.engine.write.WriteContext;
import io.omnigraph.engine.write.WriteToken;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@link io.omnigraph.api.Graph#mutate}: compile and bind (no I/O), then prepare against one
 * manifest cut (execute every statement into a {@link MutationStaging}, validate, stage one
 * transaction per changed table; no HEAD moves), then hand the staged effects to the shared write
 * seam, which commits them and publishes one graph commit.
 *
 * <p>Optimistic concurrency (docs/write-protocol.md, "OCC rules at a glance"): the attempt's
 * {@link WriteToken}
 * is captured with the cut and compared again inside the effect window. When another write
 * published in between, an insert-only mutation re-prepares ({@link StaleAttempt#withReprepare});
 * one with an update or a delete is ReadSetChanged (409). A strict insert (unkeyed node, edge) of
 * an id that exists, including one a concurrent writer just inserted, is KeyConflict (409) and never
 * an upsert. An expected head that does not hold is PreconditionFailed (412).
 */
public final class GraphMutation {
  private final WriteContext graph;
  private final String branch;
  private final MutationOptions options;

  /**
   * @param graph what the mutation needs of the open graph
   * @param branch the branch it writes
   * @param options actor, message, head expectation
   */
  /** The schema the plan was compiled against ({@code null}: not checked). */
  private String planSchemaHash;

  /**
   * Makes every attempt check that the snapshot it prepares against accepts the schema the plan was
   * compiled against: after a schema apply by another handle, a plan of the old schema is refused
   * ({@value #STALE_SCHEMA_MEMBER} read-set conflict) instead of being executed against new tables.
   *
   * @return this
   */
  public GraphMutation expectingSchema(String schemaHash) {
    this.planSchemaHash = schemaHash;
    return this;
  }

  /** The read-set member of the refusal of a plan compiled against a schema the graph no longer accepts. */
  public static final String STALE_SCHEMA_MEMBER = "schema_ir_hash";

  public GraphMutation(WriteContext graph, String branch, MutationOptions options) {
    this.graph = graph;
    this.branch = branch;
    this.options = options;
  }

  /**
   * Parses the file, picks the query, type-checks it and binds the parameters. Pure.
   *
   * @throws InvalidInputException any parse, type, D₂ or parameter error (line:column in the detail)
   */
  public static MutationPlan plan(io.omnigraph.engine.schema.CompiledSchema schema, String gqText, String queryName,
      QueryParams params, Instant now) {
    return bind(compile(schema, gqText, queryName), params, now);
  }

  /** A checked mutation bound to the schema it was checked against. */
  public record Prepared(String queryName, String schemaHash, CheckedMutation checked)
      implements io.omnigraph.api.PreparedMutation {}

  /**
   * Parses the file, picks the query and type-checks it. Pure.
   *
   * @throws InvalidInputException any parse, type or D₂ error, or a read query
   */
  public static Prepared compile(io.omnigraph.engine.schema.CompiledSchema schema, String gqText, String queryName) {
    try {
      CheckedQuery checked = GqCompiler.compile(schema.catalog(), gqText, queryName);
      if (!(checked instanceof CheckedMutation m)) {
        throw new InvalidInputException("query '" + queryName + "' is a read query; mutate runs queries made of"
            + " insert, update and delete statements", new ErrorDetail.Validation(null, null, null, "not_a_mutation"));
      }
      return new Prepared(queryName, schema.ir().hash(), m);
    } catch (QueryException e) {
      throw e.toInvalidInput();
    }
  }

  /**
   * Binds the parameters of a query {@link #compile}d by a handle on {@code schema}. Pure.
   *
   * @throws InvalidInputException the query was prepared for another schema (rule {@code stale_query}),
   *     or a parameter error
   */
  public static MutationPlan bind(io.omnigraph.engine.schema.CompiledSchema schema, io.omnigraph.api.PreparedMutation query,
      QueryParams params, Instant now) {
    if (!(query instanceof Prepared p) || !p.schemaHash().equals(schema.ir().hash())) {
      throw new InvalidInputException("mutation '" + query.queryName() + "' was prepared for a different schema;"
          + " prepare it with this graph's prepareMutation", new ErrorDetail.Validation(null, null, null, "stale_query"));
    }
    return bind(p, params, now);
  }

  /**
   * Binds the parameters. Pure.
   *
   * @throws InvalidInputException a parameter error
   */
  static MutationPlan bind(Prepared prepared, QueryParams params, Instant now) {
    try {
      return io.omnigraph.engine.plan.MutationBinder.bind(prepared.checked(), values(params), now);
    } catch (QueryException e) {
      throw e.toInvalidInput();
    }
  }

  private static Map<String, ?> values(QueryParams params) throws QueryException {
    Objects.requireNonNull(params, "params");
    if (params instanceof QueryParams.Values v) {
      return v.values();
    }
    if (params instanceof QueryParams.Json j) {
      return io.omnigraph.engine.plan.QueryParams.fromJson(j.text());
    }
    return io.omnigraph.engine.plan.QueryParams.fromPairs(((QueryParams.Pairs) params).pairs());
  }

  /**
   * Runs the plan: prepare → effect → publish. An insert-only mutation re-prepares the whole
   * attempt (up to {@value StaleAttempt#MAX_PRE_EFFECT_REPREPARES} times, with the same bound
   * parameters and {@code now()}) when another write published between its preparation and its
   * effects; a mutation with an update or a delete then fails with ReadSetChanged (409). An expected
   * head ({@link MutationOptions#expectedHead()}) that does not hold, at preparation or inside the
   * effect window, is PreconditionFailed (412), never a re-prepare.
   */
  public MutationResult run(MutationPlan plan) {
    GraphWrite.OnMovement onMovement = insertOnly(plan)
        ? GraphWrite.OnMovement.REPREPARE : GraphWrite.OnMovement.READ_SET_CHANGED;
    return StaleAttempt.withReprepare(graph.gate(), () -> attempt(plan, onMovement));
  }

  /**
   * Whether a plan may re-prepare after unrelated movement: only inserts (keyed upserts included),
   * whose outcome does not depend on which committed rows an earlier read matched. Updates and
   * deletes act on a match set that the movement may have changed.
   */
  static boolean insertOnly(MutationPlan plan) {
    for (MutationPlan.Statement s : plan.statements()) {
      if (!(s instanceof MutationPlan.Statement.InsertNode) && !(s instanceof MutationPlan.Statement.InsertEdge)) {
        return false;
      }
    }
    return true;
  }

  /**
   * One attempt from a fresh snapshot of the branch head. An insert-only mutation on main without a
   * head expectation, from a thread that does not hold the write gate, commits through group commit
   * ({@link GraphWrite#commitGrouped}, docs/concurrency.md "Group commit"): batched with other
   * threads' mutations of this handle, each its own commit, re-prepared in its own thread when the
   * batch's leader asks.
   */
  private MutationResult attempt(MutationPlan plan, GraphWrite.OnMovement onMovement) {
    boolean group = onMovement == GraphWrite.OnMovement.REPREPARE && options.expectedHead() == null
        && io.omnigraph.engine.manifest.GraphBranch.MAIN.equals(branch) && !graph.gate().isHeldByCurrentThread();
    // A grouped attempt announces itself before it prepares, so a leader gathering a round waits for it.
    try (Attempt a = new Attempt(plan, onMovement);
        GraphWrite.Preparing announced = group ? graph.writer().preparingToGroup() : null) {
      a.prepare();
      if (a.intent == null) {
        // Nothing matched: no effect, no commit (a crash here must leave the graph untouched).
        Failpoints.hit(Failpoints.WRITE_POST_NO_EFFECT);
        return result(plan, a.staging.counts(), null);
      }
      boolean grouped = group && a.groupable();
      if (announced != null && !grouped) {
        announced.close(); // commits alone: no leader waits for it
      }
      graph.beforeEffectWindow().run();
      GraphWrite.Outcome outcome = grouped
          ? graph.writer().commitGrouped(a, announced) : graph.writer().commitAndPublish(a.intent);
      return result(plan, a.staging.counts(), outcome == null ? null : outcome.commitId());
    }
  }

  /** One preparation (snapshot, staging, intent); prepared again in place for group commit. */
  private final class Attempt implements GraphWrite.Member, AutoCloseable {
    private final MutationPlan plan;
    private final GraphWrite.OnMovement onMovement;
    private GraphSnapshot committed;
    private MutationStaging staging;
    private GraphWrite.Intent intent;

    Attempt(MutationPlan plan, GraphWrite.OnMovement onMovement) {
      this.plan = plan;
      this.onMovement = onMovement;
    }

    void prepare() {
      close();
      // The branch identity is read before and after the snapshot: equal reads bind the snapshot to
      // that incarnation of the branch (a delete and re-create in between is a typed conflict).
      String identity = graph.snapshots().branchIdentity(branch);
      committed = graph.snapshots().resolve(GraphRef.branch(branch));
      graph.snapshots().requireBranchIdentity(branch, identity);
      WriteToken token = WriteToken.capture(committed.manifest(), branch, identity, committed.schema().ir().hash());
      token.requireHead(options.expectedHead(), committed.manifest());
      if (planSchemaHash != null && !planSchemaHash.equals(committed.schema().ir().hash())) {
        throw new io.omnigraph.api.ConflictException("the graph's schema changed (a schema apply) after this handle"
            + " compiled the mutation; nothing was written", new io.omnigraph.api.ErrorDetail.ReadSetConflict(
                STALE_SCHEMA_MEMBER, planSchemaHash, committed.schema().ir().hash()));
      }
      staging = new MutationStaging(committed.schema(), graph.tables(), committed, graph.newRowId());
      MutationExecutor.execute(plan, staging);
      List<TableEffect> effects = staging.stageAll();
      intent = effects.isEmpty() ? null : new GraphWrite.Intent(GraphWrite.WriterKind.MUTATION, token,
          options.actor(), options.message(), effects, onMovement, options.expectedHead());
    }

    @Override
    public GraphWrite.Intent intent() {
      return intent;
    }

    @Override
    public boolean groupable() {
      io.omnigraph.engine.schema.Catalog catalog = committed.schema().catalog();
      for (TableEffect e : intent.effects()) {
        String type = e.spec().typeName();
        List<io.omnigraph.engine.schema.Constraint> constraints;
        if (e.spec().kind() == io.omnigraph.engine.schema.SchemaIr.DeclKind.EDGE) {
          io.omnigraph.engine.schema.EdgeType edge = catalog.edge(type).orElse(null);
          if (edge == null || !edge.cardinality().isUnbounded()) {
            return false;
          }
          constraints = edge.constraints();
        } else {
          constraints = catalog.node(type).map(io.omnigraph.engine.schema.NodeType::constraints).orElse(null);
        }
        if (constraints == null || constraints.stream().anyMatch(io.omnigraph.engine.schema.Constraint.Unique.class::isInstance)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public void reprepare() {
      prepare();
    }

    @Override
    public void close() {
      intent = null;
      try {
        if (staging != null) {
          staging.close();
        }
      } finally {
        staging = null;
        if (committed != null) {
          committed.close();
        }
        committed = null;
      }
    }
  }

  private static MutationResult result(MutationPlan plan, Map<String, MutationStaging.Counts> counts, String commitId) {
    Map<String, MutationResult.TableChanges> tables = new LinkedHashMap<>();
    long nodes = 0;
    long edges = 0;
    for (Map.Entry<String, MutationStaging.Counts> e : counts.entrySet()) {
      MutationStaging.Counts c = e.getValue();
      MutationResult.TableChanges t = new MutationResult.TableChanges(c.inserted(), c.updated(), c.deleted());
      tables.put(e.getKey(), t);
      if (e.getKey().startsWith("node:")) {
        nodes += t.total();
      } else {
        edges += t.total();
      }
    }
    return new MutationResult(plan.queryName(), commitId, nodes, edges, tables);
  }
}
