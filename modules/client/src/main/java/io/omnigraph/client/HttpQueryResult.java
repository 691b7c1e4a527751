package io.omnigraph.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.QueryResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link QueryResult} rebuilt from the server's ReadOutput: row values are turned back into the
 * Java types the embedded engine returns, by column type ({@link QueryResult}'s table).
 */
final class HttpQueryResult implements QueryResult {
  private final String queryName;
  private final String commitId;
  private final List<Column> columns;
  private final List<Row> rows;
  private final List<String> jsonRows;

  HttpQueryResult(JsonNode r) {
    this.queryName = r.path("query_name").asText();
    this.commitId = r.path("graph_commit_id").asText(null);
    this.columns = columns(r.path("columns"));
    List<Row> rs = new ArrayList<>();
    List<String> js = new ArrayList<>();
    for (JsonNode row : r.path("rows")) {
      String text = row.toString();
      js.add(text);
      Object[] values = new Object[columns.size()];
      for (int i = 0; i < columns.size(); i++) {
        values[i] = value(row.get(columns.get(i).name()), columns.get(i).type());
      }
      rs.add(new HttpRow(columns, values, text));
    }
    this.rows = List.copyOf(rs);
    this.jsonRows = List.copyOf(js);
  }

  static List<Column> columns(JsonNode a) {
    List<Column> cs = new ArrayList<>();
    a.forEach(c -> cs.add(new Column(c.path("name").asText(), c.path("type").asText(), c.path("nullable").asBoolean())));
    return List.copyOf(cs);
  }

  /** The JSON value of a column back as the engine's Java type. */
  static Object value(JsonNode v, String type) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (type.startsWith("[") && type.endsWith("]")) {
      List<Object> list = new ArrayList<>();
      String item = type.substring(1, type.length() - 1);
      v.forEach(e -> list.add(value(e, item)));
      return Collections.unmodifiableList(list);
    }
    if (type.startsWith("Vector")) {
      float[] f = new float[v.size()];
      for (int i = 0; i < f.length; i++) {
        f[i] = (float) floating(v.get(i));
      }
      return f;
    }
    switch (type) {
      case "Bool":
        return v.asBoolean();
      case "I32":
        return v.asInt();
      case "I64":
      case "U32":
        return v.asLong();
      case "U64":
        return v.isTextual() ? new BigInteger(v.asText()) : v.bigIntegerValue();
      case "F32":
        return (float) floating(v);
      case "F64":
        return floating(v);
      case "Date":
        return LocalDate.parse(v.asText());
      case "DateTime":
        return Instant.parse(v.asText());
      default:
        if (v.isTextual()) {
          return v.textValue();
        }
        if (v.isIntegralNumber()) {
          return v.asLong();
        }
        if (v.isNumber()) {
          return v.asDouble();
        }
        if (v.isBoolean()) {
          return v.asBoolean();
        }
        return v.toString();
    }
  }

  private static double floating(JsonNode v) {
    if (v.isTextual()) {
      switch (v.asText()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          return Double.parseDouble(v.asText());
      }
    }
    return v.asDouble();
  }

  @Override
  public String queryName() {
    return queryName;
  }

  @Override
  public String commitId() {
    return commitId;
  }

  @Override
  public List<Column> columns() {
    return columns;
  }

  @Override
  public long rowCount() {
    return rows.size();
  }

  @Override
  public List<Row> rows() {
    return rows;
  }

  @Override
  public List<String> jsonRows() {
    return jsonRows;
  }

  @Override
  public String toJson() {
    ObjectNode o = HttpGraph.JSON.createObjectNode();
    o.put("query_name", queryName);
    o.put("commit_id", commitId);
    o.put("row_count", rows.size());
    ArrayNode cs = o.putArray("columns");
    columns.forEach(c -> cs.addObject().put("name", c.name()).put("type", c.type()).put("nullable", c.nullable()));
    ArrayNode rs = o.putArray("rows");
    try {
      for (String r : jsonRows) {
        rs.add(HttpGraph.JSON.readTree(r));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return o.toString();
  }

  @Override
  public void close() {}

  private record HttpRow(List<Column> columns, Object[] values, String json) implements Row {
    @Override
    public Object get(int index) {
      return values[index];
    }

    @Override
    public Object get(String column) {
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).name().equals(column)) {
          return values[i];
        }
      }
      throw new IllegalArgumentException("no column '" + column + "'");
    }

    @Override
    public Map<String, Object> asMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        m.put(columns.get(i).name(), values[i]);
      }
      return Collections.unmodifiableMap(m);
    }

    @Override
    public String toJson() {
      return json;
    }
  }
}
