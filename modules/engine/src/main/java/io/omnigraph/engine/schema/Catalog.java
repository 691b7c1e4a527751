package io.omnigraph.engine.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The compiled, validated and immutable view of a {@code .pg} schema: interfaces, node types and
 * edge types in source order. Node and interface names are case-sensitive; edge names are also
 * resolvable case-insensitively ({@link #edgeIgnoreCase(String)}), which is how queries and the
 * loader look them up.
 */
public final class Catalog {
  private final List<InterfaceType> interfaces;
  private final List<NodeType> nodes;
  private final List<EdgeType> edges;
  private final Map<String, InterfaceType> interfaceByName = new LinkedHashMap<>();
  private final Map<String, NodeType> nodeByName = new LinkedHashMap<>();
  private final Map<String, EdgeType> edgeByName = new LinkedHashMap<>();
  private final Map<String, EdgeType> edgeByFoldedName = new LinkedHashMap<>();

  Catalog(List<InterfaceType> interfaces, List<NodeType> nodes, List<EdgeType> edges) {
    this.interfaces = List.copyOf(interfaces);
    this.nodes = List.copyOf(nodes);
    this.edges = List.copyOf(edges);
    interfaces.forEach(i -> interfaceByName.put(i.name(), i));
    nodes.forEach(n -> nodeByName.put(n.name(), n));
    edges.forEach(
        e -> {
          edgeByName.put(e.name(), e);
          edgeByFoldedName.put(e.name().toLowerCase(Locale.ROOT), e);
        });
  }

  /** @return interfaces in source order */
  public List<InterfaceType> interfaces() {
    return interfaces;
  }

  /** @return node types in source order */
  public List<NodeType> nodes() {
    return nodes;
  }

  /** @return edge types in source order */
  public List<EdgeType> edges() {
    return edges;
  }

  /**
   * @param name exact interface name
   * @return the interface
   */
  public Optional<InterfaceType> interfaceType(String name) {
    return Optional.ofNullable(interfaceByName.get(name));
  }

  /**
   * @param name exact node type name
   * @return the node type
   */
  public Optional<NodeType> node(String name) {
    return Optional.ofNullable(nodeByName.get(name));
  }

  /**
   * @param name exact edge type name
   * @return the edge type
   */
  public Optional<EdgeType> edge(String name) {
    return Optional.ofNullable(edgeByName.get(name));
  }

  /**
   * Case-insensitive edge lookup ({@code wrote} and {@code WROTE} both find {@code Wrote}); unique
   * because edge names that collide after case folding are rejected at compile time.
   *
   * @param name an edge name in any case
   * @return the edge type
   */
  public Optional<EdgeType> edgeIgnoreCase(String name) {
    return Optional.ofNullable(edgeByFoldedName.get(name.toLowerCase(Locale.ROOT)));
  }

  @Override
  public String toString() {
    return "Catalog" + nodeByName.keySet() + edgeByName.keySet();
  }
}
