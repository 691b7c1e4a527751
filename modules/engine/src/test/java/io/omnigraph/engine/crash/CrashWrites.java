package io.omnigraph.engine.crash;

import io.omnigraph.api.LoadMode;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.engine.failpoint.Failpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The writes the crash tests run on the people graph ({@link io.omnigraph.testkit.graph.PeopleGraph}):
 * the base data, each load and mutation under test with the model of its effect, the follow-up
 * write, and a look at the pending recovery sidecars.
 */
final class CrashWrites {
  private CrashWrites() {}

  static final String BASE = """
      {"type":"Person","data":{"name":"p0","age":30}}
      {"type":"Person","data":{"name":"p1","age":31}}
      {"type":"Person","data":{"name":"p2"}}
      {"type":"Company","data":{"title":"c0"}}
      {"type":"Company","data":{"title":"c1"}}
      {"edge":"WorksAt","from":"p0","to":"c0","data":{"id":"e0","since":2001}}
      {"edge":"WorksAt","from":"p1","to":"c1","data":{"id":"e1"}}
      """;

  /** Edge type → [source type, target type], for the model's node-delete cascade. */
  static final Map<String, List<String>> EDGE_ENDS = Map.of("WorksAt", List.of("Person", "Company"));

  /** The mutations the crash tests run, over {@link io.omnigraph.testkit.graph.PeopleGraph#SCHEMA}. */
  static final String GQ = """
      query hire($name: String, $company: String, $since: I32?) {
        insert Person { name: $name }
        insert Company { title: $company }
        insert WorksAt { from: $name, to: $company, since: $since }
      }
      query set_age($name: String, $age: I32) {
        update Person set { age: $age } where name = $name
      }
      query fire($name: String) {
        delete Person where name = $name
      }
      query nobody() {
        update Person set { age: 1 } where name = "nobody"
      }
      """;

  /**
   * A write under test: a load (mode and input) or a mutation (query of {@link #GQ} and its
   * parameters as JSON), how many tables it commits (0: it changes nothing), the model of its
   * effect, and the failpoints only this writer passes.
   */
  record Writer(String name, LoadMode mode, String ndjson, String query, String params, int tables,
      java.util.function.UnaryOperator<GraphModel> effect, List<String> ownFailpoints) {
    static Writer load(String name, LoadMode mode, String ndjson, int tables) {
      return new Writer(name, mode, ndjson, null, null, tables, m -> m.apply(mode, ndjson), List.of());
    }

    static Writer mutation(String name, String query, String params, int tables,
        java.util.function.UnaryOperator<GraphModel> effect, String... ownFailpoints) {
      return new Writer(name, null, null, query, params, tables, effect, List.of(ownFailpoints));
    }

    /** A maintenance writer (the child's operation name): no data change, the model stays as it was. */
    static Writer maintenance(String name, String operation, int tables) {
      return new Writer(name, null, null, null, operation, tables, m -> m, List.of());
    }

    boolean isMutation() {
      return query != null;
    }

    boolean isMaintenance() {
      return query == null && mode == null;
    }

    /** @return the child's operation arguments; {@code input} is the ndjson or .gq file */
    List<String> childArgs(Path input) {
      if (isMaintenance()) {
        return List.of(params);
      }
      return isMutation() ? List.of("mutate", input.toString(), query, params)
          : List.of("load", mode.wireName(), input.toString());
    }

    /** @return the text of the child's input file */
    String input() {
      return isMutation() || isMaintenance() ? GQ : ndjson;
    }

    /**
     * @return whether two models are the same graph for this writer (a mutation's inserted edges
     *     carry fresh ids, so its models are compared with edges keyed by content)
     */
    boolean same(GraphModel a, GraphModel b) {
      return isMutation() ? a.withoutEdgeIds().equals(b.withoutEdgeIds()) : a.equals(b);
    }
  }

  static final Writer MERGE3 = Writer.load("load merge (3 tables)", LoadMode.MERGE, """
      {"type":"Person","data":{"name":"p1","age":41}}
      {"type":"Person","data":{"name":"p3","age":23}}
      {"type":"Company","data":{"title":"c2"}}
      {"edge":"WorksAt","from":"p3","to":"c2","data":{"id":"e3","since":2023}}
      """, 3);
  static final Writer APPEND2 = Writer.load("load append (2 tables)", LoadMode.APPEND, """
      {"type":"Person","data":{"name":"p4"}}
      {"edge":"WorksAt","from":"p4","to":"c1","data":{"id":"e4","since":2024}}
      """, 2);
  static final Writer OVERWRITE2 = Writer.load("load overwrite (2 tables)", LoadMode.OVERWRITE, """
      {"type":"Person","data":{"name":"q0","age":50}}
      {"type":"Person","data":{"name":"q1"}}
      {"edge":"WorksAt","from":"q0","to":"c1","data":{"id":"f0"}}
      """, 2);
  /** Strict inserts into all three tables (the edge gets a fresh id). */
  static final Writer HIRE3 = Writer.mutation("mutation insert (3 tables)", "hire",
      "{\"name\":\"p5\",\"company\":\"c5\",\"since\":2025}", 3, m -> m.apply(LoadMode.MERGE, """
          {"type":"Person","data":{"name":"p5"}}
          {"type":"Company","data":{"title":"c5"}}
          {"edge":"WorksAt","from":"p5","to":"c5","data":{"id":"(fresh)","since":2025}}
          """));
  /** A node delete cascading to its edge: one commit over two tables. */
  static final Writer FIRE2 = Writer.mutation("mutation delete (2 tables)", "fire", "{\"name\":\"p0\"}", 2,
      m -> m.deleteNode("Person", "p0", EDGE_ENDS), Failpoints.WRITE_DELETE_NODE_PRE_PRIMARY_DELETE);
  /** An update of one row (a mutation may not mix updates and deletes). */
  static final Writer SET_AGE1 = Writer.mutation("mutation update (1 table)", "set_age",
      "{\"name\":\"p1\",\"age\":77}", 1,
      m -> m.apply(LoadMode.MERGE, "{\"type\":\"Person\",\"data\":{\"name\":\"p1\",\"age\":77}}\n"));
  /** A mutation that matches nothing: no effect, no commit. */
  static final Writer NOBODY = Writer.mutation("mutation matching nothing", "nobody", "{}", 0, m -> m,
      Failpoints.WRITE_POST_NO_EFFECT);

  /** Builds the indexes of all three tables of the people graph (one CreateIndex transaction each). */
  static final Writer ENSURE_INDICES3 = Writer.maintenance("ensure-indices (3 tables)", "ensure-indices", 3);

  /** Compacts, and builds the missing indexes of, all three tables (each with two fragments). */
  static final Writer OPTIMIZE3 = Writer.maintenance("optimize (3 tables)", "optimize", 3);
  /** Loaded before {@link #OPTIMIZE3} runs: a second fragment in every table. */
  static final String OPTIMIZE_SETUP = """
      {"type":"Person","data":{"name":"p7","age":37}}
      {"type":"Company","data":{"title":"c7"}}
      {"edge":"WorksAt","from":"p7","to":"c7","data":{"id":"e7","since":2007}}
      """;

  /**
   * A schema apply over the people graph: Person and WorksAt gain a nullable property (two exact
   * Overwrite rewrites, rows unchanged), a new node type Pet is created (a version-one create) and
   * Company gets a description (metadata). The export is the same before and after, so the cells
   * tell the two apart by commits, audit rows and the accepted schema.
   */
  static final String SCHEMA_APPLY_PG = io.omnigraph.testkit.graph.PeopleGraph.SCHEMA
      .replace("age: I32?", "age: I32?\n  nick: String?").replace("since: I32?", "since: I32?\n  role: String?")
      .replace("node Company {", "node Company @description(\"employers\") {")
      + "node Pet {\n  tag: String @key\n}\n";
  /** Rewrites two tables and creates one: every SchemaApply failpoint. */
  static final Writer SCHEMA_APPLY3 = Writer.maintenance("schema apply (2 rewrites, 1 create)", "schema-apply", 3);

  /** The next write after a crash: touches every table, so a table left drifted cannot hide. */
  static final String FOLLOW_UP = """
      {"type":"Person","data":{"name":"z9","age":99}}
      {"type":"Company","data":{"title":"after-crash"}}
      {"edge":"WorksAt","from":"z9","to":"after-crash","data":{"id":"z9e"}}
      """;

  static List<String> sidecars(String uri, Map<String, String> options) {
    try (StorageAdapter a = StorageAdapters.open(uri, options)) {
      return a.list("__recovery").toList();
    } catch (StorageException e) {
      throw new AssertionError("cannot list __recovery/ of " + uri, e);
    }
  }

  /** @return a new file under {@code dir} holding {@code text}: a child writer's input */
  static Path inputFile(Path dir, String text) {
    try {
      Path p = Files.createTempFile(dir, "input-", ".ndjson");
      Files.writeString(p, text);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
