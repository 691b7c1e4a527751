package io.omnigraph.api;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of one read query: its columns and its rows, read from exactly one graph snapshot.
 * Iterate it (once or many times) and close it when done; closing releases the rows.
 *
 * <p>Row values are typed Java values by column type: {@code String} (also enums) → {@link
 * String}; {@code Bool} → {@link Boolean}; {@code I32} → {@link Integer}; {@code I64}, {@code U32}
 * → {@link Long}; {@code U64} → {@link java.math.BigInteger}; {@code F32} → {@link Float}; {@code
 * F64} → {@link Double}; {@code Date} → {@link java.time.LocalDate}; {@code DateTime} → {@link
 * java.time.Instant}; {@code [T]} → an unmodifiable {@link List}; {@code Vector(n)} → {@code
 * float[]}. A bare node variable is its id ({@link String}). {@code count} is {@link Long}, {@code
 * sum}/{@code avg} {@link Double}, {@code min}/{@code max} the argument's type. SQL null is {@code
 * null}.
 */
public interface QueryResult extends Iterable<QueryResult.Row>, AutoCloseable {

  /** @return the query that ran */
  String queryName();

  /** @return the graph commit the query read (the snapshot) */
  String commitId();

  /** @return the columns in projection order */
  List<Column> columns();

  /** @return the number of rows */
  long rowCount();

  /** @return the rows in result order (valid until {@link #close()}) */
  List<Row> rows();

  @Override
  default Iterator<Row> iterator() {
    return rows().iterator();
  }

  /**
   * One JSON object per row, keys are column names in column order, e.g. {@code {"b.title":
   * "Dune", "b.year": 1965}}. Dates are {@code "YYYY-MM-DD"}, date-times RFC 3339 UTC strings,
   * 64-bit integers JSON numbers, non-finite floats the strings {@code "NaN"}, {@code "Infinity"},
   * {@code "-Infinity"}.
   *
   * @return the rows as compact JSON texts
   */
  List<String> jsonRows();

  /**
   * The whole result as one JSON object: {@code {"query_name": …, "commit_id": …, "row_count": n,
   * "columns": [{"name": …, "type": …, "nullable": …}], "rows": [{…}, …]}}.
   *
   * @return compact JSON text
   */
  String toJson();

  /** Releases the rows. Idempotent. */
  @Override
  void close();

  /**
   * A result column.
   *
   * @param name {@code x.prop} for {@code $x.prop}, {@code x} for a bare variable, the alias when
   *     one is written, {@code literal} for a literal, the function name for an unaliased call
   * @param type the value type in {@code .pg} spelling ({@code String}, {@code I64}, {@code
   *     [String]}, {@code Vector(3)}, …)
   * @param nullable whether the column can hold null
   */
  record Column(String name, String type, boolean nullable) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }

  /** One result row. */
  interface Row {
    /**
     * @param index a column index
     * @return the value (see {@link QueryResult} for the Java types), or null
     */
    Object get(int index);

    /**
     * @param column a column name
     * @return the value, or null
     * @throws IllegalArgumentException no column has that name
     */
    Object get(String column);

    /** @return column name → value, in column order (null values kept) */
    Map<String, Object> asMap();

    /** @return the row as one compact JSON object */
    String toJson();
  }
}
