package io.omnigraph.engine.concurrency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The concurrent-mutation workload and its model check (docs/concurrency.md). Writer {@code w} runs
 * {@code ops} {@code .gq} mutations in a fixed rotation of five:
 *
 * <ol>
 *   <li>{@code fresh}: one insert-only mutation over three tables — a keyed person with a unique
 *       name, an unkeyed event (a strict insert with a fresh id) and an edge from the person to the
 *       seeded anchor. Must be acknowledged (re-preparing as needed).</li>
 *   <li>{@code same}: an insert of the one person every writer inserts (a keyed insert is an upsert,
 *       docs/mutations.md): every writer is acknowledged, the last in commit order wins.</li>
 *   <li>{@code hot}: an update of one of two seeded people to a value unique to (writer, op):
 *       acknowledged, or ReadSetChanged (409 on {@code graph_head:main}) when another write
 *       published between its preparation and its effects.</li>
 *   <li>{@code counter}: read the head and the counter, then set the counter to the value read plus
 *       one with that head expected: acknowledged or PreconditionFailed (412). With no lost update,
 *       the final counter equals the number of acknowledged increments.</li>
 *   <li>{@code delete}: delete one of two seeded people (each contended by several writers; its
 *       edge to the anchor cascades; two more seeded people and their edges must stay): acknowledged with a commit, acknowledged without one (another
 *       writer deleted it first, nothing matched), or ReadSetChanged.</li>
 * </ol>
 *
 * <p>The check replays every acknowledged mutation in commit order on the seeded state (the serial
 * model) and requires the graph to equal it exactly: people and ages, the counter, the events and
 * the edges. Each outcome is one text line, so child processes can report it on stdout.
 */
public final class ConcurrentMutationWorkload {
  public static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Counter {
        name: String @key
        n: I32
      }
      node Event {
        writer: I32
        op: I32
      }
      edge Knows: Person -> Person
      """;

  static final String QUERIES = """
      query fresh($name: String, $age: I32, $w: I32, $op: I32) {
        insert Person { name: $name, age: $age }
        insert Event { writer: $w, op: $op }
        insert Knows { from: $name, to: "anchor" }
      }
      query same($name: String, $age: I32) {
        insert Person { name: $name, age: $age }
      }
      query set_age($name: String, $age: I32) {
        update Person set { age: $age } where name = $name
      }
      query set_count($name: String, $n: I32) {
        update Counter set { n: $n } where name = $name
      }
      query remove($name: String) {
        delete Person where name = $name
      }
      """;

  static final int HOT = 2;
  static final int DELETABLE = 4;
  /** Seeded people the writers delete (d-0, d-1: with 4 writers, two race for each; d-2, d-3 stay). */
  static final int CONTENDED_DELETES = 2;
  static final String COUNTER = "c-0";
  static final String ANCHOR = "anchor";
  /** Attempts of one counter increment (each re-reads after a PreconditionFailed). */
  static final int INCREMENT_ATTEMPTS = 8;
  /** Commits the seed adds after the genesis commit. */
  static final int SEED_COMMITS = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ConcurrentMutationWorkload() {}

  /** The seeded people (name → age), before any writer runs. */
  static Map<String, Integer> seedPeople() {
    Map<String, Integer> people = new TreeMap<>();
    people.put(ANCHOR, 0);
    for (int i = 0; i < HOT; i++) {
      people.put("h-" + i, 0);
    }
    for (int i = 0; i < DELETABLE; i++) {
      people.put("d-" + i, 0);
    }
    return people;
  }

  /** Loads the seed in one commit: the people, the counter at 0, and an edge from each deletable person to the anchor. */
  public static void seed(Graph g) {
    StringBuilder ndjson = new StringBuilder();
    seedPeople().forEach((name, age) -> ndjson.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(name)
        .append("\",\"age\":").append(age).append("}}\n"));
    ndjson.append("{\"type\":\"Counter\",\"data\":{\"name\":\"" + COUNTER + "\",\"n\":0}}\n");
    for (int i = 0; i < DELETABLE; i++) {
      ndjson.append("{\"edge\":\"Knows\",\"from\":\"d-").append(i).append("\",\"to\":\"" + ANCHOR + "\"}\n");
    }
    g.load(LoadMode.APPEND, new ByteArrayInputStream(ndjson.toString().getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults().withActor("seed"));
  }

  /** Runs writer {@code writer}'s ops on {@code g}; typed conflicts become REJECT outcomes, anything else is thrown. */
  public static List<ConcurrentWorkload.Outcome> run(Graph g, int writer, int ops) {
    Map<String, PreparedMutation> queries = new HashMap<>();
    for (String q : List.of("fresh", "same", "set_age", "set_count", "remove")) {
      queries.put(q, g.prepareMutation(QUERIES, q));
    }
    List<ConcurrentWorkload.Outcome> out = new ArrayList<>();
    for (int op = 0; op < ops; op++) {
      int value = writer * 1000 + op;
      String kind;
      String key;
      String query;
      Map<String, Object> params = new HashMap<>();
      MutationOptions options = MutationOptions.defaults().withActor("writer-" + writer);
      switch (op % 5) {
        case 0 -> {
          kind = "fresh";
          key = "u-" + writer + "-" + op;
          query = "fresh";
          params.putAll(Map.of("name", key, "age", value, "w", writer, "op", op));
        }
        case 1 -> {
          kind = "same";
          key = "s-" + (op / 5);
          query = "same";
          params.putAll(Map.of("name", key, "age", value));
        }
        case 2 -> {
          kind = "hot";
          key = "h-" + (writer % HOT);
          query = "set_age";
          params.putAll(Map.of("name", key, "age", value));
        }
        case 3 -> {
          out.add(increment(g, queries.get("set_count"), writer, op, options));
          continue;
        }
        default -> {
          kind = "delete";
          key = "d-" + (writer % CONTENDED_DELETES);
          query = "remove";
          params.put("name", key);
        }
      }
      try {
        MutationResult r = g.mutate(queries.get(query), QueryParams.of(params), options);
        out.add(new ConcurrentWorkload.Outcome(true, writer, op, kind, key, value,
            r.commitId() == null ? "-" : r.commitId(), null));
      } catch (ConflictException | PreconditionFailedException e) {
        out.add(new ConcurrentWorkload.Outcome(false, writer, op, kind, key, value, e.code(), member(e)));
      }
    }
    return out;
  }

  /**
   * The client side of optimistic concurrency: read the head, then the counter (the head only moves
   * forward, so if it is still this head when the effects begin, the counter read belongs to it),
   * write the counter plus one expecting that head; on PreconditionFailed read again, up to
   * {@value #INCREMENT_ATTEMPTS} attempts. The outcome is the last attempt's.
   */
  private static ConcurrentWorkload.Outcome increment(Graph g, PreparedMutation setCount, int writer, int op,
      MutationOptions options) {
    for (int attempt = 1; ; attempt++) {
      String head = g.commits().get(0).id();
      int value = state(g).counter() + 1;
      try {
        MutationResult r = g.mutate(setCount, QueryParams.of(Map.of("name", COUNTER, "n", value)),
            options.withExpectedHead(head));
        return new ConcurrentWorkload.Outcome(true, writer, op, "counter", COUNTER, value, r.commitId(), null);
      } catch (PreconditionFailedException e) {
        if (attempt == INCREMENT_ATTEMPTS) {
          return new ConcurrentWorkload.Outcome(false, writer, op, "counter", COUNTER, value, e.code(), member(e));
        }
      }
    }
  }

  private static String member(io.omnigraph.api.OmnigraphException e) {
    return e.detail().map(d -> d instanceof ErrorDetail.KeyConflict k ? "key:" + String.join(",", k.entityIds())
        : d instanceof ErrorDetail.ReadSetConflict rs ? rs.member()
        : d instanceof ErrorDetail.PreconditionFailure pf ? "expected_head:" + pf.branch()
        : d.getClass().getSimpleName()).orElse("none");
  }

  /** What the graph holds, as the model compares it. */
  record State(Map<String, Integer> people, int counter, List<String> events, List<String> edges) {}

  static State state(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    Map<String, Integer> people = new TreeMap<>();
    int counter = Integer.MIN_VALUE;
    List<String> events = new ArrayList<>();
    List<String> edges = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode n = JSON.readTree(line);
        JsonNode data = n.path("data");
        if (n.has("edge")) {
          edges.add(n.path("from").asText() + "->" + n.path("to").asText());
        } else {
          switch (n.path("type").asText()) {
            case "Person" -> people.put(data.path("name").asText(), data.path("age").asInt());
            case "Counter" -> counter = data.path("n").asInt();
            default -> events.add(data.path("writer").asInt() + "/" + data.path("op").asInt());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    events.sort(null);
    edges.sort(null);
    return new State(people, counter, events, edges);
  }

  /** Checks the graph against the outcomes; returns the violations (empty when the model holds). */
  public static List<String> check(Graph g, List<ConcurrentWorkload.Outcome> outcomes) {
    List<String> bad = new ArrayList<>();
    // 1. One chain holding exactly the genesis, the seed and every acknowledged commit.
    List<CommitInfo> commits = g.commits();
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < commits.size(); i++) {
      CommitInfo c = commits.get(i);
      position.put(c.id(), commits.size() - 1 - i);
      List<String> expectedParents = i + 1 < commits.size() ? List.of(commits.get(i + 1).id()) : List.of();
      if (!c.parents().equals(expectedParents)) {
        bad.add("commit " + c.id() + " has parents " + c.parents() + ", not " + expectedParents);
      }
    }
    List<ConcurrentWorkload.Outcome> committed = new ArrayList<>();
    for (ConcurrentWorkload.Outcome o : outcomes) {
      if (o.acked() && !o.commitOrCode().equals("-")) {
        if (!position.containsKey(o.commitOrCode())) {
          bad.add("acknowledged commit of " + o.line() + " is not in the history");
        } else {
          committed.add(o);
        }
      } else if (o.acked() && !o.kind().equals("delete")) {
        bad.add("only a delete may match nothing: " + o.line());
      } else if (!o.acked() && !allowed(o)) {
        bad.add("unexpected rejection " + o.line());
      }
    }
    long withCommit = outcomes.stream().filter(o -> o.acked() && !o.commitOrCode().equals("-")).count();
    // Automatic maintenance (docs/maintenance.md) may add its own row-preserving commits.
    long maintenance = commits.stream().filter(c -> io.omnigraph.engine.maintenance.AutoMaintenance.MESSAGE
        .equals(c.message())).count();
    if (commits.size() - maintenance != withCommit + 1 + SEED_COMMITS) {
      bad.add(commits.size() + " commits (" + maintenance + " automatic maintenance) for " + withCommit
          + " acknowledged mutations with a commit (+ genesis + seed)");
    }
    // 2. The serial model: replay the acknowledged mutations in commit order on the seed.
    committed.sort(Comparator.comparingInt(o -> position.get(o.commitOrCode())));
    Map<String, Integer> people = seedPeople();
    int counter = 0;
    List<String> events = new ArrayList<>();
    TreeSet<String> edgeSources = new TreeSet<>();
    for (int i = 0; i < DELETABLE; i++) {
      edgeSources.add("d-" + i);
    }
    for (ConcurrentWorkload.Outcome o : committed) {
      switch (o.kind()) {
        case "fresh" -> {
          people.put(o.key(), o.value());
          events.add(o.writer() + "/" + o.op());
          edgeSources.add(o.key());
        }
        case "same", "hot" -> people.put(o.key(), o.value());
        case "counter" -> {
          if (o.value() != counter + 1) {
            bad.add("lost update: counter write " + o.line() + " follows counter " + counter + " in commit order");
          }
          counter = o.value();
        }
        default -> {
          if (people.remove(o.key()) == null) {
            bad.add("delete " + o.line() + " published a commit although " + o.key() + " was already gone");
          }
          edgeSources.remove(o.key());
        }
      }
    }
    for (ConcurrentWorkload.Outcome o : outcomes) {
      if (o.acked() && o.commitOrCode().equals("-") && people.containsKey(o.key())) {
        bad.add("delete " + o.line() + " matched nothing but " + o.key() + " is still present");
      }
    }
    events.sort(null);
    List<String> edges = edgeSources.stream().map(s -> s + "->" + ANCHOR).toList();
    State actual = state(g);
    State model = new State(people, counter, events, edges);
    if (!actual.equals(model)) {
      bad.add("graph " + actual + " differs from the serial model " + model);
    }
    return bad;
  }

  /** The typed rejections each kind of mutation may get. */
  private static boolean allowed(ConcurrentWorkload.Outcome o) {
    return switch (o.kind()) {
      // Only by exhausting the bounded re-prepare (a conflict on graph_head:main after 32 attempts).
      case "fresh", "same" -> o.member().equals("graph_head:main");
      case "hot", "delete" -> o.commitOrCode().equals("conflict") && o.member().equals("graph_head:main");
      case "counter" -> o.commitOrCode().equals("precondition_failed") && o.member().equals("expected_head:main");
      default -> false;
    };
  }
}
