package io.omnigraph.testkit.graph;

import java.util.Map;

/**
 * The small people-and-companies graph most engine tests load: {@code Person} (key {@code name},
 * optional {@code age}), {@code Company} (key {@code title}) and {@code WorksAt} edges with at
 * most one company per person.
 */
public final class PeopleGraph {
  private PeopleGraph() {}

  /** The schema (.pg). */
  public static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      node Company {
        title: String @key
      }
      edge WorksAt: Person -> Company @card(0..1) {
        since: I32?
      }
      """;

  /** Node type → its key property. */
  public static final Map<String, String> KEYS = Map.of("Person", "name", "Company", "title");

  /** Two people, one company and one edge (four rows over three tables). */
  public static final String PEOPLE = """
      {"type":"Person","data":{"name":"ada","age":36}}
      {"type":"Person","data":{"name":"bob"}}
      {"type":"Company","data":{"title":"acme"}}
      {"edge":"WorksAt","from":"ada","to":"acme","data":{"since":2020}}
      """;

  /** @return one NDJSON line (with its newline) for a {@code Person} */
  public static String person(String name, int age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\",\"age\":" + age + "}}\n";
  }
}
