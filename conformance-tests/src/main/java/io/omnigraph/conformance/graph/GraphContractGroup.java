package io.omnigraph.conformance.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OpenOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * What every group of the graph contract shares: the binding's graphs and actor (from the
 * enclosing {@link GraphContract}, whose lifecycle closes the graphs after each test) and small
 * helpers for options, input, export and typed errors. Each group ({@code LoadGuarantees}, ...)
 * extends it and is bound as a {@code @Nested} class of {@link GraphContract}.
 */
abstract class GraphContractGroup {
  private final GraphContract contract;

  GraphContractGroup(GraphContract contract) {
    this.contract = contract;
  }

  /** @return a fresh, empty graph with {@code schema} from the binding; closed after the test */
  final Graph create(String schema) {
    return contract.create(schema);
  }

  /** @return a fresh, empty graph with {@code schema}, opened with {@code options}; closed after the test */
  final Graph create(String schema, OpenOptions options) {
    return contract.create(schema, options);
  }

  /** @return the actor every write of the binding is recorded under */
  final String actor() {
    return contract.actor();
  }

  /** @return the running test's temporary directory */
  final Path tmp() {
    return contract.tmp;
  }

  /** Makes the engine's automatic maintenance fail after its table effect until the handle is closed. */
  final AutoCloseable failAutomaticMaintenance() {
    return contract.failAutomaticMaintenance();
  }

  /** @return load options with the binding's actor */
  final LoadOptions opts() {
    return LoadOptions.defaults().withActor(actor());
  }

  /** @return mutation options with the binding's actor */
  final MutationOptions mopts() {
    return MutationOptions.defaults().withActor(actor());
  }

  /** @return {@code s} as a UTF-8 input stream */
  static ByteArrayInputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  /** @return the NDJSON export of {@code g}'s main head */
  static String export(Graph g) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    g.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Fails unless {@code e} has the HTTP status {@code status} and the code {@code code}. */
  static void assertKind(OmnigraphException e, int status, String code) {
    assertThat(e.httpStatus()).as("HTTP status of %s", e.getMessage()).isEqualTo(status);
    assertThat(e.code()).isEqualTo(code);
  }
}
