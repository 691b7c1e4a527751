package io.omnigraph.engine.snapshot;

import io.omnigraph.api.ConflictException;
import io.omnigraph.engine.manifest.ManifestState;
import io.omnigraph.engine.manifest.ManifestStore;
import io.omnigraph.engine.manifest.TableIdentity;
import io.omnigraph.engine.schema.CompiledSchema;
import io.omnigraph.engine.schema.TableSpec;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.write.GraphWrite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates a graph root (docs/on-disk-layout.md): claims the root with {@value #INIT_CLAIM}, writes the
 * schema files, creates one empty Lance table per node and edge type, publishes the genesis
 * manifest state, and removes the claim. The result is the first cut, with its schema accepted.
 */
public final class GraphInit {
  /** The control file that marks a root whose init is running or was interrupted. */
  public static final String INIT_CLAIM = "__init_claim.json";

  private GraphInit() {}

  /**
   * @param root an empty root
   * @param tables the table gateway
   * @param manifest the root's manifest store
   * @param schema the schema compiled for init (fresh identity domain)
   * @return the root's resolver, with the genesis cut's schema already accepted
   * @throws ConflictException a graph (or another init's claim) already exists at the root
   */
  public static SnapshotResolver create(GraphRoot root, TableStore tables, ManifestStore manifest,
      CompiledSchema schema) {
    String uri = root.uri();
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
    // The empty tables are independent of each other: created two at a time (table.PerTable).
    List<TableSpec> specs = schema.tables();
    List<Long> versions = io.omnigraph.engine.table.PerTable.map(specs,
        t -> tables.writer().createTable(root.lance(t.path()), t.tableKey(), t.arrowSchema(), List.of()));
    for (int i = 0; i < specs.size(); i++) {
      TableSpec t = specs.get(i);
      genesis.add(new ManifestStore.GenesisTable(new TableIdentity(t.stableTableId(), t.tableIncarnationId()),
          t.tableKey(), versions.get(i), root.lance(t.path()).uri()));
    }
    ManifestState genesisState = manifest.createGenesis(genesis, Ulid.generate(), GraphWrite.nowMicros());
    root.delete(INIT_CLAIM);
    SnapshotResolver snapshots = new SnapshotResolver(root, tables, manifest);
    // The files were just written from this schema: accepted for the genesis cut without a re-read.
    snapshots.accept(schema, genesisState);
    return snapshots;
  }
}
