package io.omnigraph.server;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One route under {@code /graphs/{id}}: method, path pattern ({@code {name}} segments), whether it
 * writes (writes are refused in read-only mode and count against the per-actor in-flight cap), its
 * body limit, and the handler.
 *
 * @param method HTTP method
 * @param pattern path below {@code /graphs/{id}}, e.g. {@code commits/{commit_id}}
 * @param writes true for routes that change the graph
 * @param loadLimit true for the load routes (their larger body limit)
 * @param summary one line for {@code /openapi.json}
 * @param requestType the request media type, or {@code null} for none
 * @param responseType the response media type
 * @param handler serves the request
 */
record Route(String method, String pattern, boolean writes, boolean loadLimit, String summary, String requestType,
    String responseType, Handler handler) {

  @FunctionalInterface
  interface Handler {
    void serve(Exchange x) throws Exception;
  }

  List<String> segments() {
    return List.of(pattern.split("/"));
  }

  /** @return the path values when {@code path} (split into segments) matches, else {@code null} */
  Map<String, String> match(List<String> path) {
    List<String> mine = segments();
    String last = mine.get(mine.size() - 1);
    boolean rest = last.startsWith("{") && last.endsWith("*}");
    if (rest ? path.size() < mine.size() : mine.size() != path.size()) {
      return null;
    }
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < mine.size(); i++) {
      String m = mine.get(i);
      if (rest && i == mine.size() - 1) {
        // {name*}: the rest of the path, slashes included (branch names have '/'-separated segments)
        String value = String.join("/", path.subList(i, path.size()));
        if (value.isEmpty() || path.subList(i, path.size()).contains("")) {
          return null;
        }
        values.put(m.substring(1, m.length() - 2), value);
        continue;
      }
      if (m.startsWith("{") && m.endsWith("}")) {
        if (path.get(i).isEmpty()) {
          return null;
        }
        values.put(m.substring(1, m.length() - 1), path.get(i));
      } else if (!m.equals(path.get(i))) {
        return null;
      }
    }
    return values;
  }
}
