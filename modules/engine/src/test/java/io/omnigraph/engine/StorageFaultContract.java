package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadResult;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.MutationResult;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.RecoveryRecord;
import io.omnigraph.api.RecoveryRequiredException;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.engine.failpoint.FailAction;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.engine.recovery.RecoverySidecar;
import io.omnigraph.engine.schema.Ulid;
import io.omnigraph.engine.table.TableSnapshot;
import io.omnigraph.testkit.graph.GraphIo;
import io.omnigraph.testkit.graph.PeopleGraph;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Storage faults on the recovery protocol's sidecar I/O (docs/recovery.md, "Storage faults on
 * sidecar I/O"), the same contract on every backend. The faults are real storage failures
 * below the engine: on local disk the file adapter's {@link io.omnigraph.api.storage.StorageIoHook}
 * fails the I/O step, on S3, GCS and Azure the test kit's {@link io.omnigraph.testkit.fault.FaultProxy}
 * answers the backend's own error to the SDK (after the SDK's retries). Every fault is scoped to
 * the graph root's {@code __recovery/} directory, so schema files, the manifest and table data are
 * untouched by it.
 *
 * <p>A backend binds it with: a fresh root, options that reach the store directly (no faults), a
 * way to open the graph through its fault layer, faults per {@link SidecarIo}, the storage kind
 * its injected failure maps to, and raw access for residue the adapter itself would never write.
 * Each test starts from a graph with two committed rows ({@link RecoveryWrites#BEFORE}).
 */
abstract class StorageFaultContract {
  static final String SCHEMA = PeopleGraph.SCHEMA;
  static final String BEFORE = RecoveryWrites.BEFORE;
  /** Touches Person and Company. */
  static final String WRITE = RecoveryWrites.WRITE;
  static final String MORE = RecoveryWrites.MORE;
  static final String SIDECAR_NAME = "__recovery/[0-9A-HJKMNP-TV-Z]{26}\\.json";

  /** The sidecar I/O a binding fails; always scoped to {@code __recovery/} under the root. */
  enum SidecarIo {
    /** Writing a sidecar (Phase A arm, confirm). */
    PUT,
    /**
     * Writing a sidecar takes effect, but the response is lost: the writer cannot know whether the
     * put happened ({@code OUTCOME_UNKNOWN}).
     */
    PUT_RESPONSE_LOST,
    /** Deleting a sidecar (Phase D, recovery's own delete). */
    DELETE,
    /** Listing {@code __recovery/}. */
    LIST,
    /** Reading a listed sidecar's body (not every binding can fail it: {@link #canFailReads()}). */
    READ
  }

  /** A fault that fails every matching storage request until {@link #close()}d. */
  interface Injected extends AutoCloseable {
    /** @return how many matching requests (I/O steps) it failed so far */
    int fired();

    /** Disarms the fault. */
    @Override
    void close();
  }

  /** @return a root URI (or path) where no graph exists yet */
  abstract String freshRoot();

  /** @return options that reach the store directly, bypassing every fault */
  abstract OpenOptions directOptions();

  /** Opens the graph at {@code root} read-write through the binding's fault layer. */
  abstract Graph openThroughFaults(String root);

  /** Arms {@code io} to fail for every sidecar request under {@code root} until the result is closed. */
  abstract Injected fail(String root, SidecarIo io);

  /** @return whether {@link #fail} supports {@link SidecarIo#READ} (tests that need it are skipped otherwise) */
  boolean canFailReads() {
    return true;
  }

  /** @return the storage kind an injected failure reaches the engine as */
  abstract StorageException.Kind injectedKind();

  /**
   * Writes {@code bytes} at the root-relative {@code name} directly in the store, bypassing the
   * adapter (which refuses to address temp names).
   */
  abstract void plantRaw(String root, String name, byte[] bytes) throws Exception;

  /** @return whether the root-relative {@code name} exists in the store (raw, not through the adapter) */
  abstract boolean rawExists(String root, String name) throws Exception;

  String root;
  String before;

  @BeforeEach
  void graphWithTwoRows() {
    root = freshRoot();
    try (Graph g = Omnigraph.init(root, SCHEMA, directOptions())) {
      GraphIo.load(g, LoadMode.OVERWRITE, BEFORE);
      before = GraphIo.export(g);
    }
  }

  @AfterEach
  void disarmFailpoints() {
    Failpoints.disarmAll();
  }

  LanceGraph open() {
    return (LanceGraph) openThroughFaults(root);
  }

  StorageAdapter direct() throws StorageException {
    return StorageAdapters.open(root, directOptions().storageOptions());
  }

  /** @return the sidecar files under the root, as the adapter (without faults) lists them */
  List<String> sidecars() throws StorageException {
    try (StorageAdapter a = direct()) {
      return a.list(RecoverySidecar.DIR).toList();
    }
  }

  static String operationId(String sidecarPath) {
    return sidecarPath.substring(RecoverySidecar.DIR.length() + 1, sidecarPath.length() - ".json".length());
  }

  /** @return per table key, the table's live Lance HEAD */
  static Map<String, Long> liveHeads(LanceGraph g) {
    Map<String, Long> out = new TreeMap<>();
    g.state().tables().forEach((key, entry) -> {
      try (TableSnapshot s = g.tables().reader().openLatest(g.root().lance(entry.path()))) {
        out.put(key, s.version());
      }
    });
    return out;
  }

  /** @return per table key, the version the manifest publishes */
  static Map<String, Long> pins(LanceGraph g) {
    Map<String, Long> out = new TreeMap<>();
    g.state().tables().forEach((key, entry) -> out.put(key, entry.version()));
    return out;
  }

  static void assertInjectedStorageFailure(Throwable e, StorageException.Kind kind, String pathRegex) {
    assertThat(e).isInstanceOf(StorageFailureException.class);
    StorageFailureException s = (StorageFailureException) e;
    assertThat(s.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(s.detail()).get().isInstanceOfSatisfying(ErrorDetail.Storage.class, d -> {
      assertThat(d.storageKind()).isEqualTo(kind.name());
      assertThat(d.path()).matches(pathRegex);
    });
  }

  /** Writes {@link #WRITE} while sidecar deletes fail: acknowledged, published, sidecar left behind. */
  LoadResult writeWhoseSidecarDeleteFails(LanceGraph g) throws StorageException {
    LoadResult r;
    try (Injected delete = fail(root, SidecarIo.DELETE)) {
      r = GraphIo.load(g, LoadMode.MERGE, WRITE);
      assertThat(delete.fired()).as("the sidecar delete was failed: %s", delete).isPositive();
    }
    assertThat(g.commits().get(0).id()).as("the write is published").isEqualTo(r.commitId());
    assertThat(GraphIo.export(g)).contains("\"age\":37", "initech");
    assertThat(sidecars()).as("the stale sidecar").singleElement().asString().matches(SIDECAR_NAME);
    return r;
  }

  // a. sidecar put fails

  @Test
  void aFailedSidecarPutAbortsTheWriteBeforeAnyTableCommit() throws Exception {
    try (LanceGraph g = open()) {
      Map<String, Long> heads = liveHeads(g);
      int commits = g.commits().size();
      try (Injected put = fail(root, SidecarIo.PUT)) {
        assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, WRITE))
            .satisfies(e -> assertInjectedStorageFailure(e, injectedKind(), SIDECAR_NAME));
        assertThat(put.fired()).as("%s", put).isPositive();
      }
      assertThat(liveHeads(g)).as("no table HEAD moved").isEqualTo(heads);
      assertThat(pins(g)).isEqualTo(heads);
      assertThat(g.commits()).hasSize(commits);
      assertThat(GraphIo.export(g)).isEqualTo(before);
      assertThat(sidecars()).isEmpty();
      assertThat(g.recoveries()).isEmpty();
    }
  }

  @Test
  void aFailedSidecarPutDoesNotWedgeTheNextWrite() throws Exception {
    try (LanceGraph g = open()) {
      int commits = g.commits().size();
      try (Injected put = fail(root, SidecarIo.PUT)) {
        assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, WRITE))
            .isInstanceOf(StorageFailureException.class);
        assertThat(put.fired()).as("%s", put).isPositive();
      }
      LoadResult r = GraphIo.load(g, LoadMode.MERGE, WRITE);
      assertThat(g.commits()).hasSize(commits + 1);
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      assertThat(GraphIo.export(g)).contains("\"age\":37", "initech", "\"bob\"");
      TableDrift.assertNoDrift(g);
      assertThat(sidecars()).isEmpty();
      assertThat(g.recoveries()).isEmpty();
    }
  }

  @Test
  void aSidecarPutWhoseResponseIsLostAbortsTheWriteAndDoesNotWedgeTheNextWrite() throws Exception {
    try (LanceGraph g = open()) {
      Map<String, Long> heads = liveHeads(g);
      int commits = g.commits().size();
      try (Injected lost = fail(root, SidecarIo.PUT_RESPONSE_LOST)) {
        assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, WRITE))
            .satisfies(e -> assertInjectedStorageFailure(e, StorageException.Kind.OUTCOME_UNKNOWN, SIDECAR_NAME));
        assertThat(lost.fired()).as("%s", lost).isPositive();
      }
      assertThat(liveHeads(g)).as("no table HEAD moved").isEqualTo(heads);
      assertThat(GraphIo.export(g)).isEqualTo(before);
      assertThat(sidecars()).as("the writer withdrew the sidecar it may have written").isEmpty();
      LoadResult r = GraphIo.load(g, LoadMode.MERGE, WRITE);
      assertThat(g.commits()).hasSize(commits + 1);
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      assertThat(g.recoveries()).isEmpty();
      assertThat(sidecars()).isEmpty();
    }
  }

  static final String HIRE = """
      query hire($name: String, $company: String) {
        insert Person { name: $name }
        insert Company { title: $company }
      }
      """;

  static MutationResult hire(Graph g, String name, String company) {
    return g.mutate(HIRE, "hire", QueryParams.of(Map.of("name", name, "company", company)), MutationOptions.defaults());
  }

  @Test
  void aFailedSidecarPutAbortsAMutationBeforeAnyTableCommitAndTheNextMutationSucceeds() throws Exception {
    try (LanceGraph g = open()) {
      Map<String, Long> heads = liveHeads(g);
      int commits = g.commits().size();
      try (Injected put = fail(root, SidecarIo.PUT)) {
        assertThatThrownBy(() -> hire(g, "dee", "globex"))
            .satisfies(e -> assertInjectedStorageFailure(e, injectedKind(), SIDECAR_NAME));
        assertThat(put.fired()).as("%s", put).isPositive();
      }
      assertThat(liveHeads(g)).isEqualTo(heads);
      assertThat(GraphIo.export(g)).isEqualTo(before);
      assertThat(sidecars()).isEmpty();
      MutationResult r = hire(g, "dee", "globex");
      assertThat(g.commits()).hasSize(commits + 1);
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      assertThat(GraphIo.export(g)).contains("\"dee\"", "globex");
      assertThat(sidecars()).isEmpty();
    }
  }

  // b. sidecar delete fails

  @Test
  void aFailedSidecarDeleteAfterAMutationIsAuditedAsRolledForwardByTheNextOpen() throws Exception {
    MutationResult r;
    String operation;
    try (LanceGraph g = open()) {
      try (Injected delete = fail(root, SidecarIo.DELETE)) {
        r = hire(g, "dee", "globex");
        assertThat(delete.fired()).as("%s", delete).isPositive();
      }
      assertThat(g.commits().get(0).id()).isEqualTo(r.commitId());
      assertThat(sidecars()).singleElement().asString().matches(SIDECAR_NAME);
      operation = operationId(sidecars().get(0));
    }
    try (LanceGraph g = open()) {
      assertThat(g.recoveries()).singleElement().satisfies(rec -> {
        assertThat(rec.kind()).isEqualTo("RolledForward");
        assertThat(rec.operationId()).isEqualTo(operation);
        assertThat(rec.graphCommitId()).isEqualTo(r.commitId());
        assertThat(rec.writerKind()).isEqualTo("Mutation");
      });
      assertThat(sidecars()).isEmpty();
      assertThat(GraphIo.export(g)).contains("\"dee\"", "globex");
    }
  }

  @Test
  void aFailedSidecarDeleteIsHealedByTheNextWriteAndAuditedAsRolledForwardOnce() throws Exception {
    try (LanceGraph g = open()) {
      int commits = g.commits().size();
      LoadResult first = writeWhoseSidecarDeleteFails(g);
      String operation = operationId(sidecars().get(0));
      LoadResult next = GraphIo.load(g, LoadMode.MERGE, MORE);
      assertThat(g.commits()).extracting(c -> c.id()).startsWith(next.commitId(), first.commitId())
          .hasSize(commits + 2);
      assertThat(g.recoveries()).singleElement().satisfies(r -> assertRolledForward(r, operation, first.commitId()));
      assertThat(sidecars()).isEmpty();
      TableDrift.assertNoDrift(g);
    }
  }

  @Test
  void aFailedSidecarDeleteIsHealedByTheNextOpenAndAuditedAsRolledForwardOnce() throws Exception {
    LoadResult first;
    String after;
    String operation;
    int commits;
    try (LanceGraph g = open()) {
      first = writeWhoseSidecarDeleteFails(g);
      operation = operationId(sidecars().get(0));
      after = GraphIo.export(g);
      commits = g.commits().size();
    }
    try (LanceGraph g = open()) {
      assertThat(sidecars()).isEmpty();
      assertThat(g.recoveries()).singleElement().satisfies(r -> assertRolledForward(r, operation, first.commitId()));
      assertThat(g.commits()).as("finalizing publishes nothing new").hasSize(commits);
      assertThat(GraphIo.export(g)).isEqualTo(after);
    }
    try (LanceGraph g = open()) {
      assertThat(g.recoveries()).as("exactly one audit row").hasSize(1);
    }
  }

  static void assertRolledForward(RecoveryRecord r, String operation, String commitId) {
    assertThat(r.kind()).isEqualTo("RolledForward");
    assertThat(r.operationId()).isEqualTo(operation);
    assertThat(r.graphCommitId()).isEqualTo(commitId);
    assertThat(r.writerKind()).isEqualTo("Load");
  }

  // c. list of __recovery/ fails

  @Test
  void aFailedRecoveryListingFailsTheOpenLoudly() throws Exception {
    try (Injected list = fail(root, SidecarIo.LIST)) {
      assertThatThrownBy(this::open)
          .satisfies(e -> assertInjectedStorageFailure(e, injectedKind(), RecoverySidecar.DIR + "/?"));
      assertThat(list.fired()).as("%s", list).isPositive();
    }
    try (LanceGraph g = open()) {
      assertThat(GraphIo.export(g)).isEqualTo(before);
    }
  }

  @Test
  void aFailedRecoveryListingFailsAWriteLoudlyAndChangesNothing() throws Exception {
    try (LanceGraph g = open()) {
      Map<String, Long> heads = liveHeads(g);
      int commits = g.commits().size();
      try (Injected list = fail(root, SidecarIo.LIST)) {
        assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, WRITE))
            .satisfies(e -> assertInjectedStorageFailure(e, injectedKind(), RecoverySidecar.DIR + "/?"));
        assertThat(list.fired()).as("%s", list).isPositive();
      }
      assertThat(liveHeads(g)).isEqualTo(heads);
      assertThat(g.commits()).hasSize(commits);
      assertThat(GraphIo.export(g)).isEqualTo(before);
      assertThat(sidecars()).isEmpty();
      GraphIo.load(g, LoadMode.MERGE, WRITE);
      assertThat(g.commits()).hasSize(commits + 1);
    }
  }

  // d. a sidecar vanishes between list and read

  /** Deletes the one listed sidecar (directly in the store) right after the sweep listed it. */
  Failpoints.Armed vanishAfterListing(String sidecar) {
    return Failpoints.arm(Failpoints.SIDECAR_POST_LIST_PRE_READ, FailAction.call(() -> {
      try (StorageAdapter a = direct()) {
        a.delete(sidecar);
      } catch (StorageException e) {
        throw new IllegalStateException(e);
      }
    }), 1);
  }

  @Test
  void aSidecarThatVanishesBetweenListAndReadIsSkippedByTheOpen() throws Exception {
    String after;
    String sidecar;
    try (LanceGraph g = open()) {
      writeWhoseSidecarDeleteFails(g);
      sidecar = sidecars().get(0);
      after = GraphIo.export(g);
    }
    try (Failpoints.Armed vanish = vanishAfterListing(sidecar); LanceGraph g = open()) {
      assertThat(vanish.fired()).isEqualTo(1);
      assertThat(g.recoveries()).as("skipped: nothing to audit").isEmpty();
      assertThat(GraphIo.export(g)).isEqualTo(after);
      assertThat(sidecars()).isEmpty();
    }
  }

  @Test
  void aSidecarThatVanishesBetweenListAndReadIsSkippedByTheNextWrite() throws Exception {
    try (LanceGraph g = open()) {
      int commits = g.commits().size();
      writeWhoseSidecarDeleteFails(g);
      String sidecar = sidecars().get(0);
      try (Failpoints.Armed vanish = vanishAfterListing(sidecar)) {
        GraphIo.load(g, LoadMode.MERGE, MORE);
        assertThat(vanish.fired()).isEqualTo(1);
      }
      assertThat(g.commits()).hasSize(commits + 2);
      assertThat(g.recoveries()).isEmpty();
      assertThat(GraphIo.export(g)).contains("initech", "\"cy\"");
      assertThat(sidecars()).isEmpty();
    }
  }

  @Test
  void aFailedSidecarReadOtherThanNotFoundFailsTheOpenLoudlyAndKeepsTheSidecar() throws Exception {
    assumeTrue(canFailReads(), "this binding cannot fail reads");
    String sidecar;
    try (LanceGraph g = open()) {
      writeWhoseSidecarDeleteFails(g);
      sidecar = sidecars().get(0);
    }
    try (Injected read = fail(root, SidecarIo.READ)) {
      assertThatThrownBy(this::open).satisfies(e -> assertInjectedStorageFailure(e, injectedKind(), SIDECAR_NAME));
      assertThat(read.fired()).as("%s", read).isPositive();
    }
    assertThat(sidecars()).containsExactly(sidecar);
    try (LanceGraph g = open()) {
      assertThat(g.recoveries()).singleElement().satisfies(r -> assertThat(r.operationId())
          .isEqualTo(operationId(sidecar)));
      assertThat(sidecars()).isEmpty();
    }
  }

  // e. a corrupt sidecar is refused and kept

  static final byte[] CORRUPT = "{\"schema_version\" : 9, \"operation_id\" : \"trunc".getBytes(StandardCharsets.UTF_8);

  String plantCorruptSidecar() throws StorageException {
    String id = Ulid.generate();
    String path = RecoverySidecar.path(id);
    try (StorageAdapter a = direct()) {
      a.put(path, CORRUPT, WriteCondition.ifAbsent());
    }
    return path;
  }

  void assertRefusedNaming(Throwable e, String path) {
    assertThat(e).isInstanceOf(RecoveryRequiredException.class).hasMessageContaining(path);
    RecoveryRequiredException r = (RecoveryRequiredException) e;
    assertThat(r.kind().httpStatus()).isEqualTo(503);
    assertThat(r.detail()).contains(new ErrorDetail.RecoveryRequired(operationId(path)));
  }

  void assertKept(String path) throws StorageException {
    try (StorageAdapter a = direct()) {
      assertThat(a.readTextIfExists(path)).as("the corrupt sidecar is kept for the operator")
          .contains(new String(CORRUPT, StandardCharsets.UTF_8));
    }
  }

  @Test
  void aCorruptSidecarRefusesTheOpenNamingTheFileAndIsKept() throws Exception {
    String path = plantCorruptSidecar();
    assertThatThrownBy(this::open).satisfies(e -> assertRefusedNaming(e, path));
    assertKept(path);
    assertThatThrownBy(this::open).as("refused again, never consumed").satisfies(e -> assertRefusedNaming(e, path));
    assertKept(path);
  }

  @Test
  void aCorruptSidecarRefusesWritesOnAnOpenGraphAndIsKept() throws Exception {
    try (LanceGraph g = open()) {
      Map<String, Long> heads = liveHeads(g);
      String path = plantCorruptSidecar();
      assertThatThrownBy(() -> GraphIo.load(g, LoadMode.MERGE, WRITE)).satisfies(e -> assertRefusedNaming(e, path));
      assertThat(liveHeads(g)).isEqualTo(heads);
      assertThat(GraphIo.export(g)).isEqualTo(before);
      assertKept(path);
    }
  }

  // f. temp-name residue

  @Test
  void aTempNameResidueInTheRecoveryDirectoryIsInvisibleToTheSweep() throws Exception {
    String residue = RecoverySidecar.path(Ulid.generate()) + "#" + 4_711_000_123L;
    plantRaw(root, residue, CORRUPT);
    assertThat(rawExists(root, residue)).isTrue();
    try (LanceGraph g = open()) {
      assertThat(g.recoveries()).isEmpty();
      GraphIo.load(g, LoadMode.MERGE, WRITE);
      assertThat(GraphIo.export(g)).contains("initech");
      assertThat(g.recoveries()).isEmpty();
    }
    assertThat(sidecars()).isEmpty();
    assertThat(rawExists(root, residue)).as("harmless residue is left alone").isTrue();
  }
}
