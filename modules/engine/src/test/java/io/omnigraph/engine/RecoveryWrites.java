package io.omnigraph.engine;

/** The writes the recovery and storage-fault tests run on the people graph ({@link io.omnigraph.testkit.graph.PeopleGraph}). */
final class RecoveryWrites {
  private RecoveryWrites() {}

  /** The committed state every test starts from: one person, one company. */
  static final String BEFORE = """
      {"type":"Person","data":{"name":"ada","age":36}}
      {"type":"Company","data":{"title":"acme"}}
      """;
  /** Touches two tables: Person (upsert ada, insert bob) and Company (insert initech). */
  static final String WRITE = """
      {"type":"Person","data":{"name":"ada","age":37}}
      {"type":"Person","data":{"name":"bob"}}
      {"type":"Company","data":{"title":"initech"}}
      """;
  /** One more person. */
  static final String MORE = "{\"type\":\"Person\",\"data\":{\"name\":\"cy\"}}\n";
}
