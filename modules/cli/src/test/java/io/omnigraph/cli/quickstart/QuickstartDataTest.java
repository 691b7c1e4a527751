package io.omnigraph.cli.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QuickstartDataTest {

  private static final Map<String, String> KEY_OF = Map.of("Author", "handle", "Book", "isbn", "Reader", "name");
  private static final Map<String, List<String>> ENDPOINTS = Map.of(
      "Wrote", List.of("Author", "Book"), "Read", List.of("Reader", "Book"), "Cites", List.of("Book", "Book"));

  @Test
  void generationIsDeterministic() {
    assertThat(QuickstartData.ndjson()).isEqualTo(QuickstartData.ndjson());
    assertThat(QuickstartData.mergeUpdate()).isEqualTo(QuickstartData.mergeUpdate());
  }

  @Test
  void demoHasAboutAThousandRowsAcrossSeveralTypes() {
    List<ObjectNode> lines = QuickstartData.lines();

    assertThat(lines).hasSize(QuickstartData.TOTAL_ROWS);
    assertThat(QuickstartData.TOTAL_ROWS).isBetween(900, 1100);
    assertThat(new String(QuickstartData.ndjson(), java.nio.charset.StandardCharsets.UTF_8).split("\n"))
        .hasSize(QuickstartData.TOTAL_ROWS);
  }

  @Test
  void nodeKeysAreUniquePerTypeAndEveryEdgeEndpointExists() {
    Map<String, Set<String>> ids = new HashMap<>();
    for (ObjectNode line : QuickstartData.lines()) {
      if (line.has("type")) {
        String type = line.get("type").asText();
        String key = line.get("data").get(KEY_OF.get(type)).asText();
        assertThat(ids.computeIfAbsent(type, t -> new HashSet<>()).add(key))
            .as("duplicate %s key %s", type, key).isTrue();
      }
    }
    int edges = 0;
    for (ObjectNode line : QuickstartData.lines()) {
      if (line.has("edge")) {
        List<String> ends = ENDPOINTS.get(line.get("edge").asText());
        assertThat(ids.get(ends.get(0))).contains(line.get("from").asText());
        assertThat(ids.get(ends.get(1))).contains(line.get("to").asText());
        edges++;
      }
    }
    assertThat(edges).isPositive();
  }

  @Test
  void citesRespectsItsCardinalityAndBookYearsTheirRange() {
    Map<String, Integer> outgoing = new HashMap<>();
    for (ObjectNode line : QuickstartData.lines()) {
      if ("Cites".equals(line.path("edge").asText())) {
        outgoing.merge(line.get("from").asText(), 1, Integer::sum);
      }
      if ("Book".equals(line.path("type").asText())) {
        assertThat(line.get("data").get("year").asInt()).isBetween(1900, 2100);
      }
    }
    assertThat(outgoing.values()).allSatisfy(n -> assertThat(n).isBetween(0, 3));
    assertThat(QuickstartData.SCHEMA).contains("@card(0..3)", "@range(year, 1900..2100)");
  }

  @Test
  void mergeUpdateTouchesExistingBooksAndAddsAReader() {
    String[] lines = new String(QuickstartData.mergeUpdate(), java.nio.charset.StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(QuickstartData.MERGE_ROWS);
    JsonNode first = io.omnigraph.cli.Json.parseObject(lines[0]);
    assertThat(first.get("type").asText()).isEqualTo("Book");
    assertThat(first.get("data").get("rating").asDouble()).isEqualTo(5.0);
  }
}
