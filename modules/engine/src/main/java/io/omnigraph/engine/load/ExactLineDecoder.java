package io.omnigraph.engine.load;

import static io.omnigraph.engine.load.SchemaLookups.ENVELOPE;
import static io.omnigraph.engine.load.SchemaLookups.RESERVED;
import static io.omnigraph.engine.load.SchemaLookups.indexOf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.validate.Site;
import io.omnigraph.engine.value.NodeIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The exact line decoder: parses a whole line into a JSON tree and checks it in the documented
 * order (envelope, type, data fields, values, {@code @range}/{@code @check}, key and id), so a line
 * with several problems reports the first one. Used for every line the {@link FastLineDecoder}
 * declines; a valid line is written to its table like a fast one.
 */
final class ExactLineDecoder {
  private final CompiledSchema schema;
  private final SchemaLookups lookups;
  private final LoadTables tables;
  private final long maxLineTokens;
  private final ObjectMapper mapper;
  // A reader bound to JsonNode once, so each line skips the root-deserializer lookup.
  private final ObjectReader treeReader;

  ExactLineDecoder(SchemaLookups lookups, LoadTables tables, long maxLineTokens) {
    this.schema = lookups.schema();
    this.lookups = lookups;
    this.tables = tables;
    this.maxLineTokens = maxLineTokens;
    this.mapper = mapper(maxLineTokens);
    this.treeReader = mapper.readerFor(JsonNode.class);
  }

  private static ObjectMapper mapper(long maxTokens) {
    JsonFactory factory = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxTokenCount(maxTokens).build())
        .build();
    return new ObjectMapper(factory)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  }

  /**
   * Decodes one line and writes its row.
   *
   * @throws io.omnigraph.api.InvalidInputException the first problem of the line
   */
  void line(byte[] bytes, int length, long line) {
    JsonNode root;
    try {
      root = treeReader.readValue(bytes, 0, length);
    } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
      throw LoadRule.TOO_MANY_TOKENS.at(line, null, "line has more than " + maxLineTokens + " JSON tokens");
    } catch (JsonProcessingException e) {
      throw LoadRule.INVALID_JSON.at(line, null, "invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw LoadRule.INVALID_JSON.at(line, null, "invalid JSON: " + e.getMessage());
    } catch (NumberFormatException e) {
      // Jackson reports a number it cannot represent (e.g. an exponent of thousands of digits) this way.
      throw LoadRule.INVALID_JSON.at(line, null, "invalid JSON: a number out of range: " + e.getMessage());
    }
    if (!(root instanceof ObjectNode obj)) {
      throw LoadRule.INVALID_ENVELOPE.at(line, null, "each line must be one JSON object, got " + Values.describe(root));
    }
    Iterator<String> names = obj.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (RESERVED.contains(n)) {
        throw LoadRule.RESERVED_FIELD.at(line, n, "top-level field '" + n + "' is reserved physical state");
      }
      if (!ENVELOPE.contains(n)) {
        throw LoadRule.INVALID_ENVELOPE.at(line, n, "unknown top-level graph batch field '" + n + "'");
      }
    }
    boolean isNode = obj.has("type");
    boolean isEdge = obj.has("edge");
    if (isNode == isEdge) {
      throw LoadRule.INVALID_ENVELOPE.at(line, null, "a line needs exactly one of 'type' (node) or 'edge'");
    }
    JsonNode data = obj.get("data");
    if (data == null) {
      data = mapper.createObjectNode();
    } else if (!data.isObject()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, "data", "'data' must be an object, got " + Values.describe(data));
    }
    if (isNode) {
      for (String f : List.of("from", "to")) {
        if (obj.has(f)) {
          throw LoadRule.INVALID_ENVELOPE.at(line, f, "node lines do not take '" + f + "'");
        }
      }
      String typeName = requireString(obj, "type", line);
      NodeType node = schema.catalog().node(typeName)
          .orElseThrow(() -> LoadRule.UNKNOWN_NODE_TYPE.at(line, "type", "unknown node type '" + typeName + "'"));
      TableRows.Row row = nodeRow(node, (ObjectNode) data, line);
      tables.write(tables.table(node.tableKey(), node, null), row);
      return;
    }
    String edgeName = requireString(obj, "edge", line);
    EdgeType edge = schema.catalog().edgeIgnoreCase(edgeName)
        .orElseThrow(() -> LoadRule.UNKNOWN_EDGE_TYPE.at(line, "edge", "unknown edge type '" + edgeName + "'"));
    String from = requireString(obj, "from", line);
    String to = requireString(obj, "to", line);
    TableRows.Row row = edgeRow(edge, from, to, (ObjectNode) data, line);
    tables.write(tables.table(edge.tableKey(), null, edge), row);
  }

  private static String requireString(ObjectNode obj, String field, long line) {
    JsonNode v = obj.get(field);
    if (v == null) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "edge lines need '" + field + "'");
    }
    if (!v.isTextual()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "'" + field + "' must be a string, got " + Values.describe(v));
    }
    if (v.asText().isEmpty()) {
      throw LoadRule.INVALID_ENVELOPE.at(line, field, "'" + field + "' must not be empty");
    }
    return v.asText();
  }

  private TableRows.Row nodeRow(NodeType node, ObjectNode data, long line) {
    String owner = node.tableKey();
    checkDataFields(owner, node.properties(), data, line, false);
    List<Object> values = values(owner, node.name(), node.properties(), data, line, node, null);
    String explicitId = explicitId(data, line);
    String id;
    List<String> keyOrder = lookups.keyOrder(node);
    if (!keyOrder.isEmpty()) {
      List<String> members = new ArrayList<>(keyOrder.size());
      for (String k : keyOrder) {
        int idx = indexOf(node.properties(), k);
        Property p = node.properties().get(idx);
        String rendered = NodeIds.renderMember(p.type(), values.get(idx)).orElseThrow(
            () -> LoadRule.MISSING_KEY.at(line, k, "node " + node.name() + " has a @key value that is not a valid key: '" + k + "'"));
        members.add(rendered);
      }
      id = NodeIds.fromMembers(members);
      if (explicitId != null && !explicitId.equals(id)) {
        throw LoadRule.INVALID_ID.at(line, "id", "explicit id '" + explicitId + "' does not match its canonical @key id '" + id + "'");
      }
    } else {
      id = explicitId != null ? explicitId : Ulid.generate();
    }
    return new TableRows.Row(line, id, null, null, values);
  }

  private TableRows.Row edgeRow(EdgeType edge, String from, String to, ObjectNode data, long line) {
    String owner = edge.tableKey();
    for (String f : List.of("src", "dst")) {
      if (data.has(f)) {
        throw LoadRule.RESERVED_FIELD.at(line, f, "edge data may not contain '" + f + "' (reserved structural state; use 'from'/'to')");
      }
    }
    checkDataFields(owner, edge.properties(), data, line, true);
    List<Object> values = values(owner, edge.name(), edge.properties(), data, line, null, edge);
    String explicitId = explicitId(data, line);
    if (edge.key().isEmpty()) {
      return new TableRows.Row(line, explicitId != null ? explicitId : Ulid.generate(), from, to, values);
    }
    List<String> members = new ArrayList<>();
    for (String k : lookups.edgeKeyOrder(edge)) {
      int idx = indexOf(edge.properties(), k);
      Property p = edge.properties().get(idx);
      members.add(NodeIds.renderMember(p.type(), values.get(idx)).orElseThrow(
          () -> LoadRule.MISSING_KEY.at(line, k, "edge " + edge.name() + " has a @key value that is not a valid key: '" + k + "'")));
    }
    String id = NodeIds.edgeId(from, to, members);
    if (explicitId != null && !explicitId.equals(id)) {
      throw LoadRule.INVALID_ID.at(line, "id", "explicit id '" + explicitId + "' does not match its canonical @key id '" + id + "'");
    }
    return new TableRows.Row(line, id, from, to, values);
  }

  private static String explicitId(ObjectNode data, long line) {
    JsonNode id = data.get("id");
    if (id == null || id.isNull()) {
      return null;
    }
    if (!id.isTextual() || id.asText().isEmpty()) {
      throw LoadRule.INVALID_ID.at(line, "id", "'id' must be a non-empty string, got " + Values.describe(id));
    }
    return id.asText();
  }

  private static void checkDataFields(String owner, List<Property> props, ObjectNode data, long line, boolean edge) {
    Iterator<String> names = data.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (n.equals("id")) {
        continue;
      }
      if (RESERVED.contains(n)) {
        throw LoadRule.RESERVED_FIELD.at(line, n, "data field '" + n + "' is reserved physical state");
      }
      if (indexOf(props, n) < 0) {
        throw LoadRule.UNKNOWN_FIELD.at(line, n, "unknown input field '" + n + "' for '" + owner + "'");
      }
    }
  }

  private static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private List<Object> values(String owner, String typeName, List<Property> props, ObjectNode data, long line, NodeType node,
      EdgeType edge) {
    Set<String> keyMembers = node != null ? lookups.keyMembers(node) : edge != null ? lookups.keyMembers(edge) : Set.of();
    Object[] out = new Object[props.size()];
    for (int i = 0; i < props.size(); i++) {
      Property p = props.get(i);
      JsonNode v = data.get(p.name());
      if (v == null || v.isNull()) {
        if (keyMembers.contains(p.name())) {
          throw LoadRule.MISSING_KEY.at(line, p.name(),
              (node != null ? "node " : "edge ") + typeName + " is missing a non-null @key value ('" + p.name() + "')");
        }
        if (!p.nullable()) {
          throw LoadRule.NULL_VALUE.at(line, p.name(), "non-nullable property '" + p.name() + "' has null or invalid values");
        }
        continue;
      }
      out[i] = Values.fromJson(owner, p, v, line);
    }
    if (node != null) {
      lookups.valueRules().checkRow(typeName, node.constraints(), props, out, new Site.Line(line));
    }
    return Arrays.asList(out);
  }
}
