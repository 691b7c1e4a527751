package io.omnigraph.engine.mutate;

import io.omnigraph.engine.schema.Constraint;
import io.omnigraph.engine.schema.EdgeType;
import io.omnigraph.engine.schema.NodeType;
import io.omnigraph.engine.schema.Property;
import io.omnigraph.engine.validate.PendingRows;
import io.omnigraph.engine.validate.Site;
import io.omnigraph.engine.value.UniqueTuples;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The graph rules' view of one {@link PendingTable}: its live rows in first-write order, each
 * sited at the statement that wrote it. A snapshot of the table taken when validation starts.
 */
final class PendingRowsView implements PendingRows {
  private final PendingTable t;
  private final String query;
  private final List<String> ids;
  private final Set<String> idSet;
  private final List<Constraint.Unique> uniques;

  PendingRowsView(PendingTable t, String query) {
    this.t = t;
    this.query = query;
    this.ids = new ArrayList<>(t.ids());
    this.idSet = Collections.unmodifiableSet(new LinkedHashSet<>(ids));
    this.uniques = PendingRows.super.uniques();
  }

  @Override
  public String tableKey() {
    return t.spec().tableKey();
  }

  @Override
  public NodeType nodeType() {
    return t.nodeType();
  }

  @Override
  public EdgeType edgeType() {
    return t.edgeType();
  }

  @Override
  public int size() {
    return ids.size();
  }

  @Override
  public String id(int k) {
    return ids.get(k);
  }

  @Override
  public Site site(int k) {
    return new Site.Statement(query, t.origin(ids.get(k)));
  }

  @Override
  public boolean containsId(String id) {
    return t.contains(id);
  }

  @Override
  public Set<String> idSet() {
    return idSet;
  }

  @Override
  public String endpoint(int k, boolean src) {
    return src ? t.src(ids.get(k)) : t.dst(ids.get(k));
  }

  @Override
  public List<Constraint.Unique> uniques() {
    return uniques;
  }

  @Override
  public List<Object> uniqueTuple(int c, int k) {
    String id = ids.get(k);
    List<Object> values = t.values(id);
    List<String> fields = uniques.get(c).fields();
    List<Object> out = new ArrayList<>(fields.size());
    for (String f : fields) {
      Object v;
      if (t.edgeType() != null && f.equals("src")) {
        v = t.src(id);
      } else if (t.edgeType() != null && f.equals("dst")) {
        v = t.dst(id);
      } else {
        v = values.get(indexOf(t.properties(), f));
      }
      if (v == null) {
        return null;
      }
      out.add(UniqueTuples.normalize(v));
    }
    return out;
  }

  /** @return the properties, in the order of {@link #values(int)} */
  List<Property> properties() {
    return t.properties();
  }

  /** @return row {@code k}'s property values, in table order */
  List<Object> values(int k) {
    return t.values(ids.get(k));
  }

  static int indexOf(List<Property> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("no property " + name);
  }
}
