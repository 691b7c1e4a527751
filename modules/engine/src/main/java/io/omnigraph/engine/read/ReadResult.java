package io.omnigraph.engine.read;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.omnigraph.api.QueryResult;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@link QueryResult} of one executed read query: typed Java values per row. */
final class ReadResult implements QueryResult {
  private static final JsonFactory JSON = new JsonFactory();

  private final String queryName;
  private final String commitId;
  private final List<Column> columns;
  private List<Row> rows;

  ReadResult(String queryName, String commitId, List<Column> columns, List<Object[]> values) {
    this.queryName = queryName;
    this.commitId = commitId;
    this.columns = List.copyOf(columns);
    List<Row> out = new ArrayList<>(values.size());
    for (Object[] v : values) {
      out.add(new ResultRow(v));
    }
    this.rows = Collections.unmodifiableList(out);
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
    return rows().size();
  }

  @Override
  public List<Row> rows() {
    if (rows == null) {
      throw new IllegalStateException("the query result is closed");
    }
    return rows;
  }

  @Override
  public List<String> jsonRows() {
    List<String> out = new ArrayList<>();
    for (Row r : rows()) {
      out.add(r.toJson());
    }
    return out;
  }

  @Override
  public String toJson() {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      g.writeStringField("query_name", queryName);
      g.writeStringField("commit_id", commitId);
      g.writeNumberField("row_count", rowCount());
      g.writeArrayFieldStart("columns");
      for (Column c : columns) {
        g.writeStartObject();
        g.writeStringField("name", c.name());
        g.writeStringField("type", c.type());
        g.writeBooleanField("nullable", c.nullable());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rows");
      for (Row r : rows()) {
        ((ResultRow) r).write(g);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  @Override
  public void close() {
    rows = null;
  }

  @Override
  public String toString() {
    return "QueryResult[" + queryName + ", " + (rows == null ? "closed" : rows.size() + " rows") + "]";
  }

  private final class ResultRow implements Row {
    private final Object[] values;

    ResultRow(Object[] values) {
      this.values = values;
    }

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
      throw new IllegalArgumentException("no column '" + column + "' (columns: "
          + columns.stream().map(Column::name).toList() + ")");
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
      StringWriter w = new StringWriter();
      try (JsonGenerator g = JSON.createGenerator(w)) {
        write(g);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return w.toString();
    }

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      for (int i = 0; i < columns.size(); i++) {
        g.writeFieldName(columns.get(i).name());
        ReadValues.json(g, values[i]);
      }
      g.writeEndObject();
    }

    @Override
    public String toString() {
      return toJson();
    }
  }
}
