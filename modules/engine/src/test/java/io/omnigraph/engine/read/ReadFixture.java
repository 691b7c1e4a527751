package io.omnigraph.engine.read;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.QueryResult;
import io.omnigraph.testkit.graph.GraphIo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A small people/companies graph with a cycle, a self-loop, parallel edges, nulls and lists. */
final class ReadFixture {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
        tags: [String]?
        score: F64?
      }
      node Company {
        name: String @key
        city: String?
      }
      edge Knows: Person -> Person {
        since: I32?
      }
      edge WorksAt: Person -> Company
      """;

  /**
   * ada(36) bob(25) cy(null) dee(41) eve(25); Knows: ada→bob (2010), ada→bob (2020, parallel),
   * bob→cy (2015), cy→dee, dee→ada (cycle ada→bob→cy→dee→ada), ada→ada (self-loop); WorksAt:
   * ada→acme, bob→acme, dee→blox, eve→corp.
   */
  static final String DATA = """
      {"type":"Person","data":{"name":"ada","age":36,"tags":["math","poetry"],"score":9.5}}
      {"type":"Person","data":{"name":"bob","age":25,"tags":["art"],"score":7.25}}
      {"type":"Person","data":{"name":"cy"}}
      {"type":"Person","data":{"name":"dee","age":41,"tags":["math"]}}
      {"type":"Person","data":{"name":"eve","age":25,"tags":[],"score":3.0}}
      {"type":"Company","data":{"name":"acme","city":"paris"}}
      {"type":"Company","data":{"name":"blox"}}
      {"type":"Company","data":{"name":"corp","city":"rome"}}
      {"edge":"Knows","from":"ada","to":"bob","data":{"since":2010}}
      {"edge":"Knows","from":"ada","to":"bob","data":{"since":2020}}
      {"edge":"Knows","from":"bob","to":"cy","data":{"since":2015}}
      {"edge":"Knows","from":"cy","to":"dee","data":{}}
      {"edge":"Knows","from":"dee","to":"ada","data":{}}
      {"edge":"Knows","from":"ada","to":"ada","data":{}}
      {"edge":"WorksAt","from":"ada","to":"acme","data":{}}
      {"edge":"WorksAt","from":"bob","to":"acme","data":{}}
      {"edge":"WorksAt","from":"dee","to":"blox","data":{}}
      {"edge":"WorksAt","from":"eve","to":"corp","data":{}}
      """;

  private ReadFixture() {}

  static Graph create(Path dir) {
    Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA);
    GraphIo.load(g, LoadMode.OVERWRITE, DATA);
    return g;
  }

  /** Runs a one-query file and returns its rows as JSON texts. */
  static List<String> rows(Graph g, String gq, Map<String, ?> params) {
    String name = gq.substring(gq.indexOf("query ") + 6, gq.indexOf('(')).trim();
    try (QueryResult r = g.query(gq, name, QueryParams.of(params), QueryOptions.defaults())) {
      return r.jsonRows();
    }
  }

  static List<String> rows(Graph g, String gq) {
    return rows(g, gq, Map.of());
  }
}
