package io.omnigraph.engine.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A date-time that parses but lies beyond the epoch-millisecond range is a wrong value wherever it
 * is written — on the loader's fast and exact paths and as a query parameter — reported as the
 * caller's typed invalid-input error, never as an internal failure.
 */
class DateTimeInputsTest {
  static final String SCHEMA = """
      node Event {
        name: String @key
        at: DateTime?
      }
      """;
  static final String FAR = "+999999999-12-31T23:59:59Z";

  @TempDir Path dir;

  @Test
  void aLoadedDateTimeBeyondTheMillisecondRangeIsATypeMismatchOfItsField() {
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      String line = "{\"type\":\"Event\",\"data\":{\"name\":\"e\",\"at\":\"" + FAR + "\"}}\n";
      assertThatThrownBy(() -> g.load(LoadMode.APPEND, new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)),
          LoadOptions.defaults()))
          .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.detail()).get()
              .isEqualTo(new ErrorDetail.Validation(1L, null, "at", "type_mismatch")));
    }
  }

  @Test
  void aDateTimeParameterBeyondTheMillisecondRangeIsAParameterError() {
    String q = """
        query at($name: String, $at: DateTime) {
          insert Event { name: $name, at: $at }
        }
        """;
    try (Graph g = Omnigraph.init(dir.resolve("g").toString(), SCHEMA)) {
      assertThatThrownBy(() -> g.mutate(q, "at", QueryParams.of(Map.of("name", "e", "at", FAR)), MutationOptions.defaults()))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("expects an RFC 3339 date-time");
    }
  }
}
