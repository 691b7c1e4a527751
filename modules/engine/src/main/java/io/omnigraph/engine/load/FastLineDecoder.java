package io.omnigraph.engine.load;

import static io.omnigraph.engine.load.SchemaLookups.RESERVED;
import static io.omnigraph.engine.load.SchemaLookups.indexOf;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.value.ArrowValues;
import io.omnigraph.engine.value.NodeIds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * The fast line decoder: streams one line with Jackson's non-blocking parser straight into its
 * table's vectors, checking values as they are written. It never reports an error for a bad line:
 * it declines (returns false) and the {@link ExactLineDecoder} re-reads the line and reports the
 * error with the documented precedence, or writes the row if it is valid after all (rare shapes
 * such as {@code data} before {@code type}). One instance per load; {@link #close()} it.
 */
final class FastLineDecoder implements AutoCloseable {
  // The fast path's parser: one non-blocking parser fed line by line, so a line costs no parser
  // creation. It counts tokens without a limit (the per-line limit is checked per line) and is
  // replaced whenever a line leaves it mid-document (declined, malformed or incomplete).
  private static final JsonFactory FAST_FACTORY = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxTokenCount(Long.MAX_VALUE).build())
      .build();
  private JsonParser lineParser;
  private ByteArrayFeeder lineFeeder;
  private long lineParserFed; // bytes fed to lineParser before the current line
  private final CompiledSchema schema;
  private final SchemaLookups lookups;
  private final LoadTables tables;
  private final long maxLineTokens;
  private final FastScalars scalars = new FastScalars();
  private final Map<String, FastShape> nodeShapes = new HashMap<>();
  private final Map<String, FastShape> edgeShapes = new HashMap<>();

  FastLineDecoder(SchemaLookups lookups, LoadTables tables, long maxLineTokens) {
    this.schema = lookups.schema();
    this.lookups = lookups;
    this.tables = tables;
    this.maxLineTokens = maxLineTokens;
  }

  /** Releases the line parser. */
  @Override
  public void close() {
    dropLineParser();
  }

  private JsonParser lineParser() throws IOException {
    if (lineParser == null) {
      lineParser = FAST_FACTORY.createNonBlockingByteArrayParser();
      lineFeeder = (ByteArrayFeeder) lineParser.getNonBlockingInputFeeder();
      lineParserFed = 0;
    }
    return lineParser;
  }

  private void dropLineParser() {
    if (lineParser != null) {
      try {
        lineParser.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("closing the line parser of a byte array failed", e);
      }
      lineParser = null;
      lineFeeder = null;
    }
  }

  /**
   * After the root object's closing brace: consumes the rest of the line if it is only JSON
   * whitespace, leaving the parser between documents for the next line.
   *
   * @return false if anything else follows the object on the line (the parser is then unusable)
   */
  private boolean restIsWhitespace(JsonParser p, byte[] bytes, int length) throws IOException {
    long end = p.currentLocation().getByteOffset() - lineParserFed;
    if (end < 0 || end > length) {
      return false;
    }
    for (int i = (int) end; i < length; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return false;
      }
    }
    return p.nextToken() == JsonToken.NOT_AVAILABLE;
  }

  /** What the fast path needs to know about one node or edge type, computed once per load. */
  private final class FastShape {
    final NodeType node;
    final EdgeType edge;
    final String tableKey;
    final List<Property> props;
    final PropertyType[] types;
    final ScalarKind[] kinds; // scalar kind, list item kind, F32 for vectors, STRING for enums
    final Set<String>[] enumValues;
    final Map<String, Integer> index = new HashMap<>();
    final boolean[] keyMember;
    final boolean[] keep;
    final int[] keyOrder; // property indexes in key order; empty without @key
    final boolean edgeKeyed; // an edge type with @key(src, dst[, ...]): keyOrder holds the property members
    final List<Constraint> rowChecks = new ArrayList<>(); // @range and @check, in declaration order
    final int[] rowCheckIndex;
    final boolean eligible; // false: a property name the envelope treats specially; use the exact path
    // per-row state
    final boolean[] seen;
    final Object[] kept;
    String explicitId;
    boolean explicitIdSeen;

    @SuppressWarnings("unchecked")
    FastShape(NodeType node, EdgeType edge) {
      this.node = node;
      this.edge = edge;
      this.tableKey = node != null ? node.tableKey() : edge.tableKey();
      this.props = node != null ? node.properties() : edge.properties();
      int n = props.size();
      types = new PropertyType[n];
      kinds = new ScalarKind[n];
      enumValues = new Set[n];
      keyMember = new boolean[n];
      keep = new boolean[n];
      seen = new boolean[n];
      kept = new Object[n];
      boolean ok = true;
      Set<String> members = node != null ? lookups.keyMembers(node) : lookups.keyMembers(edge);
      for (int i = 0; i < n; i++) {
        Property p = props.get(i);
        String name = p.name();
        if (name.equals("id") || RESERVED.contains(name) || (edge != null && (name.equals("src") || name.equals("dst")))) {
          ok = false;
        }
        index.put(name, i);
        types[i] = p.type();
        if (p.type() instanceof PropertyType.Scalar sc) {
          kinds[i] = sc.kind();
        } else if (p.type() instanceof PropertyType.ListOf l) {
          kinds[i] = l.item();
        } else if (p.type() instanceof PropertyType.VectorOf) {
          kinds[i] = ScalarKind.F32;
        } else {
          kinds[i] = ScalarKind.STRING;
          enumValues[i] = new HashSet<>(((PropertyType.EnumOf) p.type()).values());
        }
        if (members.contains(name)) {
          keyMember[i] = true;
          keep[i] = true;
        }
      }
      edgeKeyed = edge != null && edge.key().isPresent();
      List<String> order = node != null ? lookups.keyOrder(node) : lookups.edgeKeyOrder(edge);
      keyOrder = new int[order.size()];
      for (int i = 0; i < keyOrder.length; i++) {
        keyOrder[i] = index.get(order.get(i));
      }
      List<Integer> checkIdx = new ArrayList<>();
      if (node != null) {
        for (Constraint c : node.constraints()) {
          String field = c instanceof Constraint.Range r ? r.field() : c instanceof Constraint.Check ch ? ch.field() : null;
          if (field != null) {
            int idx = indexOf(props, field);
            rowChecks.add(c);
            checkIdx.add(idx);
            keep[idx] = true;
          }
        }
      }
      rowCheckIndex = checkIdx.stream().mapToInt(Integer::intValue).toArray();
      eligible = ok;
    }

    void beginRow() {
      Arrays.fill(seen, false);
      Arrays.fill(kept, null);
      explicitId = null;
      explicitIdSeen = false;
    }
  }

  private FastShape nodeShape(String typeName) {
    FastShape s = nodeShapes.get(typeName);
    if (s == null) {
      Optional<NodeType> node = schema.catalog().node(typeName);
      if (node.isEmpty()) {
        return null;
      }
      s = new FastShape(node.get(), null);
      nodeShapes.put(typeName, s);
    }
    return s.eligible ? s : null;
  }

  private FastShape edgeShape(String edgeName) {
    FastShape s = edgeShapes.get(edgeName);
    if (s == null) {
      Optional<EdgeType> edge = schema.catalog().edgeIgnoreCase(edgeName);
      if (edge.isEmpty()) {
        return null;
      }
      s = new FastShape(null, edge.get());
      edgeShapes.put(edgeName, s);
    }
    return s.eligible ? s : null;
  }

  // The last node and edge type a line named, as the characters of the line's value: consecutive
  // lines mostly name the same type, so its shape is found without making a String of the name.
  private char[] lastNodeName;
  private FastShape lastNode;
  private char[] lastEdgeName;
  private FastShape lastEdge;

  /** The shape of the node type named by the parser's current string value, or null (the exact path decides). */
  private FastShape nodeShape(JsonParser p) throws IOException {
    if (lastNode != null && currentTextIs(p, lastNodeName)) {
      return lastNode;
    }
    String name = p.getText();
    FastShape s = nodeShape(name);
    if (s != null) {
      lastNode = s;
      lastNodeName = name.toCharArray();
    }
    return s;
  }

  /** The shape of the edge type named by the parser's current string value, or null (the exact path decides). */
  private FastShape edgeShape(JsonParser p) throws IOException {
    if (lastEdge != null && currentTextIs(p, lastEdgeName)) {
      return lastEdge;
    }
    String name = p.getText();
    FastShape s = edgeShape(name);
    if (s != null) {
      lastEdge = s;
      lastEdgeName = name.toCharArray();
    }
    return s;
  }

  private static boolean currentTextIs(JsonParser p, char[] text) throws IOException {
    char[] chars = p.getTextCharacters();
    int off = p.getTextOffset();
    int len = p.getTextLength();
    return len == text.length && Arrays.equals(chars, off, off + len, text, 0, len);
  }

  private static final int SEEN_TYPE = 1;
  private static final int SEEN_EDGE = 2;
  private static final int SEEN_FROM = 4;
  private static final int SEEN_TO = 8;
  private static final int SEEN_DATA = 16;

  /**
   * Streams one line straight into its table's vectors. Throws nothing for a bad line: it returns
   * false (the row slot is left unkept) and the exact path reports the error. The only failure it
   * raises itself is a cross-row one (duplicate id), after the line has fully passed.
   *
   * @return true if the line was valid and kept (or counted past the row cap)
   */
  boolean line(byte[] bytes, int length, long line) throws IOException {
    JsonParser p = lineParser();
    lineFeeder.feedInput(bytes, 0, length);
    long tokensBefore = p.currentTokenCount();
    boolean betweenDocuments = false; // true once the whole line is consumed and the parser reusable
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      FastShape shape = null;
      TableRows t = null;
      String from = null;
      String to = null;
      int seen = 0;
      JsonToken tok;
      while ((tok = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        int bit;
        switch (name) {
          case "type" -> {
            bit = SEEN_TYPE;
            if (p.nextToken() != JsonToken.VALUE_STRING || (shape = nodeShape(p)) == null) {
              return false;
            }
          }
          case "edge" -> {
            bit = SEEN_EDGE;
            if (p.nextToken() != JsonToken.VALUE_STRING || (shape = edgeShape(p)) == null) {
              return false;
            }
          }
          case "from" -> {
            bit = SEEN_FROM;
            if (p.nextToken() != JsonToken.VALUE_STRING || (from = p.getText()).isEmpty()) {
              return false;
            }
          }
          case "to" -> {
            bit = SEEN_TO;
            if (p.nextToken() != JsonToken.VALUE_STRING || (to = p.getText()).isEmpty()) {
              return false;
            }
          }
          case "data" -> {
            bit = SEEN_DATA;
            if (shape == null || (seen & SEEN_DATA) != 0 || p.nextToken() != JsonToken.START_OBJECT) {
              return false;
            }
            t = tables.table(shape.tableKey, shape.node, shape.edge);
            shape.beginRow();
            if (!fastData(p, shape, t, t.slot())) {
              return false;
            }
          }
          default -> {
            return false;
          }
        }
        if ((seen & bit) != 0) {
          return false;
        }
        seen |= bit;
      }
      if (tok != JsonToken.END_OBJECT || !restIsWhitespace(p, bytes, length)) {
        return false;
      }
      betweenDocuments = true;
      lineParserFed += length;
      if (p.currentTokenCount() - tokensBefore > maxLineTokens) {
        return false; // the exact path reports too_many_tokens
      }
      boolean isNode = (seen & SEEN_TYPE) != 0;
      boolean isEdge = (seen & SEEN_EDGE) != 0;
      if (isNode == isEdge) {
        return false;
      }
      if (isNode ? (seen & (SEEN_FROM | SEEN_TO)) != 0 : (seen & (SEEN_FROM | SEEN_TO)) != (SEEN_FROM | SEEN_TO)) {
        return false;
      }
      if (shape.edge != null != isEdge) {
        return false;
      }
      if (t == null || !shape.tableKey.equals(t.spec().tableKey())) {
        if ((seen & SEEN_DATA) != 0) {
          return false; // data was read for another type than the one that finally applies
        }
        t = tables.table(shape.tableKey, shape.node, shape.edge);
        shape.beginRow();
        t.slot();
      }
      return finishRow(shape, t, t.slot(), line, from, to);
    } catch (JsonProcessingException e) {
      return false;
    } finally {
      if (!betweenDocuments) {
        dropLineParser();
      }
    }
  }

  private boolean fastData(JsonParser p, FastShape s, TableRows t, int slot) throws IOException {
    JsonToken tok;
    while ((tok = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      Integer idx = s.index.get(name);
      if (idx == null) {
        if (!name.equals("id") || s.explicitIdSeen) {
          return false;
        }
        s.explicitIdSeen = true;
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_STRING) {
          String id = p.getText();
          if (id.isEmpty()) {
            return false;
          }
          s.explicitId = id;
        } else if (v != JsonToken.VALUE_NULL) {
          return false;
        }
        continue;
      }
      int i = idx;
      if (s.seen[i]) {
        return false;
      }
      s.seen[i] = true;
      if (!fastValue(p, p.nextToken(), s, i, t.column(i), slot)) {
        return false;
      }
    }
    return tok == JsonToken.END_OBJECT;
  }

  /** Converts and writes one property value; false when the exact path must decide. */
  private boolean fastValue(JsonParser p, JsonToken tok, FastShape s, int i, FieldVector v, int slot) throws IOException {
    if (tok == JsonToken.VALUE_NULL) {
      if (s.keyMember[i] || !s.props.get(i).nullable()) {
        return false;
      }
      ArrowValues.setNull(v, slot);
      return true;
    }
    PropertyType type = s.types[i];
    if (type instanceof PropertyType.VectorOf vec) {
      if (tok != JsonToken.START_ARRAY) {
        return false;
      }
      FixedSizeListVector f = (FixedSizeListVector) v;
      Float4Vector data = (Float4Vector) f.getDataVector();
      int start = f.startNewValue(slot);
      int k = 0;
      float[] keptVec = s.keep[i] ? new float[vec.dimension()] : null;
      for (JsonToken item = p.nextToken(); item != JsonToken.END_ARRAY; item = p.nextToken()) {
        if (k >= vec.dimension() || !scalars.number(p, item, ScalarKind.F32)) {
          return false;
        }
        data.setSafe(start + k, scalars.numF);
        if (keptVec != null) {
          keptVec[k] = scalars.numF;
        }
        k++;
      }
      if (k != vec.dimension()) {
        return false;
      }
      s.kept[i] = keptVec;
      return true;
    }
    if (type instanceof PropertyType.ListOf) {
      if (tok != JsonToken.START_ARRAY) {
        return false;
      }
      ListVector l = (ListVector) v;
      FieldVector data = l.getDataVector();
      int start = l.startNewValue(slot);
      int k = 0;
      for (JsonToken item = p.nextToken(); item != JsonToken.END_ARRAY; item = p.nextToken()) {
        if (!scalars.scalar(p, item, s.kinds[i], data, start + k)) {
          return false;
        }
        k++;
      }
      l.endValue(slot, k);
      return true; // list members are never keys or row-checked
    }
    if (s.enumValues[i] != null) {
      if (tok != JsonToken.VALUE_STRING) {
        return false;
      }
      String text = p.getText();
      if (!s.enumValues[i].contains(text)) {
        return false;
      }
      ((VarCharVector) v).setSafe(slot, text.getBytes(StandardCharsets.UTF_8));
      if (s.keep[i]) {
        s.kept[i] = text;
      }
      return true;
    }
    scalars.keepNext = s.keep[i];
    boolean ok = scalars.scalar(p, tok, s.kinds[i], v, slot);
    scalars.keepNext = true;
    if (!ok) {
      return false;
    }
    if (s.keep[i]) {
      s.kept[i] = scalars.keptScalar;
    }
    return true;
  }


  /** Nulls for absent properties, row checks, id derivation, then keeps the row. */
  private boolean finishRow(FastShape s, TableRows t, int slot, long line, String from, String to) {
    for (int i = 0; i < s.seen.length; i++) {
      if (!s.seen[i]) {
        if (s.keyMember[i] || !s.props.get(i).nullable()) {
          return false;
        }
        ArrowValues.setNull(t.column(i), slot);
      }
    }
    for (int c = 0; c < s.rowCheckIndex.length; c++) {
      int idx = s.rowCheckIndex[c];
      Object value = s.kept[idx];
      if (value == null) {
        continue;
      }
      if (!lookups.valueRules().admits(s.rowChecks.get(c), s.types[idx], value)) {
        return false;
      }
    }
    String id;
    if (s.edgeKeyed) {
      List<String> members = new ArrayList<>(s.keyOrder.length);
      for (int idx : s.keyOrder) {
        Optional<String> m = NodeIds.renderMember(s.types[idx], s.kept[idx]);
        if (m.isEmpty()) {
          return false;
        }
        members.add(m.get());
      }
      id = NodeIds.edgeId(from, to, members);
      if (s.explicitId != null && !s.explicitId.equals(id)) {
        return false;
      }
    } else if (s.keyOrder.length > 0) {
      if (s.keyOrder.length == 1) {
        Optional<String> one = NodeIds.renderMember(s.types[s.keyOrder[0]], s.kept[s.keyOrder[0]]);
        if (one.isEmpty()) {
          return false;
        }
        id = one.get();
      } else {
        List<String> members = new ArrayList<>(s.keyOrder.length);
        for (int idx : s.keyOrder) {
          Optional<String> m = NodeIds.renderMember(s.types[idx], s.kept[idx]);
          if (m.isEmpty()) {
            return false;
          }
          members.add(m.get());
        }
        id = NodeIds.fromMembers(members);
      }
      if (s.explicitId != null && !s.explicitId.equals(id)) {
        return false;
      }
    } else {
      id = s.explicitId != null ? s.explicitId : Ulid.generate();
    }
    tables.commit(t, line, id, from, to);
    return true;
  }
}
