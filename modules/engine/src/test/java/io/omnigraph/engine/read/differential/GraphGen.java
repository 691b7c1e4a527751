package io.omnigraph.engine.read.differential;

import io.omnigraph.engine.read.differential.GraphModel.Edge;
import io.omnigraph.engine.read.differential.GraphModel.EdgeType;
import io.omnigraph.engine.read.differential.GraphModel.Kind;
import io.omnigraph.engine.read.differential.GraphModel.Node;
import io.omnigraph.engine.read.differential.GraphModel.NodeType;
import io.omnigraph.engine.read.differential.GraphModel.Prop;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random small graphs: two or three node types (keyed or with explicit ids; ids deliberately
 * repeat across types), two to four edge types (at least one between nodes of one type and one
 * between two types), properties of every generated kind, a quarter of nullable values null, and
 * edges with self-loops and parallel copies. Values come from tiny domains so that equality, ties
 * and substring matches are common.
 */
final class GraphGen {
  static final String[] STRINGS = {"", "a", "b", "ab", "ba", "abc", "bab", "B"};
  static final String[] ENUMS = {"x", "y", "z"};
  static final Kind[] NODE_KINDS = Kind.values();
  static final Kind[] EDGE_KINDS = {Kind.STRING, Kind.I32, Kind.I64, Kind.F64, Kind.BOOL, Kind.DATE, Kind.ENUM};
  static final LocalDate DAY0 = LocalDate.of(2024, 1, 1);
  static final Instant TIME0 = Instant.parse("2024-01-01T00:00:00Z");

  private GraphGen() {}

  /** @return a random schema with no rows */
  static GraphModel schema(Random r) {
    int nodeTypeCount = 2 + r.nextInt(2);
    List<NodeType> nodeTypes = new ArrayList<>();
    for (int i = 0; i < nodeTypeCount; i++) {
      List<Prop> props = new ArrayList<>();
      int n = 2 + r.nextInt(3);
      for (int j = 0; j < n; j++) {
        props.add(new Prop("p" + j, NODE_KINDS[r.nextInt(NODE_KINDS.length)], r.nextInt(10) < 6));
      }
      nodeTypes.add(new NodeType("N" + (char) ('a' + i), r.nextBoolean(), props));
    }
    int edgeTypeCount = 2 + r.nextInt(3);
    List<EdgeType> edgeTypes = new ArrayList<>();
    for (int i = 0; i < edgeTypeCount; i++) {
      String from = nodeTypes.get(r.nextInt(nodeTypeCount)).name();
      String to;
      if (i == 0) {
        to = from;
      } else if (i == 1) {
        do {
          to = nodeTypes.get(r.nextInt(nodeTypeCount)).name();
        } while (to.equals(from));
      } else {
        to = r.nextInt(3) == 0 ? from : nodeTypes.get(r.nextInt(nodeTypeCount)).name();
      }
      List<Prop> props = new ArrayList<>();
      int n = r.nextInt(3);
      for (int j = 0; j < n; j++) {
        props.add(new Prop("q" + j, EDGE_KINDS[r.nextInt(EDGE_KINDS.length)], r.nextInt(10) < 6));
      }
      edgeTypes.add(new EdgeType("E" + (char) ('a' + i), from, to, props));
    }
    return new GraphModel(nodeTypes, edgeTypes, List.of(), List.of());
  }

  /**
   * @param allowEmpty whether a type may get no rows (an overwrite load cannot empty a table)
   * @return random rows for the schema
   */
  static GraphModel data(Random r, GraphModel schema, boolean allowEmpty) {
    List<Node> nodes = new ArrayList<>();
    Map<String, List<String>> ids = new HashMap<>();
    for (NodeType t : schema.nodeTypes()) {
      int n = (allowEmpty && r.nextInt(10) == 0) ? 0 : 1 + r.nextInt(7);
      List<String> typeIds = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String id = "n" + i;
        typeIds.add(id);
        Map<String, Object> props = new HashMap<>();
        for (Prop p : t.props()) {
          Object v = value(r, p);
          if (v != null) {
            props.put(p.name(), v);
          }
        }
        nodes.add(new Node(t.name(), id, props));
      }
      ids.put(t.name(), typeIds);
    }
    List<Edge> edges = new ArrayList<>();
    for (EdgeType t : schema.edgeTypes()) {
      List<String> srcs = ids.get(t.from());
      List<String> dsts = ids.get(t.to());
      if (srcs.isEmpty() || dsts.isEmpty()) {
        continue;
      }
      int n = (allowEmpty && r.nextInt(10) == 0) ? 0 : 1 + r.nextInt(12);
      List<Edge> typeEdges = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String src;
        String dst;
        int shape = r.nextInt(100);
        if (shape < 15 && !typeEdges.isEmpty()) {
          Edge copy = typeEdges.get(r.nextInt(typeEdges.size()));
          src = copy.src();
          dst = copy.dst();
        } else {
          src = srcs.get(r.nextInt(srcs.size()));
          dst = shape < 30 && t.sameType() ? src : dsts.get(r.nextInt(dsts.size()));
        }
        Map<String, Object> props = new HashMap<>();
        for (Prop p : t.props()) {
          Object v = value(r, p);
          if (v != null) {
            props.put(p.name(), v);
          }
        }
        typeEdges.add(new Edge(t.name(), "w" + i, src, dst, props));
      }
      edges.addAll(typeEdges);
    }
    return new GraphModel(schema.nodeTypes(), schema.edgeTypes(), nodes, edges);
  }

  static Object value(Random r, Prop p) {
    if (p.nullable() && r.nextInt(4) == 0) {
      return null;
    }
    return value(r, p.kind(), false);
  }

  /**
   * @param literal only values a literal can spell (no negative numbers)
   * @return a random value of the kind
   */
  static Object value(Random r, Kind k, boolean literal) {
    int lo = literal ? 0 : -2;
    return switch (k) {
      case STRING -> STRINGS[r.nextInt(STRINGS.length)];
      case ENUM -> ENUMS[r.nextInt(ENUMS.length)];
      case I32, I64 -> (long) (lo + r.nextInt(8 - lo));
      case F32, F64 -> (lo * 2 + r.nextInt(16 - lo * 2)) * 0.25;
      case BOOL -> r.nextBoolean();
      case DATE -> DAY0.plusDays(r.nextInt(5));
      case DATETIME -> TIME0.plusSeconds(3600L * r.nextInt(5)).plusMillis(r.nextInt(2) * 250L);
      case LIST_STRING -> {
        List<Object> l = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
          l.add(STRINGS[r.nextInt(STRINGS.length)]);
        }
        yield l;
      }
      case LIST_I64 -> {
        List<Object> l = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
          l.add((long) (lo + r.nextInt(8 - lo)));
        }
        yield l;
      }
    };
  }
}
