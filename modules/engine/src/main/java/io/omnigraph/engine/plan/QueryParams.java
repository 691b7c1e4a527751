package io.omnigraph.engine.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.engine.gq.ParamText;
import io.omnigraph.engine.gq.QueryException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the two user-facing spellings of parameter values into the map {@link
 * MutationBinder#bind} takes. Neither checks types: that happens when binding, against the
 * declarations.
 */
public final class QueryParams {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  private QueryParams() {}

  /**
   * @param pairs {@code name=value} strings as given to {@code --param} (the name may carry a
   *     leading {@code $}; the value is everything after the first {@code =})
   * @return name (without {@code $}) → {@link ParamText}, in the given order
   * @throws QueryException PARAM_VALUE for a pair without {@code =}, an empty name, or a name given twice
   */
  public static Map<String, Object> fromPairs(List<String> pairs) throws QueryException {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        throw QueryException.param("--param '" + pair + "' needs the form name=value");
      }
      String name = pair.substring(0, eq);
      if (name.startsWith("$")) {
        name = name.substring(1);
      }
      if (name.isEmpty()) {
        throw QueryException.param("--param '" + pair + "' has an empty name");
      }
      if (out.put(name, new ParamText(pair.substring(eq + 1))) != null) {
        throw QueryException.param("parameter '" + name + "' is given more than once");
      }
    }
    return out;
  }

  /**
   * @param json a JSON object, e.g. {@code {"h": "tolkien", "year": 1954}}
   * @return member name (without {@code $}) → its {@link JsonNode}, in document order
   * @throws QueryException PARAM_VALUE when the text is not one JSON object or repeats a member
   */
  public static Map<String, Object> fromJson(String json) throws QueryException {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw QueryException.param("parameters are not valid JSON: " + e.getOriginalMessage());
    } catch (NumberFormatException e) {
      // Jackson's answer to a number it cannot represent, e.g. an exponent of thousands of digits.
      throw QueryException.param("parameters are not valid JSON: a number out of range: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw QueryException.param("parameters must be a JSON object, e.g. {\"name\": \"value\"}");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String name = e.getKey().startsWith("$") ? e.getKey().substring(1) : e.getKey();
      if (out.put(name, e.getValue()) != null) {
        throw QueryException.param("parameter '" + name + "' is given more than once");
      }
    }
    return out;
  }
}
