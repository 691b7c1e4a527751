package io.omnigraph.engine.gq;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.plan.MutationBinder;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.plan.RowFilter;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An update's or a node delete's {@code key = "v"}, on a node type whose {@code @key} is that one
 * String property, is bound as {@code id = "v"} (docs/mutations.md, "How an update is staged"): the
 * node's id is its key value, so the two select the same rows, and the {@code id} BTREE index answers
 * the second without scanning the table. Any other predicate stays as written.
 */
class KeyAsIdBindingTest {
  static final String Q = """
      query byKey($h: String, $s: F32) { update Author set { score: $s } where handle = $h }
      query byOther($n: String, $s: F32) { update Author set { score: $s } where full_name = $n }
      query notEqual($h: String, $s: F32) { update Author set { score: $s } where handle != $h }
      query deleteByKey($i: String) { delete Book where isbn = $i }
      query unkeyed($t: String) { delete Note where text = $t }
      """;

  private static RowFilter.Compare where(String query, Map<String, ?> params) throws QueryException {
    CheckedMutation m = (CheckedMutation) GqTestSupport.compile(Q, query);
    Statement s = MutationBinder.bind(m, params, Instant.EPOCH).statements().get(0);
    RowFilter f = s instanceof Statement.UpdateNodes u ? u.where() : ((Statement.DeleteNodes) s).where();
    return (RowFilter.Compare) f;
  }

  @Test
  void anEqualityOnTheOneStringKeyIsBoundAsTheId() throws QueryException {
    RowFilter.Compare u = where("byKey", Map.of("h", "tolkien", "s", 1.0f));
    assertThat(u.column().name()).isEqualTo("id");
    assertThat(u.value()).isEqualTo("tolkien");
    RowFilter.Compare d = where("deleteByKey", Map.of("i", "978-1"));
    assertThat(d.column().name()).isEqualTo("id");
    assertThat(d.value()).isEqualTo("978-1");
  }

  @Test
  void otherPredicatesStayAsWritten() throws QueryException {
    assertThat(where("byOther", Map.of("n", "J", "s", 1.0f)).column().name()).isEqualTo("full_name");
    assertThat(where("notEqual", Map.of("h", "x", "s", 1.0f)).column().name()).isEqualTo("handle");
    assertThat(where("unkeyed", Map.of("t", "x")).column().name()).isEqualTo("text");
  }
}
