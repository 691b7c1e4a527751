package io.omnigraph.engine.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The test's own model of a graph's rows: table key → row id → canonical row (the export line with
 * null fields dropped and object fields sorted). Built from an export ({@link #fromExport}) or by
 * applying loads to a model ({@link #apply}), so a crash test can say whether a reopened graph is
 * exactly the state before a write or exactly the state after it.
 *
 * <p>Node types must have a single String {@code @key} (the row id is the key value) and edges carry
 * an explicit {@code data.id}, so every id is known to the model.
 */
public final class GraphModel {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, String> nodeKeyProperty;
  private final TreeMap<String, TreeMap<String, String>> tables = new TreeMap<>();

  /**
   * @param nodeKeyProperty node type name → its {@code @key} property
   */
  public GraphModel(Map<String, String> nodeKeyProperty) {
    this.nodeKeyProperty = Map.copyOf(nodeKeyProperty);
  }

  /** @return a deep copy */
  public GraphModel copy() {
    GraphModel m = new GraphModel(nodeKeyProperty);
    tables.forEach((t, rows) -> m.tables.put(t, new TreeMap<>(rows)));
    return m;
  }

  /** @return the model of an export */
  public static GraphModel fromExport(Map<String, String> nodeKeyProperty, String ndjson) {
    GraphModel m = new GraphModel(nodeKeyProperty);
    for (ObjectNode line : lines(ndjson)) {
      String table = table(line);
      String id = line.get("data").get("id").asText();
      if (m.tables.computeIfAbsent(table, k -> new TreeMap<>()).put(id, canonical(line)) != null) {
        throw new AssertionError("export repeats " + table + " id " + id);
      }
    }
    return m;
  }

  /**
   * Applies a load as {@link LoadMode} documents it.
   *
   * @return this model, changed
   */
  public GraphModel apply(LoadMode mode, String ndjson) {
    List<ObjectNode> input = lines(ndjson);
    if (mode == LoadMode.OVERWRITE) {
      for (ObjectNode line : input) {
        tables.remove(table(line));
      }
    }
    for (ObjectNode line : input) {
      ObjectNode data = (ObjectNode) line.get("data");
      String id;
      if (line.has("type")) {
        String key = nodeKeyProperty.get(line.get("type").asText());
        if (key == null) {
          throw new IllegalArgumentException("no key property known for " + line);
        }
        id = data.get(key).asText();
        data.put("id", id);
      } else {
        id = data.get("id").asText();
      }
      String previous = tables.computeIfAbsent(table(line), k -> new TreeMap<>()).put(id, canonical(line));
      if (previous != null && mode == LoadMode.APPEND) {
        throw new IllegalArgumentException("the workload appends an existing id " + id);
      }
    }
    return this;
  }

  /**
   * Deletes a node and, as the engine's node delete does, every edge of a type in
   * {@code edgeEnds} whose source or target is that node.
   *
   * @param type the node type
   * @param id its key
   * @param edgeEnds edge type → [source node type, target node type]
   * @return this model, changed
   * @throws IllegalArgumentException the model has no such node (the workload must delete existing rows)
   */
  public GraphModel deleteNode(String type, String id, Map<String, List<String>> edgeEnds) {
    TreeMap<String, String> nodes = tables.get("node:" + type);
    if (nodes == null || nodes.remove(id) == null) {
      throw new IllegalArgumentException("the model has no " + type + " " + id);
    }
    edgeEnds.forEach((edge, ends) -> {
      TreeMap<String, String> rows = tables.get("edge:" + edge);
      if (rows != null) {
        rows.values().removeIf(row -> {
          JsonNode r = parse(row);
          return ends.get(0).equals(type) && r.get("from").asText().equals(id)
              || ends.get(1).equals(type) && r.get("to").asText().equals(id);
        });
      }
    });
    return this;
  }

  /**
   * A copy whose edge rows are keyed by their content (type, endpoints, properties) instead of
   * their id: an edge a mutation inserts gets a fresh ULID that no model can predict. Equal
   * contents are told apart by an occurrence number, so duplicates still count.
   */
  public GraphModel withoutEdgeIds() {
    GraphModel m = new GraphModel(nodeKeyProperty);
    tables.forEach((t, rows) -> {
      if (!t.startsWith("edge:")) {
        m.tables.put(t, new TreeMap<>(rows));
        return;
      }
      List<String> contents = new ArrayList<>();
      for (String row : rows.values()) {
        ObjectNode r = (ObjectNode) parse(row);
        ((ObjectNode) r.get("data")).remove("id");
        contents.add(canonical(r));
      }
      java.util.Collections.sort(contents);
      TreeMap<String, String> keyed = new TreeMap<>();
      Map<String, Integer> seen = new java.util.HashMap<>();
      for (String c : contents) {
        keyed.put(c + "#" + seen.merge(c, 1, Integer::sum), c);
      }
      m.tables.put(t, keyed);
    });
    return m;
  }

  private static JsonNode parse(String row) {
    try {
      return JSON.readTree(row);
    } catch (IOException e) {
      throw new UncheckedIOException("bad model row " + row, e);
    }
  }

  /** @return table → id → canonical row; tables without rows are omitted */
  public Map<String, Map<String, String>> rows() {
    Map<String, Map<String, String>> out = new TreeMap<>();
    tables.forEach((t, rows) -> {
      if (!rows.isEmpty()) {
        out.put(t, rows);
      }
    });
    return out;
  }

  /** @return the number of rows in all tables */
  public int size() {
    return tables.values().stream().mapToInt(Map::size).sum();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GraphModel m && rows().equals(m.rows());
  }

  @Override
  public int hashCode() {
    return rows().hashCode();
  }

  @Override
  public String toString() {
    return rows().toString();
  }

  /**
   * @return a short, row-level description of how {@code actual} differs from this model, or
   *     {@code ""} when equal
   */
  public String diff(GraphModel actual) {
    List<String> out = new ArrayList<>();
    Map<String, Map<String, String>> mine = rows();
    Map<String, Map<String, String>> theirs = actual.rows();
    java.util.TreeSet<String> tableKeys = new java.util.TreeSet<>(mine.keySet());
    tableKeys.addAll(theirs.keySet());
    for (String t : tableKeys) {
      Map<String, String> a = mine.getOrDefault(t, Map.of());
      Map<String, String> b = theirs.getOrDefault(t, Map.of());
      java.util.TreeSet<String> ids = new java.util.TreeSet<>(a.keySet());
      ids.addAll(b.keySet());
      for (String id : ids) {
        String x = a.get(id);
        String y = b.get(id);
        if (x == null) {
          out.add(t + " has extra " + id);
        } else if (y == null) {
          out.add(t + " misses " + id);
        } else if (!x.equals(y)) {
          out.add(t + " " + id + ": " + x + " != " + y);
        }
      }
    }
    return String.join("; ", out);
  }

  private static String table(ObjectNode line) {
    if (line.has("type")) {
      return "node:" + line.get("type").asText();
    }
    if (line.has("edge")) {
      return "edge:" + line.get("edge").asText();
    }
    throw new IllegalArgumentException("neither node nor edge: " + line);
  }

  private static List<ObjectNode> lines(String ndjson) {
    List<ObjectNode> out = new ArrayList<>();
    for (String l : ndjson.split("\n")) {
      if (!l.isBlank()) {
        try {
          out.add((ObjectNode) JSON.readTree(l));
        } catch (IOException e) {
          throw new UncheckedIOException("bad NDJSON line " + l, e);
        }
      }
    }
    return out;
  }

  /** Sorted fields, null-valued fields dropped, compact. */
  static String canonical(JsonNode node) {
    return JSON.valueToTree(sorted(node)).toString();
  }

  private static Object sorted(JsonNode node) {
    if (node.isObject()) {
      TreeMap<String, Object> m = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isNull()) {
          m.put(e.getKey(), sorted(e.getValue()));
        }
      }
      return m;
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>();
      node.forEach(n -> l.add(sorted(n)));
      return l;
    }
    return node;
  }
}
