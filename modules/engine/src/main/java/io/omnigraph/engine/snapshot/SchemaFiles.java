package io.omnigraph.engine.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.failpoint.Failpoints;
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
    return stateJson(ir, null);
  }

  static String stateJson(SchemaIr ir, String genesisIrHash) {
    ObjectNode n = JSON.createObjectNode();
    n.put("format_version", FORMAT_VERSION);
    n.put("schema_shape_hash", ir.shapeHash());
    n.put("schema_ir_hash", ir.hash());
    n.put("schema_identity_version", IDENTITY_VERSION);
    n.put("schema_identity_domain", ir.identityDomain());
    if (genesisIrHash != null) {
      n.put("genesis_schema_ir_hash", genesisIrHash);
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException("an in-memory JSON tree always serializes", e);
    }
  }

  /** Directory of the immutable, content-addressed schema history (docs/schema-migration.md). */
  public static final String HISTORY = "__schema_history";
  /** The history file naming the schema accepted at init (written by the first schema apply). */
  public static final String GENESIS = HISTORY + "/genesis.json";

  /** @return the history path stem of the schema with identity {@code irHash} ({@code sha256:<hex>}) */
  static String historyStem(String irHash) {
    return HISTORY + "/" + irHash.substring(irHash.indexOf(':') + 1);
  }

  /**
   * Stages {@code schema} in the history: its source and IR under its identity hash, each written
   * once (an existing file of the same name has the same content: the name is its hash).
   */
  public static void stageHistory(GraphRoot root, CompiledSchema schema) {
    String stem = historyStem(schema.ir().hash());
    root.createText(stem + ".pg", schema.source());
    root.createText(stem + ".ir.json", schema.ir().toJson());
  }

  /**
   * Records which schema the graph accepted at init (before the first apply changes the schema
   * files): cuts without a {@code graph_schema} row resolve to it. Written once.
   */
  public static void recordGenesis(GraphRoot root, CompiledSchema initial) {
    stageHistory(root, initial);
    root.createText(GENESIS, "{\"schema_ir_hash\":\"" + initial.ir().hash() + "\"}\n");
  }

  /** @return the identity hash of the schema accepted at init, when a schema apply recorded it */
  public static Optional<String> genesisHash(GraphRoot root) {
    return root.readText(GENESIS).map(t -> {
      try {
        return JSON.readTree(t).path("schema_ir_hash").asText();
      } catch (IOException e) {
        throw new InternalErrorException(GENESIS + " of " + root.uri() + " is not JSON", null, e);
      }
    });
  }

  /**
   * Reads a schema from the history.
   *
   * @throws InternalErrorException it is missing, does not compile or has another hash
   */
  public static CompiledSchema readHistory(GraphRoot root, String irHash) {
    String stem = historyStem(irHash);
    Optional<String> source = root.readText(stem + ".pg");
    Optional<String> ir = root.readText(stem + ".ir.json");
    if (source.isEmpty() || ir.isEmpty()) {
      throw new InternalErrorException("the schema " + irHash + " that a commit of " + root.uri()
          + " accepts is missing from " + HISTORY, null);
    }
    CompiledSchema compiled;
    try {
      compiled = SchemaCompiler.open(source.get(), ir.get());
    } catch (SchemaException e) {
      throw new InternalErrorException("the history schema " + irHash + " of " + root.uri() + " does not compile: "
          + e.getMessage(), null, e);
    }
    if (!compiled.ir().hash().equals(irHash)) {
      throw new InternalErrorException("the history schema " + stem + " of " + root.uri() + " has identity "
          + compiled.ir().hash(), null);
    }
    return compiled;
  }

  /**
   * Promotes {@code schema} to the three schema files (source, IR, then the state marker last),
   * after the commit accepting it is visible. Idempotent: a crash between the puts is completed by
   * promoting again ({@link #promoteIfBehind}).
   */
  public static void promote(GraphRoot root, CompiledSchema schema, String genesisIrHash) {
    Failpoints.hit(Failpoints.SCHEMA_APPLY_PRE_PROMOTE);
    root.put(SOURCE, schema.source(), io.omnigraph.api.storage.WriteCondition.overwrite());
    Failpoints.hit(Failpoints.SCHEMA_APPLY_MID_PROMOTE);
    root.put(IR, schema.ir().toJson(), io.omnigraph.api.storage.WriteCondition.overwrite());
    root.put(STATE, stateJson(schema.ir(), genesisIrHash), io.omnigraph.api.storage.WriteCondition.overwrite());
  }

  /**
   * Completes an interrupted promotion: when main's latest cut accepts a schema (by a schema apply)
   * that the schema files do not hold, promotes it from the history.
   *
   * @return whether anything was promoted
   */
  public static boolean promoteIfBehind(GraphRoot root, String acceptedIrHash) {
    if (acceptedIrHash == null) {
      return false;
    }
    Optional<String> state = root.readText(STATE);
    if (state.isPresent()) {
      try {
        if (acceptedIrHash.equals(JSON.readTree(state.get()).path("schema_ir_hash").asText())
            && root.readText(IR).map(ir -> irHashOf(ir).equals(acceptedIrHash)).orElse(false)) {
          return false;
        }
      } catch (IOException e) {
        // An unreadable marker is replaced below.
      }
    }
    promote(root, readHistory(root, acceptedIrHash), genesisHash(root).orElse(null));
    return true;
  }

  private static String irHashOf(String irJson) {
    try {
      return SchemaIr.parse(irJson).hash();
    } catch (SchemaException e) {
      return "";
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
    return readAccepted(root).map(Accepted::schema);
  }

  /**
   * The schema files' schema and, once a schema apply promoted another schema over the one accepted
   * at init, the identity of that initial schema (cuts older than the first apply accept it).
   *
   * @param schema the schema the files hold
   * @param genesisIrHash the init schema's identity when it differs from {@code schema}'s, else {@code null}
   */
  public record Accepted(CompiledSchema schema, String genesisIrHash) {}

  /** {@link #read}, with the init schema's identity from the state marker. */
  public static Optional<Accepted> readAccepted(GraphRoot root) {
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
    String genesis = st.path("genesis_schema_ir_hash").asText(null);
    return Optional.of(new Accepted(compiled, accepted.hash().equals(genesis) ? null : genesis));
  }
}
