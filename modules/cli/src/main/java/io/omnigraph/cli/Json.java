package io.omnigraph.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one JSON writer of the CLI: compact, one document per line, field order as built. */
public final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private Json() {}

  /** @return a new empty JSON object */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** @return {@code value} as one line of JSON */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      // Only our own trees are written here, so this is a bug, not a user error.
      throw new IllegalStateException("cannot serialize CLI output", e);
    }
  }

  /** Parses a JSON document (e.g. an engine error's {@code toJson()}) into a tree. */
  public static ObjectNode parseObject(String json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalStateException("not a JSON object: " + json, e);
    }
  }
}
