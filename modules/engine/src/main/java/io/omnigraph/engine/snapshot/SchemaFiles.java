package io.omnigraph.engine.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;
import io.omnigraph.engine.schema.SchemaIr;
import io.omnigraph.engine.storage.GraphRoot;
import java.io.IOException;
import java.util.Optional;

/**
 * The schema contract files at a graph root (docs/on-disk-layout.md, "Schema files"): {@code
 * _schema.pg} (source),
 * {@code _schema.ir.json} (identity-bearing IR) and {@code __schema_state.json} (identity marker,
 * written last). {@link SnapshotResolver} reads them for the schema of a cut.
 */
public final class SchemaFiles {
  public static final String SOURCE = "_schema.pg";
  public static final String IR = "_schema.ir.json";
  public static final String STATE = "__schema_state.json";
  static final int FORMAT_VERSION = 2;
  public static final int IDENTITY_VERSION = 2;

  private static final ObjectMapper JSON = new ObjectMapper();

  private SchemaFiles() {}

  /** Maps a schema compile failure to the public invalid-input error with line and column. */
  public static InvalidInputException invalid(SchemaException e) {
    return new InvalidInputException("invalid schema: " + e.getMessage(), new ErrorDetail.Validation(
        e.line() > 0 ? (long) e.line() : null, e.column() > 0 ? (long) e.column() : null, null,
        "schema_" + e.kind().name().toLowerCase(java.util.Locale.ROOT)), e);
  }

  static String stateJson(SchemaIr ir) {
    ObjectNode n = JSON.createObjectNode();
    n.put("format_version", FORMAT_VERSION);
    n.put("schema_shape_hash", ir.shapeHash());
    n.put("schema_ir_hash", ir.hash());
    n.put("schema_identity_version", IDENTITY_VERSION);
    n.put("schema_identity_domain", ir.identityDomain());
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException("an in-memory JSON tree always serializes", e);
    }
  }

  /** @return whether any of the three files exists */
  public static boolean anyExists(GraphRoot root) {
    return root.exists(SOURCE) || root.exists(IR) || root.exists(STATE);
  }

  /**
   * Writes the three files, each create-if-absent, the state marker last.
   *
   * @return {@code false} when one of them already existed
   */
  public static boolean create(GraphRoot root, CompiledSchema schema) {
    return root.createText(SOURCE, schema.source()) && root.createText(IR, schema.ir().toJson())
        && root.createText(STATE, stateJson(schema.ir()));
  }

  /**
   * Reads and checks the accepted schema.
   *
   * @return the compiled accepted schema, or empty when none of the files exists
   * @throws InternalErrorException when the files are incomplete or disagree with each other
   */
  public static Optional<CompiledSchema> read(GraphRoot root) {
    Optional<String> source = root.readText(SOURCE);
    Optional<String> ir = root.readText(IR);
    Optional<String> state = root.readText(STATE);
    if (source.isEmpty() && ir.isEmpty() && state.isEmpty()) {
      return Optional.empty();
    }
    if (ir.isEmpty() && state.isEmpty()) {
      throw new InternalErrorException("graph at " + root.uri() + " has " + SOURCE + " but neither " + IR + " nor "
          + STATE + ": automatic bootstrap is not supported", null);
    }
    if (source.isEmpty() || ir.isEmpty() || state.isEmpty()) {
      throw new InternalErrorException("graph at " + root.uri() + " has an incomplete schema contract (missing "
          + (source.isEmpty() ? SOURCE : ir.isEmpty() ? IR : STATE) + ")", null);
    }
    CompiledSchema compiled;
    try {
      compiled = SchemaCompiler.open(source.get(), ir.get());
    } catch (SchemaException e) {
      throw new InternalErrorException("the accepted schema of " + root.uri() + " does not compile: " + e.getMessage(),
          null, e);
    }
    JsonNode st;
    try {
      st = JSON.readTree(state.get());
    } catch (IOException e) {
      throw new InternalErrorException(STATE + " of " + root.uri() + " is not JSON", null, e);
    }
    SchemaIr accepted = compiled.ir();
    if (st.path("format_version").asInt() != FORMAT_VERSION
        || st.path("schema_identity_version").asInt() != IDENTITY_VERSION
        || !accepted.hash().equals(st.path("schema_ir_hash").asText())
        || !accepted.shapeHash().equals(st.path("schema_shape_hash").asText())
        || !accepted.identityDomain().equals(st.path("schema_identity_domain").asText())) {
      throw new InternalErrorException(STATE + " of " + root.uri() + " does not match " + IR
          + " (format, identity version, hashes or identity domain differ)", null);
    }
    return Optional.of(compiled);
  }
}
