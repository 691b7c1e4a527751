package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.SchemaInfo;
import io.omnigraph.cli.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order tables are printed in, everywhere (text and every JSON map): the schema's order (node
 * types as declared, then edge types as declared), then any table the schema no longer has, by name.
 * The engine's maps have no stable order of their own.
 */
final class TableOrder implements Comparator<String> {
  private final List<String> schemaOrder;

  private TableOrder(List<String> schemaOrder) {
    this.schemaOrder = schemaOrder;
  }

  /** @return the order of {@code schema}'s tables (declaration order, read from its IR) */
  static TableOrder of(SchemaInfo schema) {
    List<String> keys = new ArrayList<>();
    JsonNode ir = Json.parseObject(schema.irJson());
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

  /** @return {@code map}'s entries in this order */
  <V> Map<String, V> sorted(Map<String, V> map) {
    Map<String, V> out = new LinkedHashMap<>();
    map.keySet().stream().sorted(this).forEach(k -> out.put(k, map.get(k)));
    return out;
  }
}
