package io.omnigraph.engine.read.differential;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A small property graph held in plain Java collections: its schema (node and edge types with
 * typed properties) and its rows. It renders itself as the {@code .pg} text and the NDJSON the
 * engine loads, and is what {@link NaiveEvaluator} reads. Nothing here is shared with the engine.
 *
 * <p>Values: {@code String} (also enums), {@code Long} (every integer type), {@code Double} (F32
 * and F64 values are multiples of 0.25, exact in both widths), {@code Boolean}, {@link LocalDate},
 * {@link Instant}, and {@code List} of String or Long; a missing map entry is null.
 */
record GraphModel(List<NodeType> nodeTypes, List<EdgeType> edgeTypes, List<Node> nodes, List<Edge> edges) {

  /** Property kinds the generator uses. */
  enum Kind {
    STRING("String"), I32("I32"), I64("I64"), F32("F32"), F64("F64"), BOOL("Bool"), DATE("Date"),
    DATETIME("DateTime"), ENUM("enum(x, y, z)"), LIST_STRING("[String]"), LIST_I64("[I64]");

    final String pg;

    Kind(String pg) {
      this.pg = pg;
    }

    boolean numeric() {
      return this == I32 || this == I64 || this == F32 || this == F64;
    }

    boolean list() {
      return this == LIST_STRING || this == LIST_I64;
    }

    /** @return the element kind of a list, else this kind */
    Kind element() {
      return this == LIST_STRING ? STRING : this == LIST_I64 ? I64 : this;
    }

    /** @return whether {@code < <= > >=} apply (and the value can be an ordering key) */
    boolean ordered() {
      return numeric() || this == STRING || this == DATE || this == DATETIME;
    }

    /** @return the {@code .gq} parameter type for a value of this (scalar) kind */
    String paramType() {
      return this == ENUM ? "String" : pg;
    }
  }

  record Prop(String name, Kind kind, boolean nullable) {
    String pg() {
      return name + ": " + kind.pg + (nullable ? "?" : "");
    }
  }

  /** @param keyed whether the type has {@code k: String @key} (else ids are given explicitly) */
  record NodeType(String name, boolean keyed, List<Prop> props) {
    Prop prop(String p) {
      return props.stream().filter(x -> x.name().equals(p)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException(name + " has no property " + p));
    }
  }

  record EdgeType(String name, String from, String to, List<Prop> props) {
    boolean sameType() {
      return from.equals(to);
    }

    /** @return the name as a query writes it (lowercase initial) */
    String queryName() {
      return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    Prop prop(String p) {
      return props.stream().filter(x -> x.name().equals(p)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException(name + " has no property " + p));
    }
  }

  record Node(String type, String id, Map<String, Object> props) {
    Node {
      props = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(props));
    }
  }

  record Edge(String type, String id, String src, String dst, Map<String, Object> props) {
    Edge {
      props = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(props));
    }
  }

  NodeType nodeType(String name) {
    return nodeTypes.stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no node type " + name));
  }

  EdgeType edgeType(String name) {
    return edgeTypes.stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no edge type " + name));
  }

  List<Node> nodesOf(String type) {
    return nodes.stream().filter(n -> n.type().equals(type)).toList();
  }

  List<Edge> edgesOf(String type) {
    return edges.stream().filter(e -> e.type().equals(type)).toList();
  }

  /** @return the schema text */
  String pg() {
    StringBuilder sb = new StringBuilder();
    for (NodeType t : nodeTypes) {
      sb.append("node ").append(t.name()).append(" {\n");
      if (t.keyed()) {
        sb.append("  k: String @key\n");
      }
      for (Prop p : t.props()) {
        sb.append("  ").append(p.pg()).append('\n');
      }
      sb.append("}\n");
    }
    for (EdgeType e : edgeTypes) {
      sb.append("edge ").append(e.name()).append(": ").append(e.from()).append(" -> ").append(e.to());
      if (e.props().isEmpty()) {
        sb.append('\n');
      } else {
        sb.append(" {\n");
        for (Prop p : e.props()) {
          sb.append("  ").append(p.pg()).append('\n');
        }
        sb.append("}\n");
      }
    }
    return sb.toString();
  }

  /**
   * @param explicitNulls write null properties as {@code null} (else omit them)
   * @return the NDJSON lines of every row (nodes first)
   */
  String ndjson(boolean explicitNulls) {
    StringBuilder sb = new StringBuilder();
    for (Node n : nodes) {
      NodeType t = nodeType(n.type());
      sb.append("{\"type\":").append(json(n.type())).append(",\"data\":{");
      List<String> fields = new ArrayList<>();
      if (t.keyed()) {
        fields.add("\"k\":" + json(n.id()));
      } else {
        fields.add("\"id\":" + json(n.id()));
      }
      for (Prop p : t.props()) {
        Object v = n.props().get(p.name());
        if (v != null || explicitNulls) {
          fields.add(json(p.name()) + ":" + json(v));
        }
      }
      sb.append(String.join(",", fields)).append("}}\n");
    }
    for (Edge e : edges) {
      EdgeType t = edgeType(e.type());
      sb.append("{\"edge\":").append(json(e.type())).append(",\"from\":").append(json(e.src()))
          .append(",\"to\":").append(json(e.dst())).append(",\"data\":{");
      List<String> fields = new ArrayList<>();
      fields.add("\"id\":" + json(e.id()));
      for (Prop p : t.props()) {
        Object v = e.props().get(p.name());
        if (v != null || explicitNulls) {
          fields.add(json(p.name()) + ":" + json(v));
        }
      }
      sb.append(String.join(",", fields)).append("}}\n");
    }
    return sb.toString();
  }

  static String json(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      StringBuilder sb = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') {
          sb.append('\\');
        }
        sb.append(c);
      }
      return sb.append('"').toString();
    }
    if (v instanceof LocalDate || v instanceof Instant) {
      return "\"" + v + "\"";
    }
    if (v instanceof List<?> l) {
      List<String> items = new ArrayList<>();
      for (Object o : l) {
        items.add(json(o));
      }
      return "[" + String.join(",", items) + "]";
    }
    return Objects.toString(v);
  }
}
