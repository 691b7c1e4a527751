package io.omnigraph.engine.read;

/**
 * One node or edge row as a query holds it: the id, for edges the endpoints, the needed columns
 * in the order of {@link Binding#columns}, and, when the row came from the {@link NodeCache}, its
 * row number there (so a traversal can find its CSR index without hashing the id).
 *
 * @param id the row id
 * @param src the edge's source id (null for nodes)
 * @param dst the edge's destination id (null for nodes)
 * @param vals the needed column values (engine representation)
 * @param row the row in the variable's cached node table ({@link BindingScans#cachedTable}), or -1
 */
record Entity(String id, String src, String dst, Object[] vals, int row) {
  static final Object[] NONE = new Object[0];

  Entity(String id, String src, String dst, Object[] vals) {
    this(id, src, dst, vals, -1);
  }

  static Entity idOnly(String id) {
    return new Entity(id, null, null, NONE, -1);
  }
}
