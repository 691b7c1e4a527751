package io.omnigraph.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Builds {@code /openapi.json} from the route table, so the document cannot drift from the routes. */
final class OpenApi {
  private OpenApi() {}

  static ObjectNode document(List<Route> routes, String version) {
    ObjectNode doc = Wire.object();
    doc.put("openapi", "3.1.0");
    ObjectNode info = doc.putObject("info");
    info.put("title", "OmniGraph HTTP API");
    info.put("version", version);
    info.put("description", "Graphs served by id under /graphs/{graph_id}. Every error is one ErrorOutput object"
        + " {error, code, request_id, <detail>}; see docs/server.md.");
    doc.putArray("security").addObject().putArray("bearer");
    doc.putObject("components").putObject("securitySchemes").putObject("bearer").put("type", "http").put("scheme", "bearer");
    ObjectNode paths = doc.putObject("paths");
    open(paths, "/healthz", "Liveness and version (no authentication)");
    open(paths, "/openapi.json", "This document (no authentication)");
    op(paths.putObject("/graphs"), "get", "The graphs this server serves", null, Exchange.JSON_TYPE, List.of());
    for (Route r : routes) {
      String path = "/graphs/{graph_id}/" + r.pattern().replace("*}", "}");
      ObjectNode item = paths.has(path) ? (ObjectNode) paths.get(path) : paths.putObject(path);
      List<String> params = new java.util.ArrayList<>(List.of("graph_id"));
      for (String seg : r.segments()) {
        if (seg.startsWith("{")) {
          params.add(seg.substring(1, seg.length() - 1).replace("*", ""));
        }
      }
      op(item, r.method().toLowerCase(java.util.Locale.ROOT), r.summary(), r.requestType(), r.responseType(), params);
    }
    return doc;
  }

  private static void open(ObjectNode paths, String path, String summary) {
    ObjectNode get = paths.putObject(path).putObject("get");
    get.put("summary", summary);
    get.putArray("security");
    get.putObject("responses").putObject("200").put("description", "ok");
  }

  private static void op(ObjectNode item, String method, String summary, String requestType, String responseType,
      List<String> params) {
    ObjectNode op = item.putObject(method);
    op.put("summary", summary);
    ArrayNode ps = op.putArray("parameters");
    for (String p : params) {
      ps.addObject().put("name", p).put("in", "path").put("required", true).putObject("schema").put("type", "string");
    }
    if (requestType != null) {
      op.putObject("requestBody").putObject("content").putObject(requestType);
    }
    ObjectNode responses = op.putObject("responses");
    responses.putObject("200").put("description", "ok").putObject("content").putObject(responseType);
    responses.putObject("default").put("description", "ErrorOutput").putObject("content").putObject(Exchange.JSON_TYPE);
  }
}
