package io.omnigraph.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.SchemaInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one order tables are listed in, by the server's JSON and the CLI's text and JSON alike
 * (docs/cli.md, "Output"): the schema's order (node types as declared, then edge types as declared),
 * then any table the schema no longer has, by name. The engine's maps have no stable order of their own.
 */
public final class TableOrder implements Comparator<String> {
  private final List<String> schemaOrder;

  private TableOrder(List<String> schemaOrder) {
    this.schemaOrder = schemaOrder;
  }

  /**
   * @param schema a graph's accepted schema
   * @return the order of {@code schema}'s tables (declaration order, read from its IR)
   */
  public static TableOrder of(SchemaInfo schema) {
    List<String> keys = new ArrayList<>();
    JsonNode ir;
    try {
      ir = Wire.JSON.readTree(schema.irJson());
    } catch (JsonProcessingException e) {
      ir = Wire.JSON.createObjectNode();
    }
    ir.path("nodes").forEach(n -> keys.add("node:" + n.path("name").asText()));
    ir.path("edges").forEach(e -> keys.add("edge:" + e.path("name").asText()));
    if (keys.isEmpty()) {
      keys.addAll(schema.tableKeys());
    }
    return new TableOrder(List.copyOf(keys));
  }

  @Override
  public int compare(String a, String b) {
    int ia = rank(a);
    int ib = rank(b);
    return ia != ib ? Integer.compare(ia, ib) : a.compareTo(b);
  }

  private int rank(String key) {
    int i = schemaOrder.indexOf(key);
    return i < 0 ? Integer.MAX_VALUE : i;
  }

  /**
   * @param map a map by table key
   * @return {@code map}'s entries in this order
   */
  public <V> Map<String, V> sorted(Map<String, V> map) {
    Map<String, V> out = new LinkedHashMap<>();
    map.keySet().stream().sorted(this).forEach(k -> out.put(k, map.get(k)));
    return out;
  }
}
