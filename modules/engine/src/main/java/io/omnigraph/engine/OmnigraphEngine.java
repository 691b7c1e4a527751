package io.omnigraph.engine;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.Graph;
import io.omnigraph.api.GraphEngine;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine behind {@link io.omnigraph.api.Omnigraph}: creates and opens graph roots laid out as
 * in engine.md section 1 (schema files, one Lance dataset per node and edge type, {@code __manifest}
 * with the commit lineage, internal storage version 6). Registered as the {@link GraphEngine}
 * service; applications use {@link io.omnigraph.api.Omnigraph} instead of this class.
 */
public final class OmnigraphEngine implements GraphEngine {
  static final String INIT_CLAIM = "__init_claim.json";

  /** Public no-argument constructor for {@link java.util.ServiceLoader}. */
  public OmnigraphEngine() {}

  @Override
  public Graph init(String uri, String schemaText, OpenOptions options) {
    Objects.requireNonNull(schemaText, "schemaText");
    CompiledSchema schema;
    try {
      schema = SchemaCompiler.compileForInit(schemaText, Ulid.generate());
    } catch (SchemaException e) {
      throw SchemaFiles.invalid(e);
    }
    GraphRoot root = GraphRoot.open(uri, options.storageOptions());
    TableStore tables = null;
    try {
      tables = new TableStore();
      ManifestStore manifest = new ManifestStore(tables, root.lance(ManifestStore.PATH));
      if (SchemaFiles.anyExists(root) || root.hasChildren(ManifestStore.PATH)) {
        throw new ConflictException("a graph already exists at " + uri, null);
      }
      String claim = "{\"claimed_at\":\"" + Instant.now() + "\",\"schema_identity_domain\":\""
          + schema.ir().identityDomain() + "\"}\n";
      if (!root.createText(INIT_CLAIM, claim)) {
        throw new ConflictException("another init claimed " + uri + " (" + INIT_CLAIM
            + " exists); if no init is running, the earlier one was interrupted: remove the root and retry", null);
      }
      // From here on a failure leaves the claim behind on purpose: it marks a partial root.
      if (!SchemaFiles.create(root, schema)) {
        throw new ConflictException("schema files appeared at " + uri + " during init", null);
      }
      List<ManifestStore.GenesisTable> genesis = new ArrayList<>();
      for (TableSpec t : schema.tables()) {
        var loc = root.lance(t.path());
        long v = tables.createTable(loc, t.tableKey(), t.arrowSchema(), List.of());
        genesis.add(new ManifestStore.GenesisTable(new TableIdentity(t.stableTableId(), t.tableIncarnationId()),
            t.tableKey(), v, loc.uri()));
      }
      manifest.createGenesis(genesis, Ulid.generate(), nowMicros());
      root.delete(INIT_CLAIM);
      return new LanceGraph(root, tables, schema);
    } catch (RuntimeException e) {
      closeAfterFailure(root, tables, e);
      throw e;
    }
  }

  @Override
  public Graph open(String uri, OpenOptions options) {
    GraphRoot root = GraphRoot.open(uri, options.storageOptions());
    TableStore tables = null;
    try {
      tables = new TableStore();
      ManifestStore manifest = new ManifestStore(tables, root.lance(ManifestStore.PATH));
      // The stamp is checked before anything else of the graph is read (seed: Storage versioning).
      try (var snapshot = manifest.openLatest()) {
        Optional<CompiledSchema> schema = SchemaFiles.read(root);
        if (schema.isEmpty()) {
          throw new io.omnigraph.api.InternalErrorException("graph at " + uri
              + " has a manifest but no schema files", null);
        }
        LanceGraph.checkCatalog(schema.get(), manifest.read(snapshot));
        return new LanceGraph(root, tables, schema.get());
      } catch (NotFoundException e) {
        if (root.exists(INIT_CLAIM)) {
          throw new ConflictException("the graph at " + uri + " is being initialized, or its init was interrupted ("
              + INIT_CLAIM + " exists)", null, e);
        }
        throw new NotFoundException("no graph at " + uri, null, e);
      }
    } catch (RuntimeException e) {
      closeAfterFailure(root, tables, e);
      throw e;
    }
  }

  static long nowMicros() {
    return io.omnigraph.engine.write.GraphWrite.nowMicros();
  }

  private static void closeAfterFailure(GraphRoot root, TableStore tables, RuntimeException primary) {
    try {
      if (tables != null) {
        tables.close();
      }
      root.close();
    } catch (OmnigraphException | IllegalStateException e) {
      primary.addSuppressed(e);
    }
  }

  static InvalidInputException closed() {
    return new InvalidInputException("this graph handle is closed", null);
  }
}
