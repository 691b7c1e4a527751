package io.omnigraph.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.Graph;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreconditionFailedException;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.ResourceLimitException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.UnsupportedStorageVersionException;
import io.omnigraph.client.HttpGraph;
import io.omnigraph.server.OmnigraphServer;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every engine failure kind through HTTP: the status and code of docs/errors.md, the detail object,
 * and HttpGraph rebuilding the same exception class and detail. A graph stub throws the failure
 * (500 and 503 cannot be provoked on demand from a healthy engine); a plain RuntimeException is a 500
 * without its stack trace in the body, which goes to the error log instead.
 */
class EngineErrorStatusTest {
  static final AtomicReference<RuntimeException> NEXT = new AtomicReference<>();
  static final List<String> ERROR_LOG = Collections.synchronizedList(new ArrayList<>());
  static OmnigraphServer server;

  @BeforeAll
  static void start() {
    Graph stub = (Graph) Proxy.newProxyInstance(Graph.class.getClassLoader(), new Class<?>[] {Graph.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "uri" -> "stub://graph";
          case "close" -> null;
          case "toString" -> "stub";
          case "hashCode" -> 1;
          case "equals" -> proxy == args[0];
          default -> throw NEXT.get();
        });
    server = OmnigraphServer.builder().bind("127.0.0.1", 0).graph("stub", stub).unauthenticated(true)
        .errorLog(ERROR_LOG::add).start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Stream<OmnigraphException> failures() {
    return Stream.of(
        new InvalidInputException("bad", new ErrorDetail.Validation(3L, 4L, "f", "syntax")),
        new NotFoundException("none", null),
        new ConflictException("moved", new ErrorDetail.ReadSetConflict("graph_head:main", "a", "b")),
        new ConflictException("pinned", new ErrorDetail.PublishedVersionConflict("node", "T", 3, 4)),
        new PreconditionFailedException("head", new ErrorDetail.PreconditionFailure("main", "x", "y")),
        new ResourceLimitException("big", new ErrorDetail.ResourceLimit("keyed entities for node:T", 8192, 9000)),
        new UnsupportedStorageVersionException("old", new ErrorDetail.UnsupportedStamp("5", 6)),
        new RecoveryRequiredException("pending", new ErrorDetail.RecoveryRequired("op-1")),
        new StorageFailureException("disk", new ErrorDetail.Storage("PERMISSION", "a/b")),
        new InternalErrorException("bug", null));
  }

  @ParameterizedTest
  @MethodSource("failures")
  void eachKindHasItsStatusCodeAndDetailAndComesBackAsTheSameException(OmnigraphException failure) throws Exception {
    NEXT.set(failure);
    URI u = server.uri();
    HttpResponse<String> r = Http.get(u, "/graphs/stub/schema", null);
    JsonNode e = ServerHttpTest.error(r, failure.httpStatus(), failure.code());
    assertThat(e.path("error").asText()).isEqualTo(failure.getMessage());
    failure.detail().ifPresent(d -> assertThat(e.has(d.jsonField())).isTrue());
    try (Graph remote = HttpGraph.connect(u, "stub", null)) {
      OmnigraphException back = catchThrowableOfType(OmnigraphException.class, remote::schema);
      assertThat(back).isExactlyInstanceOf(failure.getClass()).hasMessage(failure.getMessage());
      assertThat(back.detail()).isEqualTo(failure.detail());
      assertThat(back.toJson()).isEqualTo(failure.toJson());
    }
  }

  @Test
  void anUnexpectedExceptionIsA500WithoutItsStackTrace() {
    NEXT.set(new IllegalStateException("secret internals"));
    HttpResponse<String> r = Http.get(server.uri(), "/graphs/stub/commits", null);
    JsonNode e = ServerHttpTest.error(r, 500, "internal");
    assertThat(e.path("error").asText()).doesNotContain("secret internals").contains(e.path("request_id").asText());
    assertThat(ERROR_LOG).anySatisfy(l -> assertThat(l).contains("secret internals").contains("IllegalStateException"));
  }
}
