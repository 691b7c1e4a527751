package io.omnigraph.engine.load;

import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.validate.ValueRules;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What both line decoders look up in the schema per row, computed once per load: the key members
 * and key order of each node type and the value rules (with their compiled patterns); plus the reserved and
 * envelope field names of the NDJSON format.
 */
final class SchemaLookups {
  /** Physical column names no input line may use as a field. */
  static final Set<String> RESERVED =
      Set.of("_rowid", "_rowaddr", "_rowoffset", "_row_created_at_version", "_row_last_updated_at_version", "_tombstone");
  /** The top-level members of a graph-batch line. */
  static final Set<String> ENVELOPE = Set.of("type", "edge", "from", "to", "data");

  private final CompiledSchema schema;
  private final ValueRules valueRules = new ValueRules();
  private final Map<String, Set<String>> keyMembersByType = new HashMap<>();
  private final Map<String, List<String>> keyOrderByType = new HashMap<>();

  SchemaLookups(CompiledSchema schema) {
    this.schema = schema;
  }

  CompiledSchema schema() {
    return schema;
  }

  /** @return the names of the node type's {@code @key} members (empty without a key) */
  Set<String> keyMembers(NodeType node) {
    return keyMembersByType.computeIfAbsent(node.name(),
        n -> node.key().map(k -> (Set<String>) new HashSet<>(k.fields())).orElse(Set.of()));
  }

  /** @return the node type's key members in id order (empty without a key) */
  List<String> keyOrder(NodeType node) {
    return keyOrderByType.computeIfAbsent(node.name(), n -> schema.keyOrder(node));
  }

  /** @return the names of the edge type's key property members (after src, dst; empty without a key) */
  Set<String> keyMembers(EdgeType edge) {
    return keyMembersByType.computeIfAbsent("edge:" + edge.name(),
        n -> new HashSet<>(edgeKeyOrder(edge)));
  }

  /** @return the edge type's key property members in id order (empty without a key or with src, dst only) */
  List<String> edgeKeyOrder(EdgeType edge) {
    return keyOrderByType.computeIfAbsent("edge:" + edge.name(), n -> schema.edgeKeyProperties(edge));
  }

  /** @return the {@code @range}/{@code @check} rules of this load */
  ValueRules valueRules() {
    return valueRules;
  }

  static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
