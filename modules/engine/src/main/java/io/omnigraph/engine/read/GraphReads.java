package io.omnigraph.engine.read;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.engine.gq.CheckedQuery;
import io.omnigraph.engine.gq.CheckedRead;
import io.omnigraph.engine.gq.GqCompiler;
import io.omnigraph.engine.gq.QueryAst;
import io.omnigraph.engine.gq.QueryException;
import io.omnigraph.engine.plan.ParamBinder;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.snapshot.GraphRef;
import io.omnigraph.engine.snapshot.GraphSnapshot;
import io.omnigraph.engine.snapshot.SnapshotResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Read queries (docs/queries.md): compile a {@code .gq} read query, resolve the target to one
 * {@link GraphSnapshot}, plan and run it there. Every row of one result comes from that one
 * snapshot. Thread-safe (holds no state).
 */
public final class GraphReads {
  private GraphReads() {}

  /** A read query checked against one schema, with its idle plans for that schema. */
  record Prepared(String queryName, String schemaHash, String gqText, CheckedRead checked, List<QueryResult.Column> columns,
      CompiledSchema schema, PlanPool plans) implements PreparedQuery {}

  /**
   * Parses and type-checks one read query. Pure.
   *
   * @throws InvalidInputException a parse or type error, a mutation, or no query of that name
   */
  public static PreparedQuery prepare(CompiledSchema schema, String gqText, String queryName) {
    Objects.requireNonNull(gqText, "gqText");
    Objects.requireNonNull(queryName, "queryName");
    CheckedRead read = check(schema, gqText, queryName);
    return new Prepared(queryName, schema.ir().hash(), gqText, read, ReadPlan.columns(schema.catalog(), read), schema,
        new PlanPool());
  }

  /** Type-checks every query of a file; see {@link io.omnigraph.api.Graph#checkQueries}. Pure. */
  public static List<io.omnigraph.api.QueryDiagnostic> checkAll(CompiledSchema schema, String gqText) {
    Objects.requireNonNull(gqText, "gqText");
    List<io.omnigraph.api.QueryDiagnostic> out = new ArrayList<>();
    QueryAst.File file;
    try {
      file = GqCompiler.parse(gqText);
    } catch (QueryException e) {
      out.add(diagnostic(null, null, e));
      return out;
    }
    for (QueryAst.QueryDecl d : file.queries()) {
      String kind = d.body() instanceof QueryAst.ReadBody ? "read" : "mutation";
      try {
        CheckedQuery q = GqCompiler.check(schema.catalog(), d);
        if (q instanceof CheckedRead r) {
          ReadPlan.columns(schema.catalog(), r);
        }
        out.add(io.omnigraph.api.QueryDiagnostic.ok(d.name(), kind));
      } catch (QueryException e) {
        out.add(diagnostic(d.name(), kind, e));
      } catch (InvalidInputException e) {
        out.add(new io.omnigraph.api.QueryDiagnostic(d.name(), kind, "unsupported_query", null, null, e.getMessage()));
      }
    }
    return out;
  }

  private static io.omnigraph.api.QueryDiagnostic diagnostic(String name, String kind, QueryException e) {
    return new io.omnigraph.api.QueryDiagnostic(name, kind, e.code().rule(), e.line() > 0 ? (long) e.line() : null,
        e.line() > 0 ? (long) e.column() : null, e.getMessage());
  }

  private static CheckedRead check(CompiledSchema schema, String gqText, String queryName) {
    try {
      CheckedQuery checked = GqCompiler.compile(schema.catalog(), gqText, queryName);
      if (!(checked instanceof CheckedRead r)) {
        throw new InvalidInputException("query '" + queryName + "' is a mutation; query runs read queries"
            + " (match … return …); run mutations with mutate", new ErrorDetail.Validation(null, null, null, "not_a_read"));
      }
      return r;
    } catch (QueryException e) {
      throw e.toInvalidInput();
    }
  }

  /**
   * Runs a read query on the snapshot {@code options} names.
   *
   * @param snapshots the graph's ref resolver
   * @param query from {@link #prepare}
   */
  public static QueryResult run(SnapshotResolver snapshots, PreparedQuery query, QueryParams params, QueryOptions options) {
    return execute(snapshots, query, params, options, false).result;
  }

  /** Plans a read query on the snapshot {@code options} names and describes the plan. */
  public static String explain(SnapshotResolver snapshots, PreparedQuery query, QueryParams params, QueryOptions options) {
    return execute(snapshots, query, params, options, true).explain;
  }

  private record Outcome(QueryResult result, String explain) {}

  private static Outcome execute(SnapshotResolver snapshots, PreparedQuery query, QueryParams params,
      QueryOptions options, boolean explainOnly) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(params, "params");
    Objects.requireNonNull(options, "options");
    if (!(query instanceof Prepared p)) {
      throw new InvalidInputException("query '" + query.queryName() + "' was not prepared by this engine",
          new ErrorDetail.Validation(null, null, null, "stale_query"));
    }
    try (GraphSnapshot snap = snapshots.resolveForRead(ref(options))) {
      CheckedRead checked = p.checked();
      // the resolver hands out the schema object it verified last, so identity is the common case
      boolean sameSchema = snap.schema() == p.schema() || snap.schema().ir().hash().equals(p.schemaHash());
      if (!sameSchema) {
        checked = check(snap.schema(), p.gqText(), p.queryName());
      }
      Map<String, Object> bound = bind(checked, params);
      long now = System.currentTimeMillis();
      // a plan depends on the schema only: the prepared query's plans serve every snapshot of its schema
      ReadPlan plan = sameSchema && !explainOnly ? p.plans().take(bound, now) : null;
      boolean reused = plan != null;
      if (plan == null) {
        plan = ReadPlan.plan(snap.schema().catalog(), checked, bound, now);
      }
      String commit = commitOf(snap);
      if (explainOnly) {
        return new Outcome(null, "snapshot " + snap.ref().text() + " @ commit " + commit + "\n" + plan.explain(s -> s.query() == null || TextSearch.queryTokens(s.query()).isEmpty() ? "no query tokens: matches nothing"
            : !ReadExecutor.forcedSearch().equals("memory")
                && snap.hasIndex(s.binding.tableKey(), new io.omnigraph.engine.table.IndexSpec.Inverted(s.column, null).name())
                ? "Lance inverted index" : "in memory, no inverted index")
            + (plan.nearest == null ? "" : new ReadExecutor(snap, plan).vectorIndexFor(((Op.Scan) plan.ops.get(0)).binding()) != null
                ? "  nearest: Lance vector index " + plan.nearest.column() + "_vec (every partition probed: exact top-" + plan.limit
                    + ", prefiltered)\n"
                : "  nearest: exact scan, executor top-" + plan.limit + " heap\n"));
      }
      ReadExecutor executor = new ReadExecutor(snap, plan);
      executor.count(reused ? "plan reused" : "plan built");
      List<Object[]> rows = executor.run();
      List<Object[]> typed = new ArrayList<>(rows.size());
      for (Object[] r : rows) {
        Object[] t = new Object[r.length];
        for (int i = 0; i < r.length; i++) {
          t[i] = ReadValues.toApi(plan.projections.get(i).type(), r[i]);
        }
        typed.add(t);
      }
      Outcome out = new Outcome(new ReadResult(p.queryName(), commit,
          plan.projections.stream().map(ReadPlan.Projection::column).toList(), typed), null);
      if (sameSchema) {
        p.plans().give(plan); // only after a complete run: a failed run's plan is dropped
      }
      return out;
    }
  }

  private static String commitOf(GraphSnapshot snap) {
    if (snap.ref() instanceof GraphRef.Commit c) {
      return c.commitId();
    }
    return snap.manifest().headCommitId(snap.ref().text()).orElse(null);
  }

  private static GraphRef ref(QueryOptions options) {
    if (options.commitId().isPresent()) {
      return GraphRef.commit(options.commitId().get());
    }
    return options.branch().map(GraphRef::branch).orElse(GraphRef.main());
  }

  private static Map<String, Object> bind(CheckedRead checked, QueryParams params) {
    try {
      Map<String, ?> supplied;
      if (params instanceof QueryParams.Values v) {
        supplied = v.values();
      } else if (params instanceof QueryParams.Json j) {
        supplied = io.omnigraph.engine.plan.QueryParams.fromJson(j.text());
      } else {
        supplied = io.omnigraph.engine.plan.QueryParams.fromPairs(((QueryParams.Pairs) params).pairs());
      }
      List<QueryAst.ParamDecl> decls = checked.params();
      return ParamBinder.bindValues(decls, supplied);
    } catch (QueryException e) {
      throw e.toInvalidInput();
    }
  }
}
