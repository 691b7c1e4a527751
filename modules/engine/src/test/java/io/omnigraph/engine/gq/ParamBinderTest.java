package io.omnigraph.engine.gq;

import static io.omnigraph.engine.gq.GqTestSupport.assertQueryError;
import static io.omnigraph.engine.gq.GqTestSupport.mutation;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.engine.gq.QueryException.Code;
import io.omnigraph.engine.plan.MutationPlan.Statement;
import io.omnigraph.engine.plan.MutationBinder;
import io.omnigraph.engine.plan.MutationPlan;
import io.omnigraph.engine.plan.QueryParams;
import io.omnigraph.engine.plan.RowFilter;
import io.omnigraph.engine.table.LanceFilter;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamBinderTest {
  static final Instant NOW = Instant.EPOCH;
  static final String ALL = """
      query all($h: String, $n: String, $born: Date?, $tags: [String]?, $active: Bool?, $score: F64?) {
        insert Author { handle: $h, full_name: $n, born: $born, tags: $tags, active: $active, score: $score }
      }
      query book($isbn: String, $year: I64, $status: String, $vec: [F64], $views: U64?, $at: DateTime?, $cover: Blob?) {
        insert Book { isbn: $isbn, year: $year, status: $status, title: "t", blurb_vec: $vec, views: $views, updated: $at, cover: $cover }
      }
      """;

  static Map<String, Object> authorValues(Map<String, ?> params, String query) throws QueryException {
    CheckedMutation m = (CheckedMutation) GqTestSupport.compile(ALL, query);
    return ((Statement.InsertNode) MutationBinder.bind(m, params, NOW).statements().get(0)).values();
  }

  @Test
  void cliPairsAreParsedByTheDeclaredType() throws Exception {
    Map<String, Object> v = authorValues(QueryParams.fromPairs(List.of(
        "h=tolkien", "$n=J=R", "born=1892-01-03", "tags=[\"a\",\"b\"]", "active=true", "score=0.5")), "all");
    assertThat(v).containsEntry("handle", "tolkien").containsEntry("full_name", "J=R")
        .containsEntry("born", (int) LocalDate.of(1892, 1, 3).toEpochDay()).containsEntry("tags", List.of("a", "b"))
        .containsEntry("active", true).containsEntry("score", 0.5f);
  }

  @Test
  void jsonValuesFollowTheJsonRules() throws Exception {
    Map<String, Object> v = authorValues(QueryParams.fromJson(
        "{\"h\": \"x\", \"n\": \"y\", \"born\": null, \"active\": false, \"score\": 2}"), "all");
    assertThat(v).containsEntry("born", null).containsEntry("tags", null).containsEntry("active", false).containsEntry("score", 2.0f);
    Map<String, Object> b = authorValues(QueryParams.fromJson("""
        {"isbn": "1", "year": "1954", "status": "in_print", "vec": [1, 2.5, 3], "views": "18446744073709551615",
         "at": "2024-05-01T12:00:00.5Z", "cover": "base64:AAE="}
        """), "book");
    assertThat(b).containsEntry("year", 1954).containsEntry("status", "in_print").containsEntry("views", -1L)
        .containsEntry("updated", Instant.parse("2024-05-01T12:00:00.5Z").toEpochMilli());
    assertThat((float[]) b.get("blurb_vec")).containsExactly(1f, 2.5f, 3f);
    assertThat((byte[]) b.get("cover")).containsExactly(0, 1);
  }

  @Test
  void plainJavaValuesWork() throws Exception {
    Map<String, Object> p = new HashMap<>();
    p.put("isbn", "1");
    p.put("year", 1954L);
    p.put("status", "draft");
    p.put("vec", List.of(1, 2.0, 3.5f));
    p.put("at", Instant.ofEpochMilli(5));
    p.put("cover", new byte[] {7});
    Map<String, Object> b = authorValues(p, "book");
    assertThat(b).containsEntry("year", 1954).containsEntry("updated", 5L).containsEntry("views", null);
    assertThat((float[]) b.get("blurb_vec")).containsExactly(1f, 2f, 3.5f);
  }

  @Test
  void missingExtraNullAndMistypedValuesAreTypedErrorsBeforeAnyIo() throws Exception {
    CheckedMutation all = (CheckedMutation) GqTestSupport.compile(ALL, "all");
    CheckedMutation book = (CheckedMutation) GqTestSupport.compile(ALL, "book");
    assertQueryError(() -> MutationBinder.bind(all, Map.of("h", "x"), NOW), Code.PARAM_VALUE, 0, 0, "parameter 'n' not provided ($n: String)");
    assertQueryError(() -> MutationBinder.bind(all, Map.of("h", "x", "n", "y", "nn", "z"), NOW), Code.PARAM_VALUE, 0, 0, "unknown parameter 'nn'; declared: $h: String");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromJson("{\"h\": null, \"n\": \"y\"}"), NOW), Code.PARAM_VALUE, 0, 0,
        "param 'h': null is not accepted for non-nullable parameter");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromJson("{\"h\": 5, \"n\": \"y\"}"), NOW), Code.PARAM_VALUE, 0, 0,
        "param 'h' ($h: String) expects String, got 5");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromJson("{\"h\": \"a\", \"n\": \"y\", \"active\": \"yes\"}"), NOW), Code.PARAM_VALUE, 0, 0,
        "expects Bool, got \"yes\"");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromPairs(List.of("h=a", "n=b", "born=3 May")), NOW), Code.PARAM_VALUE, 0, 0,
        "expects a date \"YYYY-MM-DD\"");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromJson("{\"h\": \"a\", \"n\": \"y\", \"tags\": [\"a\", null]}"), NOW), Code.PARAM_VALUE, 0, 0,
        "a null item at index 1");
    assertQueryError(() -> MutationBinder.bind(all, QueryParams.fromJson("{\"h\": {\"x\": 1}, \"n\": \"y\"}"), NOW), Code.PARAM_VALUE, 0, 0, "a JSON object");
    // The I64 parameter is range-checked again for the I32 column it is written to.
    assertQueryError(() -> MutationBinder.bind(book, QueryParams.fromJson("{\"isbn\": \"1\", \"year\": 3000000000, \"status\": \"draft\", \"vec\": [1,2,3]}"), NOW),
        Code.PARAM_VALUE, 0, 0, "param 'year' for Book.year: value 3000000000 is out of range for I32");
    assertQueryError(() -> MutationBinder.bind(book, QueryParams.fromJson("{\"isbn\": \"1\", \"year\": 1, \"status\": \"gone\", \"vec\": [1,2,3]}"), NOW),
        Code.PARAM_VALUE, 0, 0, "param 'status' for Book.status: invalid enum value 'gone'");
    assertQueryError(() -> MutationBinder.bind(book, QueryParams.fromJson("{\"isbn\": \"1\", \"year\": 1, \"status\": \"draft\", \"vec\": [1,2]}"), NOW),
        Code.PARAM_VALUE, 0, 0, "vector needs 3 values, got 2");
    assertQueryError(() -> MutationBinder.bind(book, QueryParams.fromJson("{\"isbn\": \"1\", \"year\": 1, \"status\": \"draft\", \"vec\": [1,2,3], \"views\": -1}"), NOW),
        Code.PARAM_VALUE, 0, 0, "value -1 is out of range for U64");
    assertQueryError(() -> MutationBinder.bind(book, QueryParams.fromJson("{\"isbn\": \"1\", \"year\": 1, \"status\": \"draft\", \"vec\": [1,2,3], \"cover\": \"s3://x\"}"), NOW),
        Code.PARAM_VALUE, 0, 0, "external blob URIs are not supported");
  }

  @Test
  void nullsForNonNullableTargetsAndKeysAreRefusedAtBind() throws Exception {
    CheckedMutation m = mutation("query q($h: String?, $n: String?) { insert Author { handle: $h, full_name: $n } }");
    assertQueryError(() -> MutationBinder.bind(m, Map.of("h", "x"), NOW), Code.PARAM_VALUE, 0, 0, "param 'n' is null, but Author.full_name is not nullable");
    assertQueryError(() -> MutationBinder.bind(m, Map.of("n", "x"), NOW), Code.PARAM_VALUE, 0, 0, "insert @key property 'handle' cannot contain null");
  }

  @Test
  void aNullPredicateValueMatchesNothing() throws Exception {
    MutationPlan plan = MutationBinder.bind(mutation("query q($t: String?) { delete Note where text = $t }"), Map.of(), NOW);
    RowFilter where = ((Statement.DeleteNodes) plan.statements().get(0)).where();
    assertThat(where.matches(c -> "anything")).isFalse();
    assertThat(LanceFilter.of(where).sql()).isEqualTo("CAST(NULL AS BOOLEAN)");
  }

  @Test
  void malformedParameterSpellings() {
    assertQueryError(() -> QueryParams.fromPairs(List.of("novalue")), Code.PARAM_VALUE, 0, 0, "needs the form name=value");
    assertQueryError(() -> QueryParams.fromPairs(List.of("a=1", "$a=2")), Code.PARAM_VALUE, 0, 0, "given more than once");
    assertQueryError(() -> QueryParams.fromJson("[1]"), Code.PARAM_VALUE, 0, 0, "must be a JSON object");
    assertQueryError(() -> QueryParams.fromJson("{\"a\": 1, \"a\": 2}"), Code.PARAM_VALUE, 0, 0, "not valid JSON");
    assertQueryError(() -> QueryParams.fromJson("{"), Code.PARAM_VALUE, 0, 0, "not valid JSON");
  }

  @Test
  void toInvalidInputCarriesPositionAndRule() {
    QueryException e = new QueryException(Code.T12, new io.omnigraph.engine.schema.SourcePos(3, 4), "missing");
    var pub = e.toInvalidInput();
    assertThat(pub.httpStatus()).isEqualTo(400);
    assertThat(pub.detail()).contains(new io.omnigraph.api.ErrorDetail.Validation(3L, 4L, null, "T12"));
    assertThat(pub.toJson()).contains("\"rule\":\"T12\"");
  }

}
