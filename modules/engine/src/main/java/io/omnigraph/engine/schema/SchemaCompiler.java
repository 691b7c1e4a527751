package io.omnigraph.engine.schema;

import java.util.Objects;

/**
 * Entry point of the schema language: parses and validates {@code .pg} text.
 *
 * <p>All methods are pure and thread-safe. Every failure is a {@link SchemaException} with the
 * line:column of the offending token and an "expected X, found Y" style message.
 */
public final class SchemaCompiler {
  private SchemaCompiler() {}

  /**
   * Parses and validates a schema without assigning identities.
   *
   * @param pgText {@code .pg} source
   * @return the catalog
   * @throws SchemaException on any syntax or semantic error
   */
  public static Catalog compile(String pgText) throws SchemaException {
    Objects.requireNonNull(pgText, "pgText");
    return CatalogBuilder.build(PgParser.parse(pgText));
  }

  /**
   * Compiles a schema for a brand-new graph, minting identities in {@code identityDomain}.
   *
   * @param pgText {@code .pg} source
   * @param identityDomain canonical uppercase ULID, normally {@link Ulid#generate()}
   * @return catalog, IR and table specs
   * @throws SchemaException on any syntax or semantic error
   */
  public static CompiledSchema compileForInit(String pgText, String identityDomain) throws SchemaException {
    Catalog catalog = compile(pgText);
    return new CompiledSchema(pgText, catalog, SchemaIr.initialize(catalog, identityDomain));
  }

  /**
   * Compiles a schema against an accepted IR, keeping identities of unchanged and renamed
   * declarations (see {@link SchemaIr#resolve(SchemaIr, Catalog)}).
   *
   * @param pgText {@code .pg} source
   * @param accepted the accepted IR
   * @return catalog, resolved IR and table specs
   * @throws SchemaException on a syntax, semantic or identity-resolution error
   */
  public static CompiledSchema compileAgainst(String pgText, SchemaIr accepted) throws SchemaException {
    Catalog catalog = compile(pgText);
    return new CompiledSchema(pgText, catalog, SchemaIr.resolve(accepted, catalog));
  }

  /**
   * Opens an existing graph's schema: compiles {@code _schema.pg} and checks that it describes
   * exactly the accepted IR (same shape), as the engine does on open.
   *
   * @param pgText content of {@code _schema.pg}
   * @param acceptedIrJson content of {@code _schema.ir.json}
   * @return catalog, the accepted IR and table specs
   * @throws SchemaException if either file is invalid, or kind IDENTITY if the source no longer
   *     matches the accepted compiled schema
   */
  public static CompiledSchema open(String pgText, String acceptedIrJson) throws SchemaException {
    SchemaIr ir = SchemaIr.parse(acceptedIrJson);
    Catalog catalog = compile(pgText);
    if (!SchemaIr.shapeHash(catalog).equals(ir.shapeHash())) {
      throw SchemaException.identity("current _schema.pg no longer matches the accepted compiled schema");
    }
    return new CompiledSchema(pgText, catalog, ir);
  }
}
