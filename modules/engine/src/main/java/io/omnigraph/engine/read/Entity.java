package io.omnigraph.engine.read;

/**
 * One node or edge row as a query holds it: the id, for edges the endpoints, and the needed
 * columns in the order of {@link Binding#columns}.
 *
 * @param id the row id
 * @param src the edge's source id (null for nodes)
 * @param dst the edge's destination id (null for nodes)
 * @param vals the needed column values (engine representation)
 */
record Entity(String id, String src, String dst, Object[] vals) {
  static final Object[] NONE = new Object[0];

  static Entity idOnly(String id) {
    return new Entity(id, null, null, NONE);
  }
}
