package io.omnigraph.testkit.graph;

/**
 * The people-who-know-people graph the CLI tests load from files: {@code Person} (key
 * {@code name}, optional {@code age}) and {@code Knows} edges between people.
 */
public final class KnowsGraph {
  private KnowsGraph() {}

  /** The schema (.pg). */
  public static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;

  /** Three people and one edge. */
  public static final String PEOPLE = """
      {"type":"Person","data":{"name":"ada","age":36}}
      {"type":"Person","data":{"name":"bob"}}
      {"type":"Person","data":{"name":"cy","age":7}}
      {"edge":"Knows","from":"ada","to":"bob","data":{}}
      """;
}
