package io.omnigraph.engine.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.NotFoundException;
import io.omnigraph.api.UnsupportedStorageVersionException;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.engine.table.TableStore;
import io.omnigraph.engine.table.VersionStamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads and creates the {@code __manifest} dataset: the graph catalog (table registrations and
 * published versions) and the commit lineage, stamped with the internal storage version.
 */
public final class ManifestStore {
  /** The manifest dataset's path under the graph root. */
  public static final String PATH = "__manifest";

  static final ObjectMapper JSON = new ObjectMapper();

  private final TableStore tables;
  private final LanceLocation location;
  /**
   * The last state this store read or published, with the stamp of the manifest version it is the
   * state of. A Lance version never changes, so a read of a snapshot with the same stamp is served
   * from here instead of scanning the manifest again (every write reads the latest manifest three
   * times: capture, revalidation, the publisher's check).
   */
  private volatile Known known;

  /**
   * @param heads per graph branch, the address of its {@code graph_head} row in that version, where
   *     known (the publish that made the version wrote it; docs/write-protocol.md, "7. Publish")
   */
  private record Known(String uri, VersionStamp stamp, ManifestState state, Map<String, Long> heads) {
    Known(String uri, VersionStamp stamp, ManifestState state) {
      this(uri, stamp, state, Map.of());
    }

    boolean is(TableSnapshot s) {
      return uri.equals(s.location().uri()) && stamp.equals(s.stamp());
    }
  }

  /**
   * @param tables the table gateway
   * @param location where the manifest dataset lives ({@code adapter.lanceLocation("__manifest")})
   */
  public ManifestStore(TableStore tables, LanceLocation location) {
    this(tables, location, io.omnigraph.engine.storage.CommitDurability.none());
  }

  /**
   * @param tables the table gateway
   * @param location where the manifest dataset lives ({@code adapter.lanceLocation("__manifest")})
   * @param durability how what Lance commits under the root is made durable (every graph handle
   *     passes {@code CommitDurability.of(root)}; docs/write-protocol.md, "Durability")
   */
  public ManifestStore(TableStore tables, LanceLocation location,
      io.omnigraph.engine.storage.CommitDurability durability) {
    this.tables = Objects.requireNonNull(tables);
    this.location = Objects.requireNonNull(location);
    this.durability = Objects.requireNonNull(durability);
  }

  private final io.omnigraph.engine.storage.CommitDurability durability;

  /** @return how commits under this root are made durable */
  public io.omnigraph.engine.storage.CommitDurability durability() {
    return durability;
  }

  /** @return the manifest dataset's location */
  public LanceLocation location() {
    return location;
  }

  /**
   * @param branch a graph branch
   * @return where that branch's manifest lives: {@code __manifest} itself for {@value GraphBranch#MAIN},
   *     otherwise the native Lance branch of {@code __manifest} with the branch's name
   */
  public LanceLocation location(String branch) {
    return GraphBranch.MAIN.equals(branch) ? location : io.omnigraph.engine.table.TableReader.branchLocation(
        location, branch);
  }

  /**
   * Opens the latest manifest version of a graph branch after checking its storage stamp.
   *
   * @throws NotFoundException when the branch's manifest does not exist
   */
  public TableSnapshot openLatest(String branch) {
    if (GraphBranch.MAIN.equals(branch)) {
      return openLatest();
    }
    TableSnapshot s = tables.reader().openLatest(location(branch));
    try {
      guardStamp(s.schemaMetadata());
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /** @return the latest state of a graph branch's manifest */
  public ManifestState readLatest(String branch) {
    TableSnapshot s = openLatest(branch);
    try {
      return read(s);
    } finally {
      keep(s);
    }
  }

  /**
   * Reads one manifest version of a graph branch ({@link #readVersion(long)} on that branch's
   * manifest).
   */
  public ManifestState readVersion(String branch, long version) {
    try (TableSnapshot s = tables.reader().openAt(location(branch), version)) {
      guardStamp(s.schemaMetadata());
      Known k = known;
      if (k != null && k.is(s)) {
        return k.state();
      }
      return scan(s);
    }
  }

  /**
   * A table as the rows of a manifest version record it (cleanup, docs/maintenance.md "cleanup").
   *
   * @param tableKey the key of its registration (for a renamed table the newest; a dropped table keeps
   *     the key it had when dropped)
   * @param path the dataset path relative to the graph root
   * @param dropped whether a tombstone hides it from that version on (a soft-dropped type)
   * @param versions every version of it some {@code table_version} row of that manifest version
   *     publishes: every version any commit of that manifest's lineage pins, whatever key the table had then
   */
  public record RecordedTable(TableIdentity identity, String tableKey, String path, boolean dropped,
      java.util.SortedSet<Long> versions) {}

  /**
   * @return every table the latest manifest of {@code branch} registers, dropped ones included, with
   *     every version its rows publish (one full scan of that version)
   */
  public List<RecordedTable> recordedTables(String branch) {
    TableSnapshot s = openLatest(branch);
    List<ManifestRow> rows = new ArrayList<>();
    try {
      tables.reader().scan(s, ManifestCodec.READ_COLUMNS, null, root -> rows.addAll(ManifestCodec.fromArrow(root)));
    } finally {
      keep(s);
    }
    Map<TableIdentity, ManifestRow> registrations = new HashMap<>();
    Map<TableIdentity, java.util.SortedSet<Long>> versions = new HashMap<>();
    Map<TableIdentity, Long> tombstones = new HashMap<>();
    for (ManifestRow r : rows) {
      switch (r.objectType()) {
        case ManifestRow.TABLE -> registrations.put(r.identity(), r);
        case ManifestRow.TABLE_VERSION -> versions.computeIfAbsent(r.identity(), k -> new java.util.TreeSet<>())
            .add(r.tableVersion());
        case ManifestRow.TABLE_TOMBSTONE -> tombstones.merge(r.identity(), r.tableVersion(), Math::max);
        default -> {
          // Commits, heads, the schema row: not about a table's versions.
        }
      }
    }
    List<RecordedTable> out = new ArrayList<>();
    registrations.forEach((id, reg) -> {
      java.util.SortedSet<Long> v = versions.getOrDefault(id, new java.util.TreeSet<>());
      Long tomb = tombstones.get(id);
      boolean dropped = tomb != null && !v.isEmpty() && tomb >= v.last();
      out.add(new RecordedTable(id, reg.tableKey(), reg.location(), dropped, v));
    });
    return out;
  }

  /** A table created at init, registered and published in the genesis commit. */
  public record GenesisTable(TableIdentity identity, String tableKey, long version, String tableUri) {}

  /**
   * Creates the manifest in one Lance create commit (manifest version 1): a registration and a
   * version row per table, the genesis commit and {@code graph_head:main}, and the storage stamp in
   * the schema metadata, so there is no "manifest exists but unstamped" window.
   *
   * @throws io.omnigraph.api.ConflictException when a manifest already exists
   */
  public ManifestState createGenesis(List<GenesisTable> genesisTables, String commitId, long createdAtMicros) {
    // The tables' first versions are durable before the manifest that publishes them is written.
    List<io.omnigraph.engine.storage.CommitDurability.TableCommit> created = new ArrayList<>();
    for (GenesisTable t : genesisTables) {
      created.add(new io.omnigraph.engine.storage.CommitDurability.TableCommit(
          new LanceLocation(t.tableUri(), location.storageOptions()), 0, t.version()));
    }
    durability.syncOnce(tables.reader(), created);
    writeGenesis(genesisTables, commitId, createdAtMicros, Integer.toString(ManifestCodec.STAMP));
    // Read back through the stamp guard: proves the stamp landed in the same commit.
    try (TableSnapshot s = openLatest()) {
      durability.syncOnce(tables.reader(), List.of(
          new io.omnigraph.engine.storage.CommitDurability.TableCommit(location, 0, s.version())));
      return read(s);
    }
  }

  /** Writes a genesis manifest with an explicit stamp; tests use it to forge old or future graphs. */
  void writeGenesis(List<GenesisTable> genesisTables, String commitId, long createdAtMicros, String stamp) {
    List<ManifestRow> rows = new ArrayList<>();
    Map<String, Long> pins = new TreeMap<>();
    for (GenesisTable t : genesisTables) {
      rows.add(ManifestRow.table(t.identity(), t.tableKey()));
      rows.add(ManifestRow.tableVersion(t.identity(), t.tableKey(), t.version(), 0,
          versionMetadata(t.tableUri(), t.version())));
      pins.put(t.tableKey(), t.version());
    }
    GraphCommit genesis = new GraphCommit(commitId, null, 1, null, null, null, null, createdAtMicros, pins);
    rows.add(commitRow(genesis));
    rows.add(headRow(GraphBranch.MAIN, commitId, null));
    try (VectorSchemaRoot root = ManifestCodec.toArrow(rows, tables.allocator(), stamp)) {
      tables.writer().createTable(location, PATH, root.getSchema(), List.of(root));
    }
  }

  /**
   * Opens the latest manifest version after checking its storage stamp.
   *
   * @throws NotFoundException when there is no manifest (no graph at this root)
   * @throws UnsupportedStorageVersionException when the stamp is not {@value ManifestCodec#STAMP}
   */
  public TableSnapshot openLatest() {
    // The version this handle kept (its last publish, or the last one it opened): one LIST tells
    // whether it is still the latest, and then it is used as is instead of being read again.
    java.util.Optional<TableSnapshot> kept = tables.reader().takeKept(location);
    if (kept.isPresent()) {
      TableSnapshot k = kept.get();
      boolean latest;
      try {
        latest = tables.reader().latestVersion(k) == k.version();
      } catch (RuntimeException e) {
        k.close();
        throw e;
      }
      if (latest) {
        return k;
      }
      k.close();
    }
    TableSnapshot s;
    try {
      s = tables.reader().openLatest(location);
    } catch (NotFoundException e) {
      throw new NotFoundException("no graph manifest at " + location.uri(), null, e);
    }
    try {
      guardStamp(s.schemaMetadata());
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /**
   * Opens one earlier (or the latest) manifest version after checking its storage stamp, and reads
   * its state without touching the cache of the latest state.
   *
   * @param version a manifest version a graph commit produced
   * @return the state of that version
   * @throws NotFoundException when that version does not exist (any more)
   */
  public ManifestState readVersion(long version) {
    try (TableSnapshot s = tables.reader().openAt(location, version)) {
      guardStamp(s.schemaMetadata());
      Known k = known;
      if (k != null && k.is(s)) {
        return k.state();
      }
      return scan(s);
    }
  }

  /**
   * Gives back a handle on a version of main's manifest that {@link #openLatest()} (or a publish)
   * returned, so that the next {@link #openLatest()} costs one LIST while that version is still the
   * latest (docs/maintenance.md, "Request count of a 1-row insert"); a handle on another location
   * (a branch's manifest) is closed. The caller no longer closes {@code s}.
   */
  public void keep(TableSnapshot s) {
    if (s.location().uri().equals(location.uri())) {
      tables.reader().keep(s);
    } else {
      s.close();
    }
  }

  /** Refuses any storage stamp other than the current one; the message says how to move on. */
  static void guardStamp(Map<String, String> schemaMetadata) {
    String raw = schemaMetadata.get(ManifestCodec.STAMP_KEY);
    int expected = ManifestCodec.STAMP;
    ErrorDetail.UnsupportedStamp detail = new ErrorDetail.UnsupportedStamp(raw, expected);
    if (raw == null) {
      throw new UnsupportedStorageVersionException("graph manifest has no internal storage version stamp ("
          + ManifestCodec.STAMP_KEY + "); expected " + expected
          + ": the graph is from an interrupted init or is corrupted", detail);
    }
    int found;
    try {
      found = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new UnsupportedStorageVersionException("graph manifest has an unparseable internal storage version '"
          + raw + "'; expected " + expected, detail);
    }
    if (found < expected) {
      throw new UnsupportedStorageVersionException("graph uses internal storage version " + found
          + ", this release serves only version " + expected
          + "; rebuild it: export it with the release that wrote it, then init a new graph and load the export", detail);
    }
    if (found > expected) {
      throw new UnsupportedStorageVersionException("graph uses internal storage version " + found
          + ", newer than this release's version " + expected + "; upgrade omnigraph to open it", detail);
    }
  }

  /**
   * The visible state of one manifest version (docs/snapshots.md, "What a cut is"). When this
   * store last read or
   * published exactly that version (same {@link VersionStamp}), the state is returned without a scan;
   * otherwise the version is scanned and assembled.
   *
   * @throws InternalErrorException when the rows violate an invariant (a corrupted manifest)
   */
  public ManifestState read(TableSnapshot manifest) {
    VersionStamp stamp = manifest.stamp();
    Known k = known;
    if (k != null && k.is(manifest)) {
      return k.state();
    }
    Scanned scanned = scanned(manifest);
    known = new Known(manifest.location().uri(), stamp, scanned.state(), scanned.heads());
    return scanned.state();
  }

  /** Scans one manifest version and assembles its visible state, never from the cache. */
  ManifestState scan(TableSnapshot manifest) {
    return scanned(manifest).state();
  }

  /** A scanned version: its state and the address of each branch's single {@code graph_head} row. */
  private record Scanned(ManifestState state, Map<String, Long> heads) {}

  private Scanned scanned(TableSnapshot manifest) {
    List<ManifestRow> rows = new ArrayList<>();
    Map<String, Long> heads = new HashMap<>();
    java.util.Set<String> twice = new java.util.HashSet<>();
    tables.reader().scanWithRowAddress(manifest, ManifestCodec.READ_COLUMNS, root -> {
      List<ManifestRow> batch = ManifestCodec.fromArrow(root);
      org.apache.arrow.vector.UInt8Vector addresses = (org.apache.arrow.vector.UInt8Vector) root.getVector("_rowaddr");
      for (int i = 0; i < batch.size(); i++) {
        ManifestRow r = batch.get(i);
        if (ManifestRow.GRAPH_HEAD.equals(r.objectType())
            && heads.put(r.objectId().substring("graph_head:".length()), addresses.get(i)) != null) {
          twice.add(r.objectId().substring("graph_head:".length()));
        }
      }
      rows.addAll(batch);
    });
    heads.keySet().removeAll(twice);
    return new Scanned(assemble(manifest.version(), rows), Map.copyOf(heads));
  }

  /**
   * Records the state of a version this process just committed: the publisher's in-memory fold of
   * the version its merge was based on plus the rows it merged, valid because the merge landed at
   * exactly base + 1 (docs/write-protocol.md, "7. Publish": the returned state is the fold, no re-scan).
   */
  void published(TableSnapshot base, VersionStamp stamp, ManifestState state, String branch, long headRow) {
    if (stamp.version() != state.manifestVersion()) {
      throw new IllegalArgumentException("state of manifest version " + state.manifestVersion()
          + " recorded for version " + stamp.version());
    }
    known = new Known(base.location().uri(), stamp, state, headRow < 0 ? Map.of() : Map.of(branch, headRow));
  }

  /**
   * The address of {@code branch}'s {@code graph_head} row in the version {@code manifest} pins: known
   * without I/O when this store published or scanned that version, otherwise found by scanning it
   * (and remembered for that version).
   *
   * @return the row address (fragment id in the high 32 bits, offset in the low), or -1 when the
   *     version has no such row or more than one
   */
  long headRowAddress(TableSnapshot manifest, String branch) {
    Known k = known;
    if (k != null && k.is(manifest) && k.heads().containsKey(branch)) {
      return k.heads().get(branch);
    }
    Scanned scanned = scanned(manifest);
    known = new Known(manifest.location().uri(), manifest.stamp(), scanned.state(), scanned.heads());
    return scanned.heads().getOrDefault(branch, -1L);
  }

  /**
   * The state as of {@code commit}, an earlier member of a group commit that shares its manifest
   * version {@code version} with the members after it (docs/concurrency.md, "Group commit"): every
   * table at the version the commit pins, the members after it left out, and the commit as the head
   * of its branch. Scanned, never from the cache.
   */
  public ManifestState readAsOf(String branch, long version, GraphCommit commit) {
    try (TableSnapshot s = tables.reader().openAt(location(branch), version)) {
      guardStamp(s.schemaMetadata());
      List<ManifestRow> rows = new ArrayList<>();
      tables.reader().scanWithRowAddress(s, ManifestCodec.READ_COLUMNS, root -> rows.addAll(ManifestCodec.fromArrow(root)));
      return assemble(version, rows, commit);
    }
  }

  static ManifestState assemble(long manifestVersion, List<ManifestRow> rows) {
    return assemble(manifestVersion, rows, null);
  }

  /** {@link #assemble(long, List)} as of {@code asOf} ({@link #readAsOf}), or of the whole version when null. */
  static ManifestState assemble(long manifestVersion, List<ManifestRow> rows, GraphCommit asOf) {
    Map<TableIdentity, ManifestRow> registrations = new HashMap<>();
    Map<TableIdentity, ManifestRow> latest = new HashMap<>();
    Map<TableIdentity, Long> tombstones = new HashMap<>();
    Map<String, String> heads = new TreeMap<>();
    List<GraphCommit> commits = new ArrayList<>();
    String schemaIrHash = null;
    for (ManifestRow r : rows) {
      switch (r.objectType()) {
        case ManifestRow.TABLE -> {
          TableIdentity id = r.identity();
          requireCanonical(r, "table:" + id);
          if (!id.canonicalPath(r.tableKey()).equals(r.location())) {
            throw corrupt("registration " + r.objectId() + " has non-canonical location " + r.location());
          }
          ManifestRow prev = registrations.put(id, r);
          if (prev != null) {
            throw corrupt("two registrations for " + id);
          }
        }
        case ManifestRow.TABLE_VERSION -> {
          TableIdentity id = r.identity();
          requireCanonical(r, String.format("table_version:%s:%020d", id, r.tableVersion()));
          Long pin = asOf == null ? null : asOf.tableVersions().get(r.tableKey());
          if (pin != null && r.tableVersion() > pin) {
            continue; // a later group member's version
          }
          latest.merge(id, r, (a, b) -> a.tableVersion() >= b.tableVersion() ? a : b);
        }
        case ManifestRow.TABLE_TOMBSTONE -> tombstones.merge(r.identity(), r.tableVersion(), Math::max);
        case ManifestRow.GRAPH_COMMIT -> commits.add(decodeCommit(r));
        case ManifestRow.GRAPH_HEAD -> {
          JsonNode m = json(r);
          heads.put(r.objectId().substring("graph_head:".length()), text(m, "head_commit_id"));
        }
        case ManifestRow.GRAPH_SCHEMA -> {
          requireCanonical(r, ManifestRow.GRAPH_SCHEMA);
          schemaIrHash = text(json(r), "schema_ir_hash");
        }
        default -> {
          // Unknown object types are skipped: forward compatibility (docs/on-disk-layout.md, "__manifest").
        }
      }
    }
    Map<String, TableEntry> tablesByKey = new TreeMap<>();
    for (Map.Entry<TableIdentity, ManifestRow> e : latest.entrySet()) {
      ManifestRow v = e.getValue();
      Long tomb = tombstones.get(e.getKey());
      if (tomb != null && tomb >= v.tableVersion()) {
        continue;
      }
      ManifestRow reg = registrations.get(e.getKey());
      if (reg == null) {
        throw corrupt("table version row without registration for " + e.getKey());
      }
      TableEntry entry = new TableEntry(e.getKey(), reg.tableKey(), reg.location(), v.tableVersion(), v.tableBranch(),
          v.rowCount() == null ? 0 : v.rowCount());
      if (tablesByKey.put(reg.tableKey(), entry) != null) {
        throw corrupt("two live tables share the key " + reg.tableKey());
      }
    }
    commits.sort(GraphCommit::lineageOrder);
    if (asOf != null) {
      commits.removeIf(c -> c.manifestVersion() == asOf.manifestVersion() && GraphCommit.lineageOrder(c, asOf) > 0);
      heads.put(GraphBranch.fromColumn(asOf.branch()), asOf.commitId());
    }
    return new ManifestState(manifestVersion, tablesByKey, heads, commits, schemaIrHash);
  }

  private static void requireCanonical(ManifestRow r, String expected) {
    if (!r.objectId().equals(expected)) {
      throw corrupt("manifest row " + r.objectId() + " should be " + expected);
    }
  }

  private static InternalErrorException corrupt(String what) {
    return new InternalErrorException("corrupted graph manifest: " + what, null);
  }

  private static JsonNode json(ManifestRow r) {
    if (r.metadata() == null) {
      throw corrupt(r.objectId() + " has no metadata");
    }
    try {
      return JSON.readTree(r.metadata());
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupted graph manifest: " + r.objectId() + " metadata is not JSON", null, e);
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static GraphCommit decodeCommit(ManifestRow r) {
    JsonNode m = json(r);
    Map<String, Long> pins = new TreeMap<>();
    JsonNode tv = m.get("table_versions");
    if (tv != null && tv.isObject()) {
      tv.fields().forEachRemaining(e -> pins.put(e.getKey(), e.getValue().asLong()));
    }
    return new GraphCommit(r.objectId(), r.tableBranch(), r.tableVersion() == null ? 0 : r.tableVersion(),
        text(m, "parent_commit_id"), text(m, "merged_parent_commit_id"), text(m, "actor_id"), text(m, "message"),
        m.path("created_at").asLong(), pins);
  }

  static ManifestRow commitRow(GraphCommit c) {
    ObjectNode m = JSON.createObjectNode();
    if (c.parentCommitId() != null) {
      m.put("parent_commit_id", c.parentCommitId());
    }
    if (c.mergedParentCommitId() != null) {
      m.put("merged_parent_commit_id", c.mergedParentCommitId());
    }
    if (c.actorId() != null) {
      m.put("actor_id", c.actorId());
    }
    m.put("created_at", c.createdAtMicros());
    if (c.message() != null) {
      m.put("message", c.message());
    }
    ObjectNode pins = m.putObject("table_versions");
    new TreeMap<>(c.tableVersions()).forEach(pins::put);
    return new ManifestRow(c.commitId(), ManifestRow.GRAPH_COMMIT, null, m.toString(), "", null, null,
        c.manifestVersion(), c.branch(), null);
  }

  static ManifestRow headRow(String branch, String headCommitId, String parentCommitId) {
    java.util.Objects.requireNonNull(branch, "branch");
    ObjectNode m = JSON.createObjectNode();
    m.put("head_commit_id", headCommitId);
    if (parentCommitId != null) {
      m.put("parent_commit_id", parentCommitId);
    }
    return new ManifestRow("graph_head:" + branch, ManifestRow.GRAPH_HEAD, null,
        m.toString(), "", null, null, null, null, null);
  }

  /** The table_version metadata: where Lance keeps that version's manifest (V2 naming). */
  public static String versionMetadata(String tableUri, long version) {
    ObjectNode m = JSON.createObjectNode();
    // V2 naming: _versions/<u64::MAX - version, 20 digits>.manifest
    String inverted = Long.toUnsignedString(-1L - version);
    m.put("manifest_path", tableUri + "/_versions/" + "0".repeat(Math.max(0, 20 - inverted.length())) + inverted
        + ".manifest");
    m.putNull("manifest_size");
    m.putNull("e_tag");
    m.put("naming_scheme", "V2");
    return m.toString();
  }
}
