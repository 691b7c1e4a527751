package io.omnigraph.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.Graph;
import io.omnigraph.api.OmnigraphException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves every request: request id, authentication, routing, read-only mode, admission, body
 * limits, typed errors and the access log (docs/server.md). Blocking: each request runs on a pool
 * thread, the body is read as a stream and the export is written as a stream.
 */
final class ApiHandler extends Handler.Abstract {
  static final String REQUEST_ID_HEADER = "X-Request-Id";
  private static final String ANONYMOUS = "anonymous";

  private final OmnigraphServer.Settings settings;
  private final Map<String, Graph> graphs;
  private final List<Route> routes = GraphRoutes.all();
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final byte[] openApi;

  ApiHandler(OmnigraphServer.Settings settings, Map<String, Graph> graphs) {
    super(InvocationType.BLOCKING);
    this.settings = settings;
    this.graphs = graphs;
    this.openApi = OpenApi.document(routes, OmnigraphServer.version()).toString().getBytes(StandardCharsets.UTF_8);
  }

  List<Route> routes() {
    return routes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long started = System.nanoTime();
    String requestId = newRequestId();
    response.getHeaders().put(REQUEST_ID_HEADER, requestId);
    Exchange x = new Exchange(request, response, callback, requestId, settings.bodyLimit());
    String method = request.getMethod();
    String path = Request.getPathInContext(request);
    String admitted = null;
    String outcome = null;
    try {
      if (path.equals("/healthz")) {
        only(method, "GET", path);
        ObjectNode o = Wire.object();
        o.put("status", "ok");
        o.put("version", OmnigraphServer.version());
        o.put("read_only", settings.readOnly());
        o.put("writes_in_flight", inFlight.values().stream().mapToInt(java.util.concurrent.atomic.AtomicInteger::get).sum());
        x.sendJson(200, o);
        return true;
      }
      if (path.equals("/openapi.json")) {
        only(method, "GET", path);
        x.send(200, Exchange.JSON_TYPE, openApi);
        return true;
      }
      x.actor = authenticate(request);
      if (path.equals("/graphs") || path.equals("/graphs/")) {
        only(method, "GET", path);
        ObjectNode o = Wire.object();
        ArrayNode a = o.putArray("graphs");
        graphs.forEach((id, g) -> a.addObject().put("id", id).put("uri", g.uri()));
        x.sendJson(200, o);
        return true;
      }
      if (!path.startsWith("/graphs/")) {
        throw HttpFailure.notFound("no route " + path + "; see /openapi.json");
      }
      List<String> segments = new ArrayList<>(Arrays.asList(path.substring("/graphs/".length()).split("/", -1)));
      String graphId = segments.remove(0);
      Graph graph = graphs.get(graphId);
      if (graph == null) {
        throw HttpFailure.notFound("no graph '" + graphId + "' on this server; GET /graphs lists them");
      }
      if (segments.size() > 1 && segments.get(segments.size() - 1).isEmpty()) {
        segments.remove(segments.size() - 1);
      }
      Route route = null;
      Set<String> allowed = new LinkedHashSet<>();
      for (Route r : routes) {
        Map<String, String> values = r.match(segments);
        if (values != null) {
          allowed.add(r.method());
          if (r.method().equals(method) && route == null) {
            route = r;
            x.pathValues = values;
          }
        }
      }
      if (route == null) {
        if (!allowed.isEmpty()) {
          throw HttpFailure.methodNotAllowed(method, path, String.join(", ", allowed));
        }
        throw HttpFailure.notFound("no route " + path + "; see /openapi.json");
      }
      x.graphId = graphId;
      x.graph = graph;
      if (route.loadLimit()) {
        x.setBodyLimit(settings.loadBodyLimit());
      }
      if (route.writes()) {
        if (settings.readOnly()) {
          throw HttpFailure.forbidden("this server is read-only (--read-only); " + method + " " + path + " writes");
        }
        admitted = admit(x.actor);
      }
      route.handler().serve(x);
    } catch (Throwable t) {
      outcome = fail(x, t);
    } finally {
      if (admitted != null) {
        inFlight.get(admitted).decrementAndGet();
      }
      accessLog(x, method, request, started, outcome);
    }
    return true;
  }

  private static void only(String method, String allowed, String path) {
    if (!method.equals(allowed)) {
      throw HttpFailure.methodNotAllowed(method, path, allowed);
    }
  }

  private String authenticate(Request request) {
    if (settings.unauthenticated()) {
      return null;
    }
    String h = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (h == null || h.isBlank()) {
      throw HttpFailure.unauthorized("missing bearer token: send 'Authorization: Bearer <token>'");
    }
    if (!h.regionMatches(true, 0, "Bearer ", 0, 7) || h.length() <= 7) {
      throw HttpFailure.unauthorized("the Authorization header must be 'Bearer <token>'");
    }
    return settings.tokens().actorFor(h.substring(7).trim())
        .orElseThrow(() -> HttpFailure.unauthorized("invalid bearer token"));
  }

  private String admit(String actor) {
    String key = actor == null ? ANONYMOUS : actor;
    AtomicInteger n = inFlight.computeIfAbsent(key, k -> new AtomicInteger());
    if (n.incrementAndGet() > settings.maxInFlightPerActor()) {
      n.decrementAndGet();
      throw HttpFailure.tooManyRequests("actor '" + key + "' already has " + settings.maxInFlightPerActor()
          + " writes in flight; retry later", 1);
    }
    return key;
  }

  /** Answers a failure as one ErrorOutput object; returns a note for the access log. */
  private String fail(Exchange x, Throwable t) {
    if (x.streaming && x.response.isCommitted()) {
      // Part of the stream is out: abort the response (no terminating chunk) so the client sees a failure.
      settings.errorLog().accept("request " + x.requestId + " aborted mid-stream: " + t);
      x.completed = true;
      x.callback.failed(t);
      return "aborted";
    }
    if (x.completed) {
      settings.errorLog().accept("request " + x.requestId + " failed after its response: " + stack(t));
      return "failed-after-response";
    }
    int status;
    String json;
    Map<String, String> headers = Map.of();
    if (t instanceof OmnigraphException e && x.bodyExceeded()) {
      t = x.bodyTooLarge(x.bodyCount());
    }
    if (t instanceof OmnigraphException e) {
      status = e.httpStatus();
      json = e.toJson();
      if (status >= 500) {
        settings.errorLog().accept("request " + x.requestId + ": " + stack(e));
      }
    } else if (t instanceof HttpFailure f) {
      status = f.status;
      ObjectNode o = Wire.object();
      o.put("error", f.getMessage());
      o.put("code", f.code);
      json = o.toString();
      headers = f.headers;
    } else {
      status = 500;
      settings.errorLog().accept("request " + x.requestId + ": " + stack(t));
      ObjectNode o = Wire.object();
      o.put("error", "internal server error (request " + x.requestId + "; the server log has the details)");
      o.put("code", "internal");
      json = o.toString();
    }
    json = json.substring(0, json.length() - 1) + ",\"request_id\":\"" + x.requestId + "\"}";
    x.response.reset();
    x.response.getHeaders().put(REQUEST_ID_HEADER, x.requestId);
    headers.forEach((k, v) -> x.response.getHeaders().put(k, v));
    x.settleBody(status == 413);
    x.send(status, Exchange.JSON_TYPE, json.getBytes(StandardCharsets.UTF_8));
    return null;
  }

  private static String stack(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  private void accessLog(Exchange x, String method, Request request, long started, String outcome) {
    Consumer<String> log = settings.accessLog();
    if (log == null) {
      return;
    }
    String query = request.getHttpURI().getQuery();
    String target = request.getHttpURI().getPath() + (query == null ? "" : "?" + query);
    long ms = (System.nanoTime() - started) / 1_000_000;
    log.accept(Instant.now() + " " + x.requestId + " " + Request.getRemoteAddr(request) + " "
        + (x.actor == null ? "-" : x.actor) + " \"" + method + " " + target + "\" "
        + (outcome == null ? Integer.toString(x.response.getStatus()) : outcome) + " " + ms + "ms");
  }

  private String newRequestId() {
    byte[] b = new byte[8];
    random.nextBytes(b);
    return java.util.HexFormat.of().formatHex(b);
  }
}
