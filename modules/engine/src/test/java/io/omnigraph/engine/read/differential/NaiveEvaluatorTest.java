package io.omnigraph.engine.read.differential;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.read.differential.GraphModel.Edge;
import io.omnigraph.engine.read.differential.GraphModel.EdgeType;
import io.omnigraph.engine.read.differential.GraphModel.Kind;
import io.omnigraph.engine.read.differential.GraphModel.Node;
import io.omnigraph.engine.read.differential.GraphModel.NodeType;
import io.omnigraph.engine.read.differential.GraphModel.Prop;
import io.omnigraph.engine.read.differential.NaiveEvaluator.OrderMode;
import io.omnigraph.engine.read.differential.NaiveEvaluator.Result;
import io.omnigraph.engine.read.differential.QueryModel.Agg;
import io.omnigraph.engine.read.differential.QueryModel.Alias;
import io.omnigraph.engine.read.differential.QueryModel.Binding;
import io.omnigraph.engine.read.differential.QueryModel.Clause;
import io.omnigraph.engine.read.differential.QueryModel.Filter;
import io.omnigraph.engine.read.differential.QueryModel.Lit;
import io.omnigraph.engine.read.differential.QueryModel.Not;
import io.omnigraph.engine.read.differential.QueryModel.Ordering;
import io.omnigraph.engine.read.differential.QueryModel.Param;
import io.omnigraph.engine.read.differential.QueryModel.ParamDecl;
import io.omnigraph.engine.read.differential.QueryModel.Projection;
import io.omnigraph.engine.read.differential.QueryModel.PropMatch;
import io.omnigraph.engine.read.differential.QueryModel.Traversal;
import io.omnigraph.engine.read.differential.QueryModel.Var;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The naive evaluator against expectations computed by hand, one construct at a time, on one tiny
 * graph drawn here:
 *
 * <pre>
 *   Person a (age 30, tags [x, y], name "ann")    Company a (size 10)   -- same id as Person a
 *   Person b (age null, tags [y], name "bob")     Company m (size null)
 *   Person c (age 20, no tags, name "cat")
 *   Person d (age 30, no tags, no name)
 *   Knows:   k1 a→b (since 1), k4 a→b (parallel, since 2), k2 b→c, k3 c→c (self-loop), k5 c→d
 *   WorksAt: e1 a→a, e2 b→m, e3 c→a
 * </pre>
 */
class NaiveEvaluatorTest {
  static final GraphModel G = graph();

  static GraphModel graph() {
    NodeType person = new NodeType("Person", true, List.of(new Prop("age", Kind.I64, true),
        new Prop("tags", Kind.LIST_STRING, true), new Prop("name", Kind.STRING, true)));
    NodeType company = new NodeType("Company", true, List.of(new Prop("size", Kind.I64, true)));
    EdgeType knows = new EdgeType("Knows", "Person", "Person", List.of(new Prop("since", Kind.I64, true)));
    EdgeType worksAt = new EdgeType("WorksAt", "Person", "Company", List.of());
    List<Node> nodes = List.of(
        new Node("Person", "a", Map.of("age", 30L, "tags", List.of("x", "y"), "name", "ann")),
        new Node("Person", "b", Map.of("tags", List.of("y"), "name", "bob")),
        new Node("Person", "c", Map.of("age", 20L, "name", "cat")),
        new Node("Person", "d", Map.of("age", 30L)),
        new Node("Company", "a", Map.of("size", 10L)),
        new Node("Company", "m", Map.of()));
    List<Edge> edges = List.of(
        new Edge("Knows", "k1", "a", "b", Map.of("since", 1L)),
        new Edge("Knows", "k2", "b", "c", Map.of()),
        new Edge("Knows", "k3", "c", "c", Map.of()),
        new Edge("Knows", "k4", "a", "b", Map.of("since", 2L)),
        new Edge("Knows", "k5", "c", "d", Map.of()),
        new Edge("WorksAt", "e1", "a", "a", Map.of()),
        new Edge("WorksAt", "e2", "b", "m", Map.of()),
        new Edge("WorksAt", "e3", "c", "a", Map.of()));
    return new GraphModel(List.of(person, company), List.of(knows, worksAt), nodes, edges);
  }

  // ---- small builders ----

  static Binding bind(String var, String type, PropMatch... m) {
    return new Binding(var, type, List.of(m));
  }

  static Traversal hop(String l, String edge, String r) {
    return new Traversal(l, null, edge, false, null, null, r);
  }

  static Traversal hops(String l, String edge, int min, int max, String r) {
    return new Traversal(l, null, edge, false, min, max, r);
  }

  static QueryModel.Prop prop(String v, String p) {
    return new QueryModel.Prop(v, p);
  }

  static Lit lit(Object v) {
    Kind k = v instanceof String ? Kind.STRING : Kind.I64;
    return new Lit(k, v);
  }

  static Projection ret(String var) {
    return new Projection(new Var(var), null);
  }

  static QueryModel q(List<Clause> clauses, List<Projection> returns) {
    return new QueryModel(List.of(), clauses, returns, List.of(), null, Map.of());
  }

  static List<List<Object>> rows(QueryModel q) {
    return new NaiveEvaluator(G).evaluate(q).rows();
  }

  static List<Object> col(QueryModel q) {
    return rows(q).stream().map(r -> r.get(0)).sorted().toList();
  }

  // ---- bindings ----

  @Test
  void bindingMatchesListMembershipAndEquality() {
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("tags", lit("y")))), List.of(ret("p")))))
        .containsExactly("a", "b");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("age", lit(30L)))), List.of(ret("p")))))
        .containsExactly("a", "d");
  }

  @Test
  void nullParameterNeverMatches() {
    Map<String, Object> params = new HashMap<>();
    params.put("x", null);
    QueryModel q = new QueryModel(List.of(new ParamDecl("x", Kind.I64, true)),
        List.of(bind("p", "Person", new PropMatch("age", new Param("x")))), List.of(ret("p")), List.of(), null,
        params);
    assertThat(rows(q)).isEmpty();
    QueryModel ne = new QueryModel(List.of(new ParamDecl("x", Kind.I64, true)),
        List.of(bind("p", "Person"), new Filter(prop("p", "age"), "!=", new Param("x"))), List.of(ret("p")),
        List.of(), null, params);
    assertThat(rows(ne)).isEmpty();
  }

  // ---- traversals ----

  @Test
  void singleHopReportsEachDestinationOncePerSource() {
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), hop("p", "knows", "q")),
        List.of(ret("q"))))).containsExactly("b");
  }

  @Test
  void directionIsInferredFromTheBoundType() {
    // Company a is the target of a and c: from a Company the traversal goes in.
    assertThat(col(q(List.of(bind("c", "Company", new PropMatch("size", lit(10L))), hop("c", "worksAt", "p")),
        List.of(ret("p"))))).containsExactly("a", "c");
  }

  @Test
  void boundedHopsCountShortestDistanceAndASelfLoopIsNoExtraHop() {
    // From a: b at 1, c at 2, d at 3.
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), hops("p", "knows", 2, 2, "q")),
        List.of(ret("q"))))).containsExactly("c");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), hops("p", "knows", 1, 3, "q")),
        List.of(ret("q"))))).containsExactly("b", "c", "d");
    // From b: c at 1 (with a self-loop), d at 2. The self-loop must not report c again at hop 2.
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("bob"))), hops("p", "knows", 2, 2, "q")),
        List.of(ret("q"))))).containsExactly("d");
    // From c: c itself through its self-loop at hop 1, d at 1; nothing at two or three hops.
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("cat"))), hops("p", "knows", 1, 1, "q")),
        List.of(ret("q"))))).containsExactly("c", "d");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("cat"))), hops("p", "knows", 2, 3, "q")),
        List.of(ret("q"))))).isEmpty();
  }

  @Test
  void aCycleBackToTheSourceIsNotAReturnToIt() {
    GraphModel cyc = new GraphModel(G.nodeTypes(), G.edgeTypes(), G.nodes(), List.of(
        new Edge("Knows", "x1", "a", "b", Map.of()), new Edge("Knows", "x2", "b", "a", Map.of())));
    QueryModel q = q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), hops("p", "knows", 1, 2, "q")),
        List.of(ret("q")));
    assertThat(new NaiveEvaluator(cyc).evaluate(q).rows()).containsExactly(List.of("b"));
  }

  @Test
  void crossTypeHopsAreOneHop() {
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), hops("p", "worksAt", 1, 3, "c")),
        List.of(ret("c"))))).containsExactly("a");
    assertThat(col(q(List.of(bind("p", "Person"), hops("p", "worksAt", 2, 2, "c")), List.of(ret("c"))))).isEmpty();
  }

  @Test
  void undirectedIsASetOfNeighbours() {
    Traversal und = new Traversal("p", null, "knows", true, null, null, "q");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("bob"))), und), List.of(ret("q")))))
        .containsExactly("a", "c");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("cat"))), und), List.of(ret("q")))))
        .containsExactly("b", "c", "d");
  }

  @Test
  void edgeBindingGivesOneRowPerEdge() {
    Traversal w = new Traversal("p", "w", "knows", false, null, null, "q");
    QueryModel q = q(List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), w),
        List.of(new Projection(prop("w", "since"), null), ret("q")));
    assertThat(rows(q)).containsExactlyInAnyOrder(List.of(1L, "b"), List.of(2L, "b"));
    // Undirected: the self-loop once, the other two edges each once from c.
    Traversal uw = new Traversal("p", "w", "knows", true, null, null, "q");
    assertThat(col(q(List.of(bind("p", "Person", new PropMatch("name", lit("cat"))), uw), List.of(ret("q")))))
        .containsExactly("b", "c", "d");
  }

  @Test
  void aVariableOnBothEndsHoldsThroughASelfLoop() {
    assertThat(col(q(List.of(bind("p", "Person"), hop("p", "knows", "p")), List.of(ret("p"))))).containsExactly("c");
  }

  // ---- filters ----

  @Test
  void filtersNeverMatchNull() {
    assertThat(col(q(List.of(bind("p", "Person"), new Filter(prop("p", "age"), "!=", lit(30L))), List.of(ret("p")))))
        .containsExactly("c");
    assertThat(col(q(List.of(bind("p", "Person"), new Filter(prop("p", "name"), "contains", lit("a"))),
        List.of(ret("p"))))).containsExactly("a", "c");
    assertThat(col(q(List.of(bind("p", "Person"), new Filter(prop("p", "name"), "starts_with", lit("b"))),
        List.of(ret("p"))))).containsExactly("b");
    assertThat(col(q(List.of(bind("p", "Person"), new Filter(prop("p", "tags"), "contains", lit("x"))),
        List.of(ret("p"))))).containsExactly("a");
  }

  @Test
  void filterBetweenTwoVariables() {
    QueryModel q = q(List.of(bind("p", "Person"), hop("p", "knows", "q"),
        new Filter(prop("q", "age"), ">=", prop("p", "age"))), List.of(ret("p"), ret("q")));
    assertThat(rows(q)).containsExactlyInAnyOrder(List.of("c", "c"), List.of("c", "d"));
  }

  // ---- negation ----

  @Test
  void negationIsAnAntiJoinPerOuterRow() {
    assertThat(col(q(List.of(bind("p", "Person"), new Not(List.of(hop("p", "worksAt", "_")))), List.of(ret("p")))))
        .containsExactly("d");
    assertThat(col(q(List.of(bind("p", "Person"), new Not(List.of(hop("_", "knows", "p")))), List.of(ret("p")))))
        .containsExactly("a");
    // Persons who work at no company of size 10: b (at m) and d (nowhere).
    assertThat(col(q(List.of(bind("p", "Person"), new Not(List.of(hop("p", "worksAt", "c"),
        bind("c", "Company", new PropMatch("size", lit(10L)))))), List.of(ret("p"))))).containsExactly("b", "d");
    // Two outer variables: 16 pairs less the 4 distinct knows pairs.
    assertThat(rows(q(List.of(bind("p", "Person"), bind("q", "Person"), new Not(List.of(hop("p", "knows", "q")))),
        List.of(ret("p"), ret("q"))))).hasSize(12);
  }

  // ---- aggregates ----

  @Test
  void aggregatesGroupByEveryPlainProjection() {
    QueryModel q = q(List.of(bind("p", "Person"), hop("p", "worksAt", "c")), List.of(
        new Projection(new Var("c"), "g0"), new Projection(new Agg("count", new Var("p")), "a0"),
        new Projection(new Agg("sum", prop("p", "age")), "a1"),
        new Projection(new Agg("max", prop("p", "name")), "a2")));
    assertThat(rows(q)).containsExactlyInAnyOrder(Arrays.asList("a", 2L, 50.0, "cat"),
        Arrays.asList("m", 1L, null, "bob"));
  }

  @Test
  void countSkipsNullsAndAvgIsADouble() {
    QueryModel q = q(List.of(bind("p", "Person")), List.of(new Projection(new Agg("count", prop("p", "age")), "a0"),
        new Projection(new Agg("avg", prop("p", "age")), "a1"), new Projection(new Agg("min", prop("p", "age")), "a2")));
    assertThat(rows(q)).containsExactly(List.of(3L, 80.0 / 3, 20L));
  }

  @Test
  void emptyInputGivesOneRowWithoutGroupKeysAndNoneWithThem() {
    List<Clause> none = List.of(bind("p", "Person", new PropMatch("name", lit("zzz"))));
    assertThat(rows(q(none, List.of(new Projection(new Agg("count", new Var("p")), "a0"),
        new Projection(new Agg("sum", prop("p", "age")), "a1"))))).containsExactly(Arrays.asList(0L, null));
    assertThat(rows(q(none, List.of(new Projection(prop("p", "age"), "g0"),
        new Projection(new Agg("count", new Var("p")), "a0"))))).isEmpty();
  }

  // ---- order and limit ----

  @Test
  void orderPutsNullsFirstAscendingLastDescendingAndBreaksTiesById() {
    List<Clause> all = List.of(bind("p", "Person"));
    QueryModel asc = new QueryModel(List.of(), all, List.of(ret("p")),
        List.of(new Ordering(prop("p", "age"), false)), null, Map.of());
    Result r = new NaiveEvaluator(G).evaluate(asc);
    assertThat(r.mode()).isEqualTo(OrderMode.TOTAL);
    assertThat(r.rows()).containsExactly(List.of("b"), List.of("c"), List.of("a"), List.of("d"));
    QueryModel desc = new QueryModel(List.of(), all, List.of(ret("p")),
        List.of(new Ordering(prop("p", "age"), true)), 2, Map.of());
    assertThat(rows(desc)).containsExactly(List.of("a"), List.of("d"));
    QueryModel descAll = new QueryModel(List.of(), all, List.of(ret("p")),
        List.of(new Ordering(prop("p", "age"), true)), null, Map.of());
    assertThat(rows(descAll)).containsExactly(List.of("a"), List.of("d"), List.of("c"), List.of("b"));
  }

  @Test
  void tieBreakIncludesEdgeVariables() {
    Traversal w = new Traversal("p", "w", "knows", false, null, null, "q");
    QueryModel q = new QueryModel(List.of(), List.of(bind("p", "Person", new PropMatch("name", lit("ann"))), w),
        List.of(new Projection(prop("w", "since"), null)), List.of(new Ordering(prop("q", "age"), false)), null,
        Map.of());
    // Both rows tie on q.age (null); w.id k1 < k4.
    assertThat(rows(q)).containsExactly(List.of(1L), List.of(2L));
  }

  @Test
  void partialAggregateOrderIsReportedAsKeys() {
    QueryModel q = new QueryModel(List.of(), List.of(bind("p", "Person")),
        List.of(new Projection(prop("p", "age"), "g0"), new Projection(new Agg("count", new Var("p")), "a0")),
        List.of(new Ordering(new Alias("a0"), true)), null, Map.of());
    Result r = new NaiveEvaluator(G).evaluate(q);
    assertThat(r.mode()).isEqualTo(OrderMode.KEYS);
    assertThat(r.rows().get(0)).containsExactly(30L, 2L);
  }
}
