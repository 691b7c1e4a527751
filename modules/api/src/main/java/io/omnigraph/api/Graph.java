package io.omnigraph.api;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * An open graph. Obtained from {@link Omnigraph#init} or {@link Omnigraph#open}; close it when done.
 * A {@code Graph} is safe for use by several threads; writes through one handle are serialized.
 *
 * <p>Every method throws only {@link OmnigraphException} subclasses (unchecked); an
 * {@link java.io.IOException} from a caller-supplied stream is reported as {@link StorageFailureException}
 * for output and {@link InvalidInputException} for input.
 */
public interface Graph extends AutoCloseable {

  /** @return the graph root URI as given to {@code init}/{@code open} */
  String uri();

  /**
   * Loads NDJSON as one graph commit. Node lines are {@code {"type":T,"data":{...}}}, edge lines
   * {@code {"edge":E,"from":id,"to":id,"data":{...}}}; blank lines are skipped. The whole input is
   * validated before anything is written; any failure publishes nothing.
   *
   * @param mode how rows combine with existing rows (see {@link LoadMode})
   * @param ndjson the input; read to the end, not closed
   * @param options actor, message, progress listener
   * @return the commit and row counts
   * @throws InvalidInputException a line is invalid (the detail names line and field)
   * @throws ConflictException an existing id in {@link LoadMode#APPEND}, or a concurrent writer won
   * @throws ResourceLimitException more than 8,192 rows or 32 MiB for one table in append/merge
   * @throws StorageFailureException the backend failed
   */
  LoadResult load(LoadMode mode, InputStream ndjson, LoadOptions options);

  /**
   * Same as {@link #load(LoadMode, InputStream, LoadOptions)} reading a file.
   *
   * @throws InvalidInputException also when the file cannot be read
   */
  LoadResult load(LoadMode mode, Path ndjson, LoadOptions options);

  /**
   * Runs one named mutation query of a {@code .gq} file as one atomic graph commit. The file is
   * parsed and the query type-checked against the schema, and the parameters bound, before any
   * I/O. Statements run in order; later statements see the rows earlier ones wrote (a pending row
   * replaces its committed version by id). Nothing is written until every statement and every
   * check (values, {@code @unique}, edge endpoints, {@code @card}) has passed; then each touched
   * table gets exactly one Lance transaction and the graph exactly one commit. A query that
   * matches nothing publishes no commit ({@link MutationResult#commitId()} is {@code null}).
   *
   * <p>A keyed node {@code insert} is an upsert (its id derives from the key and replaces an
   * existing row); unkeyed node and all edge inserts get fresh ULIDs. A node {@code delete} also
   * deletes every incident edge in the same commit. A query that mixes {@code delete} with {@code
   * insert}/{@code update} is refused: split it into two mutations.
   *
   * @param gqText the {@code .gq} file's text
   * @param queryName the mutation query to run
   * @param params the parameter values
   * @param options actor, message, expected head
   * @return counts per table and the commit id
   * @throws InvalidInputException a parse or type error (with line:column), a query that mixes
   *     deletes with inserts/updates, a read query, a bad parameter value, or a violated schema
   *     rule (the detail names the rule)
   * @throws ResourceLimitException a table's inserts, upserts and update matches exceed 8,192
   *     rows or 32 MiB; nothing was written
   * @throws ConflictException a concurrent writer changed what the mutation read, or a strict
   *     insert met an existing id
   * @throws PreconditionFailedException {@link MutationOptions#expectedHead()} is not main's head
   * @throws StorageFailureException the backend failed
   */
  MutationResult mutate(String gqText, String queryName, QueryParams params, MutationOptions options);

  /**
   * Parses a {@code .gq} file and type-checks one mutation query against this graph's schema, so it
   * can be run many times without re-parsing. No I/O.
   *
   * @param gqText the {@code .gq} file's text
   * @param queryName the mutation query
   * @return the checked query
   * @throws InvalidInputException a parse or type error (line:column in the detail), a query that
   *     mixes deletes with inserts/updates, a read query, or no query of that name
   */
  PreparedMutation prepareMutation(String gqText, String queryName);

  /**
   * Runs a prepared mutation; otherwise exactly {@link #mutate(String, String, QueryParams,
   * MutationOptions)}.
   *
   * @throws InvalidInputException also when {@code query} was prepared for a different schema
   */
  MutationResult mutate(PreparedMutation query, QueryParams params, MutationOptions options);

  // --- reads ---

  /**
   * Runs one named read query ({@code match … return …}) of a {@code .gq} file against one graph
   * snapshot: the head of the branch named in {@code options} (default {@code main}) or one commit.
   * The file is parsed, the query type-checked against the snapshot's schema and the parameters
   * bound before any row is read. The whole query reads exactly that snapshot, whatever writers
   * publish meanwhile. Semantics: docs/queries.md.
   *
   * @param gqText the {@code .gq} file's text
   * @param queryName the read query to run
   * @param params the parameter values
   * @param options the branch or commit to read
   * @return the result (close it)
   * @throws InvalidInputException a parse or type error (line:column in the detail), a mutation
   *     query, or a bad parameter value
   * @throws NotFoundException the branch or commit does not exist
   * @throws StorageFailureException the backend failed
   */
  QueryResult query(String gqText, String queryName, QueryParams params, QueryOptions options);

  /**
   * Parses a {@code .gq} file and type-checks one read query against this graph's schema. No I/O.
   *
   * @param gqText the {@code .gq} file's text
   * @param queryName the read query
   * @return the checked query
   * @throws InvalidInputException a parse or type error, a mutation query, or no query of that name
   */
  PreparedQuery prepareQuery(String gqText, String queryName);

  /**
   * Runs a prepared read query; otherwise exactly {@link #query(String, String, QueryParams,
   * QueryOptions)} (the query is re-checked when the snapshot's schema differs from the one it
   * was prepared against).
   */
  QueryResult query(PreparedQuery query, QueryParams params, QueryOptions options);

  /**
   * Plans a read query against the snapshot {@code options} names without running it, and
   * describes the plan: scans with the filters pushed into Lance and the columns read, traversal
   * strategies, joins, negations, aggregation, ordering and limit.
   *
   * @return the plan as indented text, one operator per line
   * @throws InvalidInputException as {@link #query(String, String, QueryParams, QueryOptions)}
   */
  String explainQuery(String gqText, String queryName, QueryParams params, QueryOptions options);

  /**
   * Parses a {@code .gq} file and type-checks every query in it (reads and mutations) against this
   * graph's schema, without stopping at the first bad query: for editors and CI. No I/O.
   *
   * @param gqText the {@code .gq} file's text
   * @return one diagnostic per query in source order, or one file-level diagnostic when the file
   *     does not parse
   */
  java.util.List<QueryDiagnostic> checkQueries(String gqText);

  /**
   * Writes the graph's current contents as NDJSON that {@link LoadMode#OVERWRITE} (or, into an empty
   * graph, {@link LoadMode#APPEND}) loads back identically: all nodes first, then all edges, tables
   * in schema order, rows sorted by id, keys in schema order.
   *
   * @param out where to write; flushed, not closed
   * @throws StorageFailureException the backend or {@code out} failed
   */
  default void export(OutputStream out) {
    export(out, ExportOptions.defaults());
  }

  /**
   * {@link #export(OutputStream)} of the state {@code options} names (a branch head, default
   * {@code main}, or one commit), optionally only some node and edge types. The one export that the
   * CLI, the server and {@code HttpGraph} share: type filtering reads only the chosen tables.
   *
   * @param out where to write; flushed, not closed
   * @param options the branch or commit, and the types
   * @throws InvalidInputException a type name the snapshot's schema does not have (rule
   *     {@code unknown_type}, field {@code type_names}); nothing is written
   * @throws NotFoundException no such branch or commit
   * @throws StorageFailureException the backend or {@code out} failed
   */
  void export(OutputStream out, ExportOptions options);

  /**
   * @return the graph's commits, newest first (genesis last)
   * @throws StorageFailureException the backend failed
   */
  List<CommitInfo> commits();

  /**
   * @param commitId a full commit id
   * @return the commit, or empty when there is none with that id
   */
  Optional<CommitInfo> commit(String commitId);

  // --- branches ---

  /**
   * @return every branch of the graph, {@code main} first, then by name (docs/branches.md)
   * @throws StorageFailureException the backend failed
   */
  List<BranchInfo> branches();

  /**
   * Creates a branch. Only the branch's manifest forks; tables fork lazily on the first write to
   * them on the branch. Nothing is written when a rule fails.
   *
   * @param name the new branch's name ({@code /}-separated segments of ASCII letters, digits,
   *     {@code _ . -}; not a path ancestor or descendant of a live branch)
   * @param from a branch name (its head) or a commit id; {@code null} for {@code main}
   * @return the new branch
   * @throws InvalidInputException an invalid name (rule {@code invalid_branch_name})
   * @throws ConflictException the name exists ({@code branch_exists}) or overlaps a live branch's
   *     path ({@code branch_path_overlap})
   * @throws NotFoundException {@code from} is no branch and no commit
   */
  BranchInfo createBranch(String name, String from);

  /**
   * Deletes a branch (never {@code main}). Its commits stay reachable only from branches created
   * from it or merged from it.
   *
   * @throws InvalidInputException the name is {@code main}
   * @throws NotFoundException there is no such branch (rule {@code unknown_branch})
   * @throws ConflictException another branch was created from it ({@code branch_has_children}), or
   *     it was re-created while this delete ran ({@code read_set_conflict} on
   *     {@code branch_identifier:<name>})
   */
  void deleteBranch(String name);

  /**
   * @param branch a branch name
   * @return the commits visible on that branch, newest first: its own and those it inherited
   * @throws NotFoundException no such branch
   */
  List<CommitInfo> commits(String branch);

  /**
   * {@link #export(OutputStream)} of a branch's head.
   *
   * @throws NotFoundException no such branch
   */
  default void export(OutputStream out, String branch) {
    export(out, ExportOptions.onBranch(branch));
  }

  /**
   * {@link #export(OutputStream)} of the graph as one commit left it.
   *
   * @throws NotFoundException no such commit
   */
  default void exportCommit(OutputStream out, String commitId) {
    export(out, ExportOptions.atCommit(commitId));
  }

  /**
   * Merges branch {@code source} into branch {@code target} (docs/branches.md, "Merge"). The merge
   * captures the source's head, finds the merge base from the commit lineage (both parent links;
   * closest, then newest) and decides every row with the three-way truth table. Outcomes: already
   * up to date (nothing written), fast-forward (the target adopts the source's table versions in
   * one commit), or a merge commit with two parents (target head, captured source head). The merged
   * graph is validated (edge endpoints, {@code @unique}, {@code @card}, value constraints) before
   * anything is written. A conflict writes nothing.
   *
   * @param source the branch merged from
   * @param target the branch merged into ({@code null}: {@code main})
   * @param options actor, message, whether to delete the source afterwards
   * @return the outcome, the commit, per-table counts
   * @throws ConflictException with {@link ErrorDetail.MergeConflicts} when rows conflict or the
   *     merged graph would break a schema rule (nothing written); {@code read_set_conflict} when the
   *     target moved while the merge was prepared (nothing written; retry)
   * @throws NotFoundException either branch does not exist ({@code unknown_branch})
   * @throws InvalidInputException source and target are the same branch ({@code merge_same_branch})
   * @throws ResourceLimitException a table's merge needs more than 1,024 transactions, or a row is
   *     over 32 MiB (nothing written)
   * @throws RecoveryRequiredException the merge failed after its recovery sidecar was armed; the
   *     next read-write open, write or {@code omnigraph repair} completes or undoes it
   * @throws StorageFailureException the backend failed
   */
  MergeResult merge(String source, String target, MergeOptions options);

  /** @return the accepted schema of {@code main}'s head */
  SchemaInfo schema();

  /**
   * The schema of a branch's head. Every branch has the schema of the commit it stands on: a branch
   * made from a commit older than a schema apply keeps that commit's schema.
   *
   * @param branch a branch name ({@code null}: main)
   * @return that head's schema
   * @throws NotFoundException no such branch (rule {@code unknown_branch})
   */
  SchemaInfo schema(String branch);

  // --- schema & maintenance ---

  /**
   * Plans the change from the accepted schema to {@code pgText} (docs/schema-migration.md) without
   * writing anything: one step per supported change, one {@code unsupported_change} step (entity,
   * reason, stable code) per change the graph cannot make.
   *
   * @param pgText the desired {@code .pg} source
   * @return the plan
   * @throws InvalidInputException the text does not compile, or a {@code @rename_from} names nothing
   *     the accepted schema has (rule {@code schema_identity})
   */
  SchemaPlan planSchema(String pgText);

  /**
   * Plans and applies a schema change as one recoverable graph commit (docs/schema-migration.md):
   * tables that change shape are rewritten, new types get new tables, and the schema files are
   * promoted once the commit is visible. Existing rows read back unchanged. Applying the accepted
   * schema again changes nothing ({@link SchemaApplyResult#applied()} is {@code false}).
   *
   * @param pgText the desired {@code .pg} source
   * @param options data-loss permission, actor, message
   * @return what was applied
   * @throws InvalidInputException the text does not compile; the plan has an unsupported change
   *     (rule {@code unsupported_schema_change}, the message prefixed with the change's code); or a
   *     drop without {@code allowDataLoss} where the data would be lost
   * @throws ConflictException the graph has branches other than main (rule
   *     {@code schema_apply_branches}), or another write published meanwhile
   * @throws RecoveryRequiredException an interrupted write is pending, or this apply was
   *     interrupted after an effect
   * @throws StorageFailureException the backend failed
   */
  SchemaApplyResult applySchema(String pgText, SchemaApplyOptions options);

  /**
   * Builds every index the schema calls for that the graph lacks (docs/indexes.md): BTREE on every
   * table's {@code id} and every edge's {@code src}/{@code dst}; per {@code @index}/{@code @key}
   * property the index its type calls for. One Lance CreateIndex transaction per table, published as
   * one graph commit through the write protocol (recoverable after a crash). Existing indexes are
   * never rebuilt; when nothing is missing no commit is made. Queries and writes are correct
   * without indexes; with them, id probes and key joins read less.
   *
   * @return every wanted index and whether it was created, already present or deferred
   * @throws RecoveryRequiredException an interrupted write needs a rollback first
   * @throws ConflictException another write published meanwhile ({@code read_set_conflict}); retry
   * @throws StorageFailureException the backend failed
   */
  EnsureIndicesResult ensureIndices();

  /**
   * {@link #ensureIndices()} restricted to the key indexes (docs/indexes.md, "Key indexes only"):
   * BTREE on every table's {@code id} and on every edge's {@code src} and {@code dst} — what a
   * 1-row write's id probe and a traversal's endpoint lookup use, and what an embedded graph
   * database builds for its primary keys and adjacency during a bulk load. Property indexes
   * ({@code @index}/{@code @key}: BTREE, full-text, vector) are neither built nor reported; a later
   * {@link #ensureIndices()} adds them. Same write protocol and errors as {@link #ensureIndices()}.
   *
   * @return every key index and whether it was created, already present or deferred
   * @throws RecoveryRequiredException an interrupted write needs a rollback first
   * @throws ConflictException another write published meanwhile ({@code read_set_conflict}); retry
   * @throws StorageFailureException the backend failed
   */
  EnsureIndicesResult ensureKeyIndices();

  /**
   * Compacts every table with more than one fragment, folds fragments appended since an index was
   * built into it, builds missing indexes, and publishes all of it as one graph commit under one
   * recovery sidecar; then compacts {@code __manifest} (docs/maintenance.md). Rows never change;
   * every commit stays readable until {@link Omnigraph#cleanup} removes what no commit pins.
   *
   * @return per optimized table the versions, fragments and indexes; the commit, or {@code null}
   *     when no table needed work
   * @throws RecoveryRequiredException an interrupted write is pending, or the optimize itself was
   *     interrupted after a table effect (the next write or open publishes it)
   * @throws StorageFailureException the backend failed
   */
  OptimizeResult optimize();

  /**
   * The recovery audit: one record per interrupted write that a recovery sweep rolled forward or
   * back, oldest first (see {@link Omnigraph#repair}). Empty when no write was ever interrupted.
   *
   * @return the audit records
   */
  List<RecoveryRecord> recoveries();

  // --- snapshot (server) ---

  /**
   * Describes a branch head: its commit, manifest version, and every table's dataset path, published
   * version, native branch and entity count. Reads the manifest only.
   *
   * @param branch a branch name ({@code null}: main)
   * @return the head's description
   * @throws NotFoundException no such branch (rule {@code unknown_branch})
   * @throws StorageFailureException the backend failed
   */
  SnapshotInfo snapshot(String branch);

  /** Releases resources. Idempotent; later calls on this handle fail with {@link InvalidInputException}. */
  @Override
  void close();
}
