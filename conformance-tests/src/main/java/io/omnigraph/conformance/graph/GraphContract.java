package io.omnigraph.conformance.graph;

import io.omnigraph.api.Graph;
import io.omnigraph.api.OpenOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph contract (docs/server.md, "Graph contract suite"): what every {@link Graph} does —
 * load, mutate, export, commits, schema — with its results, typed errors and their HTTP statuses.
 * One abstract suite, bound to the embedded engine and to {@code HttpGraph} against a live server,
 * so the two can never drift. A binding implements {@link #createGraph} (a fresh graph with a
 * schema, whose writes are recorded under {@link #actor()}) and {@link #failAutomaticMaintenance}.
 *
 * <p>One {@link Nested} group per guarantee family, each group's tests in a class of their own
 * ({@code LoadGuarantees}, {@code MutationGuarantees}, {@code ReadGuarantees},
 * {@code BranchGuarantees}, {@code MergeGuarantees}, {@code SchemaGuarantees},
 * {@code HistoryAndHandleGuarantees}, sharing the helpers of {@code GraphContractGroup}), as the
 * storage TCK does; the {@code @Nested} classes below bind them to this suite's lifecycle (the
 * graphs a test created are closed after it).
 */
public abstract class GraphContract {
  /** A small library: two keyed node types and one edge type. */
  public static final String SCHEMA = """
      node Author {
        handle: String @key
        name: String?
        born: I32?
      }
      node Book {
        isbn: String @key
        title: String
        year: I32?
      }
      edge Wrote: Author -> Book
      """;

  public static final String MUTATIONS = """
      query add_author($handle: String, $name: String) {
        insert Author { handle: $handle, name: $name }
      }
      query rename($handle: String, $name: String) {
        update Author set { name: $name } where handle = $handle
      }
      query add_book($isbn: String, $title: String, $by: String) {
        insert Book { isbn: $isbn, title: $title }
        insert Wrote { from: $by, to: $isbn }
      }
      query drop_author($handle: String) {
        delete Author where handle = $handle
      }
      """;

  public static final String DATA = """
      {"type":"Author","data":{"handle":"okafor","name":"N. Okafor","born":1977}}
      {"type":"Author","data":{"handle":"berg","name":"A. Berg"}}
      {"type":"Book","data":{"isbn":"111","title":"Delta Tides","year":2011}}
      {"edge":"Wrote","from":"okafor","to":"111"}
      """;

  @TempDir protected Path tmp;

  private final List<Graph> opened = new ArrayList<>();

  /**
   * @param schema the {@code .pg} source
   * @return a fresh, empty graph with that schema; closed by the suite
   */
  protected abstract Graph createGraph(String schema);

  /** @return the actor every write of this binding is recorded under */
  protected abstract String actor();

  /**
   * @param schema the {@code .pg} source
   * @param options how the engine behind the binding opens the graph (its maintenance policy)
   * @return a fresh, empty graph with that schema, opened with {@code options}; closed by the suite
   */
  protected abstract Graph createGraph(String schema, OpenOptions options);

  /**
   * Makes every automatic maintenance run of the engine behind this binding fail after its table
   * effect (so recovery has an interrupted optimize to resolve) until the handle is closed.
   *
   * @return the handle that disarms the failure
   */
  protected abstract AutoCloseable failAutomaticMaintenance();

  protected final Graph create(String schema) {
    Graph g = createGraph(schema);
    opened.add(g);
    return g;
  }

  protected final Graph create(String schema, OpenOptions options) {
    Graph g = createGraph(schema, options);
    opened.add(g);
    return g;
  }

  @AfterEach
  void closeGraphs() {
    for (Graph g : opened) {
      g.close();
    }
    opened.clear();
  }

  /**
   * Loads: one commit by the actor, an export that loads back, typed refusals (409, 400, 412, 413) that
   * write nothing.
   */
  @Nested
  class Load extends LoadGuarantees {
    Load() {
      super(GraphContract.this);
    }
  }

  /**
   * Mutations: one commit with counts per table, typed refusals that write nothing, warnings after a
   * published write.
   */
  @Nested
  class Mutation extends MutationGuarantees {
    Mutation() {
      super(GraphContract.this);
    }
  }

  /** Reads: typed rows of one snapshot, typed errors, prepared queries and query checks. */
  @Nested
  class Read extends ReadGuarantees {
    Read() {
      super(GraphContract.this);
    }
  }

  /** Branches: fork, own commits, loads and mutations, export and snapshot; mistakes are typed errors. */
  @Nested
  class Branch extends BranchGuarantees {
    Branch() {
      super(GraphContract.this);
    }
  }

  /**
   * Merges: fast-forward or a merge commit; keyed edges converge; a conflict names its rows and writes
   * nothing.
   */
  @Nested
  class Merge extends MergeGuarantees {
    Merge() {
      super(GraphContract.this);
    }
  }

  /**
   * Schema and indices: the accepted source per branch, plans, applies and their refusals, ensure-
   * indices.
   */
  @Nested
  class Schema extends SchemaGuarantees {
    Schema() {
      super(GraphContract.this);
    }
  }

  /** Commits, export of chosen types, recoveries and a closed handle. */
  @Nested
  class HistoryAndHandle extends HistoryAndHandleGuarantees {
    HistoryAndHandle() {
      super(GraphContract.this);
    }
  }
}
