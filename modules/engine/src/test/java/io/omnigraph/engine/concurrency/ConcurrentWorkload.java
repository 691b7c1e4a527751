package io.omnigraph.engine.concurrency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.CommitInfo;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.OmnigraphException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The concurrent-writer workload and its model check. Writer {@code w} runs {@code ops} loads, in a
 * fixed rotation: an append of a unique id (must always succeed, re-preparing as needed), an append
 * of an id every writer also appends (exactly one writer wins; the others must get KeyConflict), and
 * a merge of one of two hot ids with a value unique to (writer, op) (last writer wins, in commit
 * order). Each outcome is one text line, so child processes can report it on stdout.
 */
public final class ConcurrentWorkload {
  public static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ConcurrentWorkload() {}

  /** One outcome: {@code ACK <writer> <op> <kind> <key> <value> <commitId>} or {@code REJECT <writer> <op> <kind> <key> <value> <code> <member>}. */
  public record Outcome(boolean acked, int writer, int op, String kind, String key, int value, String commitOrCode,
      String member) {
    public String line() {
      return (acked ? "ACK" : "REJECT") + " " + writer + " " + op + " " + kind + " " + key + " " + value + " "
          + commitOrCode + (acked ? "" : " " + member);
    }

    public static Outcome parse(String line) {
      String[] f = line.trim().split(" ");
      boolean acked = f[0].equals("ACK");
      return new Outcome(acked, Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3], f[4], Integer.parseInt(f[5]),
          f[6], acked ? null : f[7]);
    }
  }

  /** Runs writer {@code writer}'s ops on {@code g}; typed conflicts become REJECT outcomes, anything else is thrown. */
  public static List<Outcome> run(Graph g, int writer, int ops) {
    List<Outcome> out = new ArrayList<>();
    for (int op = 0; op < ops; op++) {
      String kind;
      String key;
      LoadMode mode;
      switch (op % 3) {
        case 0 -> { kind = "unique"; key = "u-" + writer + "-" + op; mode = LoadMode.APPEND; }
        case 1 -> { kind = "shared"; key = "s-" + (op / 3); mode = LoadMode.APPEND; }
        default -> { kind = "hot"; key = "h-" + ((op / 3) % 2); mode = LoadMode.MERGE; }
      }
      int value = writer * 1000 + op;
      String line = "{\"type\":\"Person\",\"data\":{\"name\":\"" + key + "\",\"age\":" + value + "}}\n";
      try {
        LoadResult r = g.load(mode, new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)),
            LoadOptions.defaults().withActor("writer-" + writer));
        out.add(new Outcome(true, writer, op, kind, key, value, r.commitId(), null));
      } catch (ConflictException e) {
        String member = e.detail().map(d -> d instanceof ErrorDetail.KeyConflict k ? "key:" + String.join(",", k.entityIds())
            : d instanceof ErrorDetail.ReadSetConflict rs ? rs.member() : d.getClass().getSimpleName()).orElse("none");
        out.add(new Outcome(false, writer, op, kind, key, value, e.code(), member));
      }
    }
    return out;
  }

  /**
   * Checks the graph against the outcomes; returns the violations (empty when the model holds).
   */
  public static List<String> check(Graph g, List<Outcome> outcomes) {
    List<String> bad = new ArrayList<>();
    // 1. The history is one chain, and it holds exactly the acknowledged commits plus the genesis.
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
    long acks = outcomes.stream().filter(Outcome::acked).count();
    // Automatic maintenance (docs/maintenance.md) may add its own row-preserving commits.
    long maintenance = commits.stream().filter(c -> io.omnigraph.engine.maintenance.AutoMaintenance.MESSAGE
        .equals(c.message())).count();
    if (commits.size() - maintenance != acks + 1) {
      bad.add(commits.size() + " commits (" + maintenance + " automatic maintenance) for " + acks
          + " acknowledged loads (+ genesis)");
    }
    // 2. Every rejection is a typed conflict: a key conflict naming the shared key, or a read-set change.
    for (Outcome o : outcomes) {
      if (o.acked()) {
        if (!position.containsKey(o.commitOrCode())) {
          bad.add("acknowledged commit " + o.commitOrCode() + " of " + o.line() + " is not in the history");
        }
      } else if (!(o.kind().equals("shared") && o.member().equals("key:" + o.key()))
          && !o.member().startsWith("graph_head:")) {
        bad.add("unexpected rejection " + o.line());
      }
    }
    // 3. Rows: every acknowledged unique and shared id is present with its value; each shared id has at
    //    most one winner; each hot id holds the value of its last acknowledged merge in commit order.
    Map<String, Integer> rows = rows(g);
    Map<String, Integer> expected = new TreeMap<>();
    Map<String, Integer> lastHotPosition = new HashMap<>();
    Map<String, Integer> sharedWinners = new HashMap<>();
    for (Outcome o : outcomes) {
      if (!o.acked()) {
        continue;
      }
      switch (o.kind()) {
        case "unique" -> expected.put(o.key(), o.value());
        case "shared" -> {
          expected.put(o.key(), o.value());
          sharedWinners.merge(o.key(), 1, Integer::sum);
        }
        default -> {
          int pos = position.getOrDefault(o.commitOrCode(), -1);
          if (pos > lastHotPosition.getOrDefault(o.key(), -1)) {
            lastHotPosition.put(o.key(), pos);
            expected.put(o.key(), o.value());
          }
        }
      }
    }
    sharedWinners.forEach((k, n) -> {
      if (n != 1) {
        bad.add("shared id " + k + " was acknowledged " + n + " times");
      }
    });
    Set<String> sharedTried = new HashSet<>();
    outcomes.stream().filter(o -> o.kind().equals("shared")).forEach(o -> sharedTried.add(o.key()));
    for (String k : sharedTried) {
      if (!sharedWinners.containsKey(k)) {
        bad.add("no writer won shared id " + k);
      }
    }
    if (!rows.equals(expected)) {
      bad.add("graph rows " + rows + " differ from the model " + expected);
    }
    return bad;
  }

  static Map<String, Integer> rows(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    Map<String, Integer> rows = new TreeMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode n = JSON.readTree(line);
        rows.put(n.path("data").path("name").asText(), n.path("data").path("age").asInt());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return rows;
  }

  /** Formats an unexpected failure for a report line. */
  static String describe(Throwable t) {
    return t instanceof OmnigraphException o ? o.toJson() : t.toString();
  }
}
