package io.omnigraph.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.kuzudb.Connection;
import com.kuzudb.Database;
import com.kuzudb.PreparedStatement;
import com.kuzudb.Value;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.Transaction;

/**
 * One child JVM of the write benchmark ({@link WriteBenchmark}); one measurement per JVM.
 *
 * <ul>
 *   <li>{@code load <system> <persons> <dir> <ndjson>}: NDJSON file → durable store in {@code dir}
 *       (created fresh), measured from the first byte read to the store closed; prints
 *       {@code LOAD system millis peakRssKiB indexMillis}. Every system starts from the same NDJSON and
 *       ends with its key indexes built: OmniGraph loads it as is ({@code init} + one {@code OVERWRITE}
 *       load + {@code ensureKeyIndices()}, whose share is {@code indexMillis}; the others report 0); Kùzu converts it with Jackson to
 *       CSV and runs {@code COPY FROM} (its fastest offline path); Neo4j parses it with Jackson and
 *       creates nodes and edges with {@code UNWIND} batches of 10,000 in transactions, after creating
 *       the uniqueness constraints (which are its indexes).</li>
 *   <li>{@code insert <system> <persons> <dir> <warmup> <ops>}: opens the store that {@code load}
 *       built and runs 1-row inserts of a new person, each its own durable commit (auto-commit),
 *       {@code warmup} unmeasured then {@code ops} measured; prints {@code INSERT system p50Nanos
 *       p99Nanos}.</li>
 *   <li>{@code update <system> <persons> <dir> <warmup> <ops>}: the same for 1-row updates of a loaded
 *       person's {@code age} (a different person each time, looked up by its key), each its own
 *       durable commit; prints {@code UPDATE system p50Nanos p99Nanos}.</li>
 * </ul>
 *
 * Durability as configured: OmniGraph fsyncs every file of a commit before it returns
 * (docs/write-protocol.md, "Durability"); Kùzu and Neo4j run with their defaults (a write-ahead /
 * transaction log forced at commit).
 */
public final class WriteBenchChild {
  private WriteBenchChild() {}

  static final String GQ = """
      query add($pid: String, $name: String, $age: I64) { insert Person { pid: $pid, name: $name, age: $age } }
      """;

  static final String GQ_UPDATE = """
      query setAge($pid: String, $age: I64) { update Person set { age: $age } where pid = $pid }
      """;

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String system = args[1];
    int persons = Integer.parseInt(args[2]);
    Path dir = Path.of(args[3]);
    if (mode.equals("throughput")) {
      // throughput <ignored> <persons> <dir> <threads> <opsPerThread> <keyPrefix> <startFile>
      throughput(dir, Integer.parseInt(args[4]), Integer.parseInt(args[5]), args[6], Path.of(args[7]));
    } else if (mode.equals("load")) {
      Path ndjson = Path.of(args[4]);
      resetPeakRss();
      long t0 = System.nanoTime();
      long indexNanos = 0;
      switch (system) {
        case "omnigraph" -> {
          try (Graph g = Omnigraph.init(dir.resolve("graph").toString(), ReadBenchData.SCHEMA)) {
            g.load(LoadMode.OVERWRITE, ndjson, LoadOptions.defaults());
            // Kùzu and Neo4j build their key indexes during the load; OmniGraph builds indexes only
            // when asked (docs/indexes.md), so the like-for-like load asks, inside the window, for the
            // same ones: the key indexes (id, src, dst), not the full-text indexes the peers lack.
            long i0 = System.nanoTime();
            g.ensureKeyIndices();
            indexNanos = System.nanoTime() - i0;
          }
        }
        case "kuzu" -> loadKuzu(dir, ndjson);
        case "neo4j" -> loadNeo4j(dir, ndjson);
        default -> throw new IllegalArgumentException(system);
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      System.out.println("LOAD " + system + " " + ms + " " + peakRssKiB() + " " + indexNanos / 1_000_000);
    } else {
      int warmup = Integer.parseInt(args[4]);
      int ops = Integer.parseInt(args[5]);
      boolean update = mode.equals("update");
      long[] nanos = switch (system) {
        case "omnigraph" -> update ? updateOmnigraph(dir, warmup, ops) : insertOmnigraph(dir, persons, warmup, ops);
        case "kuzu" -> update ? updateKuzu(dir, warmup, ops) : insertKuzu(dir, persons, warmup, ops);
        case "neo4j" -> update ? updateNeo4j(dir, warmup, ops) : insertNeo4j(dir, persons, warmup, ops);
        default -> throw new IllegalArgumentException(system);
      };
      Arrays.sort(nanos);
      System.out.println((update ? "UPDATE " : "INSERT ") + system + " " + nanos[(ops - 1) / 2] + " "
          + nanos[Math.max(0, (int) Math.ceil(ops * 0.99) - 1)]);
    }
    System.out.flush();
    System.exit(0); // Neo4j and Kùzu may leave non-daemon threads behind
  }

  // ---- many writers (issue 18 item 3) ----

  /**
   * {@code threads} threads of this JVM share one handle and each inserts {@code ops} 1-row
   * mutations on its own keys ({@code prefix-t<thread>-<i>}), each its own durable commit, after one
   * unmeasured insert per thread. Prints {@code READY}, waits for {@code startFile} (so that the
   * processes of a multi-process run start together), then {@code THROUGHPUT startMicros endMicros
   * ops conflicts latencyNanos,...} (epoch microseconds, comparable across processes of one
   * machine). A ConflictException (possible only between processes: a writer of another process
   * kept publishing first 32 times) is counted and the insert retried, so every insert lands.
   */
  static void throughput(Path dir, int threads, int ops, String prefix, Path startFile) throws Exception {
    try (Graph g = Omnigraph.open(dir.resolve("graph").toString())) {
      PreparedMutation add = g.prepareMutation(GQ, "add");
      java.util.concurrent.atomic.AtomicLong conflicts = new java.util.concurrent.atomic.AtomicLong();
      java.util.function.BiConsumer<String, Integer> insert = (key, i) -> {
        while (true) {
          try {
            g.mutate(add, QueryParams.of(Map.of("pid", key, "name", "n" + i, "age", 30L)), MutationOptions.defaults());
            return;
          } catch (io.omnigraph.api.ConflictException e) {
            conflicts.incrementAndGet();
          }
        }
      };
      for (int t = 0; t < threads; t++) {
        insert.accept(prefix + "-w" + t, -1);
      }
      System.out.println("READY");
      System.out.flush();
      while (!Files.exists(startFile)) {
        Thread.sleep(1);
      }
      long[] nanos = new long[threads * ops];
      java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(threads);
      List<Thread> workers = new ArrayList<>();
      java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
      long start = micros();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        Thread w = new Thread(() -> {
          try {
            barrier.await();
            for (int i = 0; i < ops; i++) {
              long t0 = System.nanoTime();
              insert.accept(prefix + "-t" + thread + "-" + i, i);
              nanos[thread * ops + i] = System.nanoTime() - t0;
            }
          } catch (Throwable e) {
            failed.compareAndSet(null, e);
          }
        }, "writer-" + t);
        workers.add(w);
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      long end = micros();
      if (failed.get() != null) {
        throw new IllegalStateException("a writer failed", failed.get());
      }
      StringBuilder line = new StringBuilder("THROUGHPUT " + start + " " + end + " " + nanos.length + " "
          + conflicts.get() + " ");
      for (int i = 0; i < nanos.length; i++) {
        line.append(i == 0 ? "" : ",").append(nanos[i]);
      }
      System.out.println(line);
    }
  }

  private static long micros() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  // ---- 1-row inserts ----

  static String pid(int persons, int i) {
    return "new-" + persons + "-" + i;
  }

  static long[] insertOmnigraph(Path dir, int persons, int warmup, int ops) {
    long[] out = new long[ops];
    try (Graph g = Omnigraph.open(dir.resolve("graph").toString())) {
      PreparedMutation add = g.prepareMutation(GQ, "add");
      for (int i = 0; i < warmup + ops; i++) {
        long t0 = System.nanoTime();
        g.mutate(add, QueryParams.of(Map.of("pid", pid(persons, i), "name", "n" + i, "age", 30L)),
            MutationOptions.defaults());
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
    }
    return out;
  }

  static long[] insertKuzu(Path dir, int persons, int warmup, int ops) {
    long[] out = new long[ops];
    try (Database db = new Database(dir.resolve("kuzu.db").toString()); Connection c = new Connection(db)) {
      PreparedStatement ps = c.prepare("CREATE (:Person {pid: $pid, name: $name, age: $age})");
      if (!ps.isSuccess()) {
        throw new IllegalStateException("Kùzu: " + ps.getErrorMessage());
      }
      for (int i = 0; i < warmup + ops; i++) {
        Map<String, Value> p = Map.of("pid", new Value(pid(persons, i)), "name", new Value("n" + i),
            "age", new Value(30L));
        long t0 = System.nanoTime();
        try (com.kuzudb.QueryResult r = c.execute(ps, p)) {
          if (!r.isSuccess()) {
            throw new IllegalStateException("Kùzu: " + r.getErrorMessage());
          }
        }
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
      ps.close();
    }
    return out;
  }

  static long[] insertNeo4j(Path dir, int persons, int warmup, int ops) {
    long[] out = new long[ops];
    DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(dir.resolve("neo4j")).build();
    try {
      GraphDatabaseService db = dbms.database("neo4j");
      if (!db.isAvailable(TimeUnit.MINUTES.toMillis(5))) {
        throw new IllegalStateException("Neo4j did not become available");
      }
      for (int i = 0; i < warmup + ops; i++) {
        long t0 = System.nanoTime();
        try (Transaction tx = db.beginTx()) {
          tx.execute("CREATE (:Person {pid: $pid, name: $name, age: $age})",
              Map.of("pid", pid(persons, i), "name", "n" + i, "age", 30L)).close();
          tx.commit();
        }
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
    } finally {
      dbms.shutdown();
    }
    return out;
  }

  // ---- 1-row updates (opt-in: --update-ops) ----

  /** The loaded person whose age the i-th update sets: distinct rows, spread over the table. */
  static String updatedPid(int i) {
    return "p" + (i * 7L % 1000);
  }

  static long[] updateOmnigraph(Path dir, int warmup, int ops) {
    long[] out = new long[ops];
    try (Graph g = Omnigraph.open(dir.resolve("graph").toString())) {
      PreparedMutation set = g.prepareMutation(GQ_UPDATE, "setAge");
      for (int i = 0; i < warmup + ops; i++) {
        long t0 = System.nanoTime();
        var r = g.mutate(set, QueryParams.of(Map.of("pid", updatedPid(i), "age", 40L + i)), MutationOptions.defaults());
        if (r.affectedNodes() != 1) {
          throw new IllegalStateException("update of " + updatedPid(i) + " matched " + r.affectedNodes());
        }
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
    }
    return out;
  }

  static long[] updateKuzu(Path dir, int warmup, int ops) {
    long[] out = new long[ops];
    try (Database db = new Database(dir.resolve("kuzu.db").toString()); Connection c = new Connection(db)) {
      PreparedStatement ps = c.prepare("MATCH (p:Person) WHERE p.pid = $pid SET p.age = $age");
      if (!ps.isSuccess()) {
        throw new IllegalStateException("Kùzu: " + ps.getErrorMessage());
      }
      for (int i = 0; i < warmup + ops; i++) {
        Map<String, Value> p = Map.of("pid", new Value(updatedPid(i)), "age", new Value(40L + i));
        long t0 = System.nanoTime();
        try (com.kuzudb.QueryResult r = c.execute(ps, p)) {
          if (!r.isSuccess()) {
            throw new IllegalStateException("Kùzu: " + r.getErrorMessage());
          }
        }
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
      ps.close();
    }
    return out;
  }

  static long[] updateNeo4j(Path dir, int warmup, int ops) {
    long[] out = new long[ops];
    DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(dir.resolve("neo4j")).build();
    try {
      GraphDatabaseService db = dbms.database("neo4j");
      if (!db.isAvailable(TimeUnit.MINUTES.toMillis(5))) {
        throw new IllegalStateException("Neo4j did not become available");
      }
      for (int i = 0; i < warmup + ops; i++) {
        long t0 = System.nanoTime();
        try (Transaction tx = db.beginTx()) {
          tx.execute("MATCH (p:Person {pid: $pid}) SET p.age = $age", Map.of("pid", updatedPid(i), "age", 40L + i))
              .close();
          tx.commit();
        }
        if (i >= warmup) {
          out[i - warmup] = System.nanoTime() - t0;
        }
      }
    } finally {
      dbms.shutdown();
    }
    return out;
  }

  // ---- bulk loads ----

  /** One parsed NDJSON line: a node (type, data) or an edge (edge, from, to). */
  record Line(String type, String edge, String from, String to, Map<String, Object> data) {}

  interface LineSink {
    void accept(Line l) throws IOException;
  }

  static void parse(Path ndjson, LineSink sink) throws IOException {
    JsonFactory f = new JsonFactory();
    try (BufferedReader r = Files.newBufferedReader(ndjson, StandardCharsets.UTF_8)) {
      for (String text; (text = r.readLine()) != null; ) {
        if (text.isBlank()) {
          continue;
        }
        try (JsonParser p = f.createParser(text)) {
          String type = null;
          String edge = null;
          String from = null;
          String to = null;
          Map<String, Object> data = new HashMap<>();
          p.nextToken();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            switch (name) {
              case "type" -> type = p.getText();
              case "edge" -> edge = p.getText();
              case "from" -> from = p.getText();
              case "to" -> to = p.getText();
              case "data" -> {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                  String k = p.currentName();
                  JsonToken v = p.nextToken();
                  data.put(k, v == JsonToken.VALUE_NUMBER_INT ? (Object) p.getLongValue() : p.getText());
                }
              }
              default -> p.skipChildren();
            }
            if (t == JsonToken.START_OBJECT && !name.equals("data")) {
              p.skipChildren();
            }
          }
          sink.accept(new Line(type, edge, from, to, data));
        }
      }
    }
  }

  static void loadKuzu(Path dir, Path ndjson) throws IOException {
    Path csv = dir.resolve("csv");
    Files.createDirectories(csv);
    try (BufferedWriter person = Files.newBufferedWriter(csv.resolve("person.csv"));
        BufferedWriter company = Files.newBufferedWriter(csv.resolve("company.csv"));
        BufferedWriter worksAt = Files.newBufferedWriter(csv.resolve("worksat.csv"));
        BufferedWriter knows = Files.newBufferedWriter(csv.resolve("knows.csv"))) {
      person.write("pid,name,age\n");
      company.write("cid,name\n");
      worksAt.write("from,to\n");
      knows.write("from,to\n");
      parse(ndjson, l -> {
        if ("Person".equals(l.type())) {
          person.write(l.data().get("pid") + "," + l.data().get("name") + "," + l.data().get("age") + "\n");
        } else if ("Company".equals(l.type())) {
          company.write(l.data().get("cid") + "," + l.data().get("name") + "\n");
        } else if ("WorksAt".equals(l.edge())) {
          worksAt.write(l.from() + "," + l.to() + "\n");
        } else if ("Knows".equals(l.edge())) {
          knows.write(l.from() + "," + l.to() + "\n");
        }
      });
    }
    try (Database d = new Database(dir.resolve("kuzu.db").toString()); Connection c = new Connection(d)) {
      for (String s : List.of(
          "CREATE NODE TABLE Person(pid STRING, name STRING, age INT64, PRIMARY KEY(pid))",
          "CREATE NODE TABLE Company(cid STRING, name STRING, PRIMARY KEY(cid))",
          "CREATE REL TABLE WorksAt(FROM Person TO Company)",
          "CREATE REL TABLE Knows(FROM Person TO Person)",
          "COPY Person FROM '" + csv.resolve("person.csv") + "' (header=true)",
          "COPY Company FROM '" + csv.resolve("company.csv") + "' (header=true)",
          "COPY WorksAt FROM '" + csv.resolve("worksat.csv") + "' (header=true)",
          "COPY Knows FROM '" + csv.resolve("knows.csv") + "' (header=true)")) {
        try (com.kuzudb.QueryResult r = c.query(s)) {
          if (!r.isSuccess()) {
            throw new IllegalStateException("Kùzu: " + r.getErrorMessage() + " in " + s);
          }
        }
      }
    }
  }

  static void loadNeo4j(Path dir, Path ndjson) throws IOException {
    DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(dir.resolve("neo4j")).build();
    try {
      GraphDatabaseService db = dbms.database("neo4j");
      if (!db.isAvailable(TimeUnit.MINUTES.toMillis(5))) {
        throw new IllegalStateException("Neo4j did not become available");
      }
      try (Transaction tx = db.beginTx()) {
        tx.execute("CREATE CONSTRAINT person_pid FOR (p:Person) REQUIRE p.pid IS UNIQUE");
        tx.execute("CREATE CONSTRAINT company_cid FOR (c:Company) REQUIRE c.cid IS UNIQUE");
        tx.commit();
      }
      try (Transaction tx = db.beginTx()) {
        tx.execute("CALL db.awaitIndexes(600)");
        tx.commit();
      }
      Map<String, String> cypher = Map.of(
          "Person", "UNWIND $rows AS r CREATE (:Person {pid: r.pid, name: r.name, age: r.age})",
          "Company", "UNWIND $rows AS r CREATE (:Company {cid: r.cid, name: r.name})",
          "WorksAt", "UNWIND $rows AS r MATCH (p:Person {pid: r.f}), (c:Company {cid: r.t}) CREATE (p)-[:WORKS_AT]->(c)",
          "Knows", "UNWIND $rows AS r MATCH (p:Person {pid: r.f}), (q:Person {pid: r.t}) CREATE (p)-[:KNOWS]->(q)");
      String[] current = {null};
      List<Map<String, Object>> rows = new ArrayList<>();
      parse(ndjson, l -> {
        String kind = l.type() != null ? l.type() : l.edge();
        if (current[0] != null && (!current[0].equals(kind) || rows.size() >= 10_000)) {
          flushNeo4j(db, cypher.get(current[0]), rows);
        }
        current[0] = kind;
        rows.add(l.type() != null ? l.data() : Map.of("f", l.from(), "t", l.to()));
      });
      if (current[0] != null) {
        flushNeo4j(db, cypher.get(current[0]), rows);
      }
    } finally {
      dbms.shutdown();
    }
  }

  private static void flushNeo4j(GraphDatabaseService db, String cypher, List<Map<String, Object>> rows) {
    if (rows.isEmpty()) {
      return;
    }
    try (Transaction tx = db.beginTx()) {
      tx.execute(cypher, Map.of("rows", new ArrayList<>(rows))).close();
      tx.commit();
    }
    rows.clear();
  }

  // ---- peak RSS ----

  static void resetPeakRss() {
    try {
      Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    } catch (IOException | RuntimeException e) {
      // not Linux, or not permitted: the peak then includes start-up
    }
  }

  static long peakRssKiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return -1;
  }
}
