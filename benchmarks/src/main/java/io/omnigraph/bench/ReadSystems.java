package io.omnigraph.bench;

import com.kuzudb.Connection;
import com.kuzudb.Database;
import com.kuzudb.FlatTuple;
import com.kuzudb.PreparedStatement;
import com.kuzudb.Value;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.PreparedQuery;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Result;
import org.neo4j.graphdb.Transaction;

/**
 * The three systems of the read benchmark, each on its fastest documented embedded path, asking
 * the same six questions of the same data ({@link ReadBenchData}):
 *
 * <ul>
 *   <li>{@code point}: one person by key (name, age);
 *   <li>{@code scan}: persons aged 75 or more, by age descending then name, first 20;
 *   <li>{@code hop1}: the distinct names of the persons one person knows;
 *   <li>{@code hop2}: the distinct names of the persons within two Knows hops of one person, not
 *       counting the person itself;
 *   <li>{@code aggregate}: persons per company, the top 10 by count then company name;
 *   <li>{@code negation}: the keys of the persons with no employer.
 * </ul>
 *
 * OmniGraph: prepared {@code .gq} queries through {@link Graph#query(PreparedQuery, QueryParams,
 * QueryOptions)} on local disk or on the S3 emulator, after one {@link Graph#ensureIndices()} (its
 * BTREE indexes on {@code id}, {@code src}, {@code dst}); Kùzu: prepared statements on one
 * connection; Neo4j embedded: Cypher in a read transaction, with uniqueness constraints (and so
 * indexes) on both keys.
 */
final class ReadSystems {
  static final List<String> QUERIES = List.of("point", "scan", "hop1", "hop2", "aggregate", "negation");
  static final List<String> KEYED = List.of("point", "hop1", "hop2");
  /** Queries whose answer is a set: rows are sorted before they are compared across systems. */
  static final List<String> UNORDERED = List.of("hop1", "hop2", "negation");

  private ReadSystems() {}

  interface ReadSystem extends AutoCloseable {
    /** Builds the store in {@code dir} (not measured). */
    void prepare(ReadBenchData data, Path dir) throws Exception;

    /** Opens the prepared store and prepares the queries. */
    void open(ReadBenchData data, Path dir) throws Exception;

    /** @return the rows of one execution, each rendered as {@code v1|v2|...} */
    List<String> run(String query, String key) throws Exception;

    @Override
    void close() throws Exception;
  }

  static ReadSystem create(String name) {
    return switch (name) {
      case "omnigraph" -> new OmniGraphSystem(false);
      case "omnigraph-s3" -> new OmniGraphSystem(true);
      case "kuzu" -> new KuzuSystem();
      case "neo4j" -> new Neo4jSystem();
      default -> throw new IllegalArgumentException("unknown system " + name);
    };
  }

  // ---- OmniGraph ----

  static final String GQ = """
      query point($k: String) {
        match { $p: Person { pid: $k } }
        return { $p.name, $p.age }
      }
      query scan() {
        match { $p: Person  $p.age >= 75 }
        return { $p.name, $p.age }
        order { $p.age desc, $p.name asc }
        limit 20
      }
      query hop1($k: String) {
        match { $p: Person { pid: $k }  $p knows $f }
        return { $f.name }
      }
      query hop2($k: String) {
        match { $p: Person { pid: $k }  $p knows{1,2} $f }
        return { $f.name }
      }
      query aggregate() {
        match { $p: Person  $p worksAt $c }
        return { $c.name as company, count($p) as n }
        order { n desc, company asc }
        limit 10
      }
      query negation() {
        match { $p: Person  not { $p worksAt $_ } }
        return { $p.pid }
      }
      """;

  static final class OmniGraphSystem implements ReadSystem {
    private final boolean s3;
    private S3ProxyServer server;
    private String uri;
    private OpenOptions options = OpenOptions.defaults();
    private Graph graph;
    private final Map<String, PreparedQuery> prepared = new LinkedHashMap<>();

    OmniGraphSystem(boolean s3) {
      this.s3 = s3;
    }

    private void locate(Path dir) {
      if (s3) {
        if (server == null) {
          server = S3ProxyServer.start();
          uri = "s3://" + server.createBucket() + "/graphs/bench";
          options = new OpenOptions(S3AdapterOptions.forEmulator(server.endpoint()));
        }
      } else {
        uri = dir.resolve("graph").toString();
      }
    }

    @Override
    public void prepare(ReadBenchData data, Path dir) throws IOException {
      locate(dir);
      Files.createDirectories(dir);
      Path ndjson = dir.resolve("data.ndjson");
      data.writeNdjson(ndjson);
      try (Graph g = Omnigraph.init(uri, ReadBenchData.SCHEMA, options)) {
        g.load(LoadMode.OVERWRITE, ndjson, LoadOptions.defaults());
        // the engine's documented index build (docs/indexes.md), as the peers get their key indexes
        g.ensureIndices();
      }
      Files.delete(ndjson);
    }

    @Override
    public void open(ReadBenchData data, Path dir) throws IOException {
      if (s3) {
        // The emulator keeps objects in this JVM's memory: the store is built here, unmeasured.
        prepare(data, dir);
      }
      locate(dir);
      graph = Omnigraph.open(uri, options);
      for (String q : QUERIES) {
        prepared.put(q, graph.prepareQuery(GQ, q));
      }
    }

    @Override
    public List<String> run(String query, String key) {
      QueryParams params = KEYED.contains(query) ? QueryParams.of(Map.of("k", key)) : QueryParams.none();
      List<String> rows = new ArrayList<>();
      try (QueryResult r = graph.query(prepared.get(query), params, QueryOptions.defaults())) {
        int n = r.columns().size();
        for (QueryResult.Row row : r.rows()) {
          StringBuilder sb = new StringBuilder();
          for (int c = 0; c < n; c++) {
            sb.append(c == 0 ? "" : "|").append(row.get(c));
          }
          rows.add(sb.toString());
        }
      }
      return rows;
    }

    @Override
    public void close() {
      if (graph != null) {
        graph.close();
      }
      if (server != null) {
        server.close();
      }
    }
  }

  // ---- Kùzu ----

  static final Map<String, String> CYPHER_KUZU = Map.of(
      "point", "MATCH (p:Person) WHERE p.pid = $k RETURN p.name, p.age",
      "scan", "MATCH (p:Person) WHERE p.age >= 75 RETURN p.name, p.age ORDER BY p.age DESC, p.name ASC LIMIT 20",
      "hop1", "MATCH (p:Person)-[:Knows]->(f:Person) WHERE p.pid = $k RETURN DISTINCT f.name",
      "hop2", "MATCH (p:Person)-[:Knows*1..2]->(f:Person) WHERE p.pid = $k AND f.pid <> $k RETURN DISTINCT f.name",
      "aggregate", "MATCH (p:Person)-[:WorksAt]->(c:Company) RETURN c.name AS company, count(p) AS n "
          + "ORDER BY n DESC, company ASC LIMIT 10",
      "negation", "MATCH (p:Person) WHERE NOT EXISTS { MATCH (p)-[:WorksAt]->(:Company) } RETURN p.pid");

  static final class KuzuSystem implements ReadSystem {
    private Database db;
    private Connection conn;
    private final Map<String, PreparedStatement> prepared = new LinkedHashMap<>();

    @Override
    public void prepare(ReadBenchData data, Path dir) throws Exception {
      Path csv = dir.resolve("csv");
      data.writeCsv(csv);
      try (Database d = new Database(dir.resolve("kuzu.db").toString()); Connection c = new Connection(d)) {
        exec(c, "CREATE NODE TABLE Person(pid STRING, name STRING, age INT64, PRIMARY KEY(pid))");
        exec(c, "CREATE NODE TABLE Company(cid STRING, name STRING, PRIMARY KEY(cid))");
        exec(c, "CREATE REL TABLE WorksAt(FROM Person TO Company)");
        exec(c, "CREATE REL TABLE Knows(FROM Person TO Person)");
        exec(c, "COPY Person FROM '" + csv.resolve("person.csv") + "' (header=true)");
        exec(c, "COPY Company FROM '" + csv.resolve("company.csv") + "' (header=true)");
        exec(c, "COPY WorksAt FROM '" + csv.resolve("worksat.csv") + "' (header=true)");
        exec(c, "COPY Knows FROM '" + csv.resolve("knows.csv") + "' (header=true)");
      }
    }

    private static void exec(Connection c, String statement) {
      try (com.kuzudb.QueryResult r = c.query(statement)) {
        if (!r.isSuccess()) {
          throw new IllegalStateException("Kùzu: " + r.getErrorMessage() + " in " + statement);
        }
      }
    }

    @Override
    public void open(ReadBenchData data, Path dir) {
      db = new Database(dir.resolve("kuzu.db").toString());
      conn = new Connection(db);
      for (String q : QUERIES) {
        PreparedStatement ps = conn.prepare(CYPHER_KUZU.get(q));
        if (!ps.isSuccess()) {
          throw new IllegalStateException("Kùzu: " + ps.getErrorMessage());
        }
        prepared.put(q, ps);
      }
    }

    @Override
    public List<String> run(String query, String key) {
      Map<String, Value> params = KEYED.contains(query) ? Map.of("k", new Value(key)) : Map.of();
      List<String> rows = new ArrayList<>();
      try (com.kuzudb.QueryResult r = conn.execute(prepared.get(query), params)) {
        if (!r.isSuccess()) {
          throw new IllegalStateException("Kùzu: " + r.getErrorMessage());
        }
        long n = r.getNumColumns();
        while (r.hasNext()) {
          try (FlatTuple t = r.getNext()) {
            StringBuilder sb = new StringBuilder();
            for (long c = 0; c < n; c++) {
              try (Value v = t.getValue(c)) {
                Object o = v.isNull() ? null : v.getValue();
                sb.append(c == 0 ? "" : "|").append(o);
              }
            }
            rows.add(sb.toString());
          }
        }
      }
      return rows;
    }

    @Override
    public void close() {
      prepared.values().forEach(PreparedStatement::close);
      if (conn != null) {
        conn.close();
      }
      if (db != null) {
        db.close();
      }
    }
  }

  // ---- Neo4j ----

  static final Map<String, String> CYPHER_NEO4J = Map.of(
      "point", "MATCH (p:Person {pid: $k}) RETURN p.name, p.age",
      "scan", "MATCH (p:Person) WHERE p.age >= 75 RETURN p.name, p.age ORDER BY p.age DESC, p.name ASC LIMIT 20",
      "hop1", "MATCH (p:Person {pid: $k})-[:KNOWS]->(f:Person) RETURN DISTINCT f.name",
      "hop2", "MATCH (p:Person {pid: $k})-[:KNOWS*1..2]->(f:Person) WHERE f <> p RETURN DISTINCT f.name",
      "aggregate", "MATCH (p:Person)-[:WORKS_AT]->(c:Company) RETURN c.name AS company, count(p) AS n "
          + "ORDER BY n DESC, company ASC LIMIT 10",
      "negation", "MATCH (p:Person) WHERE NOT (p)-[:WORKS_AT]->(:Company) RETURN p.pid");

  static final class Neo4jSystem implements ReadSystem {
    private static final int BATCH = 10_000;
    private DatabaseManagementService dbms;
    private GraphDatabaseService db;

    @Override
    public void prepare(ReadBenchData data, Path dir) {
      open(data, dir);
      try (Transaction tx = db.beginTx()) {
        tx.execute("CREATE CONSTRAINT person_pid FOR (p:Person) REQUIRE p.pid IS UNIQUE");
        tx.execute("CREATE CONSTRAINT company_cid FOR (c:Company) REQUIRE c.cid IS UNIQUE");
        tx.commit();
      }
      try (Transaction tx = db.beginTx()) {
        tx.execute("CALL db.awaitIndexes(600)");
        tx.commit();
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      for (int i = 0; i < data.persons; i++) {
        rows.add(Map.of("pid", "p" + i, "name", "person-" + i, "age", (long) ReadBenchData.age(i)));
        rows = flush(rows, "UNWIND $rows AS r CREATE (:Person {pid: r.pid, name: r.name, age: r.age})", false);
      }
      flush(rows, "UNWIND $rows AS r CREATE (:Person {pid: r.pid, name: r.name, age: r.age})", true);
      rows = new ArrayList<>();
      for (int c = 0; c < data.companies; c++) {
        rows.add(Map.of("cid", "c" + c, "name", "company-" + c));
      }
      flush(rows, "UNWIND $rows AS r CREATE (:Company {cid: r.cid, name: r.name})", true);
      String worksAt = "UNWIND $rows AS r MATCH (p:Person {pid: r.f}), (c:Company {cid: r.t}) CREATE (p)-[:WORKS_AT]->(c)";
      rows = new ArrayList<>();
      for (int i = 0; i < data.persons; i++) {
        int c = data.employer(i);
        if (c >= 0) {
          rows.add(Map.of("f", "p" + i, "t", "c" + c));
          rows = flush(rows, worksAt, false);
        }
      }
      flush(rows, worksAt, true);
      String knows = "UNWIND $rows AS r MATCH (p:Person {pid: r.f}), (q:Person {pid: r.t}) CREATE (p)-[:KNOWS]->(q)";
      List<Map<String, Object>> edges = new ArrayList<>();
      for (int i = 0; i < data.persons; i++) {
        int from = i;
        data.knows(i, t -> edges.add(Map.of("f", "p" + from, "t", "p" + t)));
        if (edges.size() >= BATCH) {
          flush(new ArrayList<>(edges), knows, true);
          edges.clear();
        }
      }
      flush(edges, knows, true);
      close();
    }

    private List<Map<String, Object>> flush(List<Map<String, Object>> rows, String cypher, boolean force) {
      if (rows.isEmpty() || (!force && rows.size() < BATCH)) {
        return rows;
      }
      try (Transaction tx = db.beginTx()) {
        tx.execute(cypher, Map.of("rows", rows)).close();
        tx.commit();
      }
      return new ArrayList<>();
    }

    @Override
    public void open(ReadBenchData data, Path dir) {
      dbms = new DatabaseManagementServiceBuilder(dir.resolve("neo4j")).build();
      db = dbms.database("neo4j");
      if (!db.isAvailable(TimeUnit.MINUTES.toMillis(5))) {
        throw new IllegalStateException("Neo4j did not become available");
      }
    }

    @Override
    public List<String> run(String query, String key) {
      Map<String, Object> params = KEYED.contains(query) ? Map.of("k", key) : Map.of();
      List<String> rows = new ArrayList<>();
      try (Transaction tx = db.beginTx(); Result r = tx.execute(CYPHER_NEO4J.get(query), params)) {
        List<String> cols = r.columns();
        while (r.hasNext()) {
          Map<String, Object> row = r.next();
          StringBuilder sb = new StringBuilder();
          for (int c = 0; c < cols.size(); c++) {
            sb.append(c == 0 ? "" : "|").append(row.get(cols.get(c)));
          }
          rows.add(sb.toString());
        }
        tx.commit();
      }
      return rows;
    }

    @Override
    public void close() {
      if (dbms != null) {
        dbms.shutdown();
        dbms = null;
      }
    }
  }
}
