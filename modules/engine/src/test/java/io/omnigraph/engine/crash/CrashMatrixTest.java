package io.omnigraph.engine.crash;

import static io.omnigraph.engine.crash.CrashWrites.APPEND2;
import static io.omnigraph.engine.crash.CrashWrites.BASE;
import static io.omnigraph.engine.crash.CrashWrites.ENSURE_INDICES3;
import static io.omnigraph.engine.crash.CrashWrites.FIRE2;
import static io.omnigraph.engine.crash.CrashWrites.FOLLOW_UP;
import static io.omnigraph.engine.crash.CrashWrites.HIRE3;
import static io.omnigraph.engine.crash.CrashWrites.MERGE3;
import static io.omnigraph.engine.crash.CrashWrites.NOBODY;
import static io.omnigraph.engine.crash.CrashWrites.OPTIMIZE3;
import static io.omnigraph.engine.crash.CrashWrites.OPTIMIZE_SETUP;
import static io.omnigraph.engine.crash.CrashWrites.OVERWRITE2;
import static io.omnigraph.engine.crash.CrashWrites.SCHEMA_APPLY3;
import static io.omnigraph.engine.crash.CrashWrites.SCHEMA_APPLY_PG;
import static io.omnigraph.engine.crash.CrashWrites.SET_AGE1;
import static io.omnigraph.engine.crash.CrashWrites.inputFile;
import static io.omnigraph.engine.crash.CrashWrites.sidecars;
import static io.omnigraph.testkit.graph.GraphIo.commitIds;
import static io.omnigraph.testkit.graph.GraphIo.export;
import static io.omnigraph.testkit.graph.GraphIo.load;
import static io.omnigraph.testkit.graph.PeopleGraph.KEYS;
import static io.omnigraph.testkit.graph.PeopleGraph.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OpenOptions;
import io.omnigraph.engine.crash.CrashWrites.Writer;
import io.omnigraph.engine.failpoint.Failpoints;
import io.omnigraph.testkit.jvm.ChildJvm;
import io.omnigraph.testkit.s3.S3AdapterOptions;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash matrix (docs/failpoints.md, "Crash matrix and kill loop"): for every failpoint on the
 * load and mutation write paths, a
 * child JVM runs the write and halts there ({@code Runtime.halt}); the test reopens the graph and
 * requires that it is exactly the state before the write or exactly the state after it (row-level,
 * against {@link GraphModel}), that its history is the old chain or the old chain plus one commit,
 * that no recovery sidecar is left, that the recovery audit says what happened (no row, one
 * RolledBack row for the recovery commit, or one RolledForward row for the write's own commit, as
 * {@link #expectedOutcome} requires per failpoint), and that the next write succeeds (nothing is
 * wedged). One control cell per writer runs without a failpoint and must reach the after state,
 * which proves the model. A third test crashes the recovery sweep itself at each of its failpoints
 * ({@link #RECOVERY_CELLS}) and requires the next open to finish it with exactly one audit row.
 *
 * <p>Runs on local disk and on the S3 emulator (the child gets the s3proxy endpoint). The matrix
 * (failpoint × backend → outcome) is printed after the run; any divergence fails the test.
 *
 * <p>Failpoints that no production code passes yet are listed as "not placed" and skipped; they
 * join the matrix automatically when their call sites land.
 */
class CrashMatrixTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  /** The write-path failpoints in the order a write passes them; per-table ones fire once per table. */
  static final List<String> WRITE_PATH = List.of(Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.SIDECAR_WRITE,
      Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT, Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER,
      Failpoints.SIDECAR_CONFIRM, Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, Failpoints.PUBLISH_BEFORE,
      Failpoints.PUBLISH_AFTER, Failpoints.SIDECAR_DELETE);
  static final Set<String> PER_TABLE = Set.of(Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER);

  /**
   * The outcome each cell must reach: a halt before the first table commit leaves the graph
   * untouched (the armed, effect-free sidecar is discarded without an audit row); a halt after a
   * table commit and before the sidecar is confirmed is rolled back (one recovery commit, one
   * RolledBack audit row); from the confirmation on the write is rolled forward (its own commit, one
   * RolledForward audit row, also when the publish landed and only Phase D was lost).
   *
   * @throws AssertionError for a failpoint this table does not classify (a new failpoint must be
   *     given its expected outcome)
   */
  static String expectedOutcome(String failpoint, int hit) {
    if (failpoint == null) {
      return "after";
    }
    return switch (failpoint) {
      case Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.SIDECAR_WRITE, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT,
          Failpoints.WRITE_POST_NO_EFFECT, Failpoints.WRITE_DELETE_NODE_PRE_PRIMARY_DELETE -> "before";
      case Failpoints.TABLE_COMMIT_BEFORE -> hit == 1 ? "before" : ROLLED_BACK;
      case Failpoints.TABLE_COMMIT_AFTER, Failpoints.SIDECAR_CONFIRM -> ROLLED_BACK;
      case Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, Failpoints.PUBLISH_BEFORE, Failpoints.PUBLISH_AFTER,
          Failpoints.SIDECAR_DELETE -> ROLLED_FORWARD;
      // Optimize: nothing moved yet → discarded; any compaction or index commit → rolled forward
      // (content-preserving, so publishing it is the optimize's own commit).
      case Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT -> "before";
      case Failpoints.OPTIMIZE_POST_TABLE_EFFECT, Failpoints.OPTIMIZE_PRE_PUBLISH,
          Failpoints.OPTIMIZE_POST_PUBLISH_PRE_RETIRE -> ROLLED_FORWARD;
      default -> throw new AssertionError("no expected crash outcome for failpoint " + failpoint);
    };
  }

  static final String ROLLED_BACK = "before (RolledBack)";
  static final String ROLLED_FORWARD = "after (RolledForward)";

  static final String CONTROL = "(no failpoint)";

  /** backend → cell label → outcome, printed at the end. */
  static final Map<String, Map<String, String>> MATRIX = new TreeMap<>();
  static final List<String> DIVERGENCES = new ArrayList<>();
  static final AtomicInteger COVERED = new AtomicInteger();

  @TempDir Path tmp;

  interface Backend {
    String name();

    String freshUri();

    Map<String, String> options();
  }

  @Test
  void everyWritePathFailpointOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    List<String> divergent = new ArrayList<>();
    Backend local = local(); // one backend: fresh graph directories are numbered across all writers
    for (Writer w : List.of(MERGE3, APPEND2, OVERWRITE2, HIRE3, FIRE2, SET_AGE1, NOBODY)) {
      divergent.addAll(runWriter(local, w));
    }
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  @Test
  void everyWritePathFailpointOfEnsureIndicesOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    List<String> divergent = runWriter(local(), ENSURE_INDICES3);
    assertThat(divergent).as("divergent cells").isEmpty();
    assertThat(MATRIX.get("local")).containsKey(ENSURE_INDICES3.name() + " @ " + CONTROL);
  }

  /** Optimize over three tables with two fragments each (and no indexes yet): every failpoint it passes. */
  @Test
  void everyOptimizeFailpointOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    assertThat(optimizeCells(local())).as("divergent cells").isEmpty();
  }

  /** The optimize cells on the S3 emulator. */
  @Test
  void everyOptimizeFailpointOnTheS3EmulatorLeavesTheBeforeOrTheAfterState() {
    assertThat(optimizeCells(s3())).as("divergent cells").isEmpty();
  }

  /** The ensure-indices cells on the S3 emulator. */
  @Test
  void everyWritePathFailpointOfEnsureIndicesOnTheS3EmulatorLeavesTheBeforeOrTheAfterState() {
    assertThat(runWriter(s3(), ENSURE_INDICES3)).as("divergent cells").isEmpty();
  }

  /** The schema apply cells on the S3 emulator. */
  @Test
  void everySchemaApplyFailpointOnTheS3EmulatorLeavesTheBeforeOrTheAfterState() {
    assertThat(schemaApplyCells(s3())).as("divergent cells").isEmpty();
  }

  private List<String> optimizeCells(Backend backend) {
    List<String> divergent = new ArrayList<>();
    record Cell(String failpoint, int hit) {}
    List<Cell> cells = new ArrayList<>(List.of(new Cell(null, 0), new Cell(Failpoints.SIDECAR_WRITE, 1),
        new Cell(Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT, 1)));
    for (int i = 1; i <= OPTIMIZE3.tables(); i++) {
      cells.add(new Cell(Failpoints.OPTIMIZE_POST_TABLE_EFFECT, i));
    }
    cells.addAll(List.of(new Cell(Failpoints.OPTIMIZE_PRE_PUBLISH, 1), new Cell(Failpoints.PUBLISH_BEFORE, 1),
        new Cell(Failpoints.PUBLISH_AFTER, 1), new Cell(Failpoints.OPTIMIZE_POST_PUBLISH_PRE_RETIRE, 1),
        new Cell(Failpoints.SIDECAR_DELETE, 1)));
    for (Cell c : cells) {
      String label = OPTIMIZE3.name() + " @ " + (c.failpoint() == null ? CONTROL : c.failpoint()
          + (c.failpoint().equals(Failpoints.OPTIMIZE_POST_TABLE_EFFECT) ? "#" + c.hit() : ""));
      CellResult r = runCell(backend, OPTIMIZE3, c.failpoint(), c.hit(), null);
      COVERED.incrementAndGet();
      if (r.divergence() != null) {
        divergent.add(backend.name() + " " + label + ": " + r.divergence());
        DIVERGENCES.add(backend.name() + " " + label + ": " + r.divergence());
      }
      synchronized (MATRIX) {
        MATRIX.computeIfAbsent(backend.name(), k -> new TreeMap<>()).put(label, r.outcome());
      }
    }
    return divergent;
  }

  /**
   * The outcome of a SchemaApply halted at {@code failpoint}: nothing committed yet → untouched; a
   * table rewritten or created but the commit not visible → rolled back (Armed and EffectsConfirmed
   * alike, docs/schema-migration.md "Recovery"); the commit visible → finalized forward (the schema
   * files promoted by the sweep if the crash came before or between the promotions).
   */
  static String expectedSchemaApplyOutcome(String failpoint) {
    if (failpoint == null) {
      return "after";
    }
    return switch (failpoint) {
      case Failpoints.SIDECAR_WRITE, Failpoints.SCHEMA_APPLY_POST_SIDECAR_PRE_EFFECT -> "before";
      case Failpoints.SCHEMA_APPLY_POST_TABLE_EFFECT, Failpoints.SIDECAR_CONFIRM, Failpoints.SCHEMA_APPLY_PRE_PUBLISH,
          Failpoints.PUBLISH_BEFORE -> ROLLED_BACK;
      case Failpoints.PUBLISH_AFTER, Failpoints.SCHEMA_APPLY_PRE_PROMOTE, Failpoints.SCHEMA_APPLY_MID_PROMOTE,
          Failpoints.SIDECAR_DELETE -> ROLLED_FORWARD;
      default -> throw new AssertionError("no expected schema apply crash outcome for failpoint " + failpoint);
    };
  }

  /** SchemaApply (two rewrites, one create): every failpoint it passes; the accepted schema matches the outcome. */
  @Test
  void everySchemaApplyFailpointOnLocalDiskLeavesTheBeforeOrTheAfterState() {
    assertThat(schemaApplyCells(local())).as("divergent cells").isEmpty();
  }

  private List<String> schemaApplyCells(Backend backend) {
    List<String> divergent = new ArrayList<>();
    record Cell(String failpoint, int hit) {}
    List<Cell> cells = new ArrayList<>(List.of(new Cell(null, 0), new Cell(Failpoints.SIDECAR_WRITE, 1),
        new Cell(Failpoints.SCHEMA_APPLY_POST_SIDECAR_PRE_EFFECT, 1)));
    for (int i = 1; i <= SCHEMA_APPLY3.tables(); i++) {
      cells.add(new Cell(Failpoints.SCHEMA_APPLY_POST_TABLE_EFFECT, i));
    }
    cells.addAll(List.of(new Cell(Failpoints.SIDECAR_CONFIRM, 1), new Cell(Failpoints.SCHEMA_APPLY_PRE_PUBLISH, 1),
        new Cell(Failpoints.PUBLISH_BEFORE, 1), new Cell(Failpoints.PUBLISH_AFTER, 1),
        new Cell(Failpoints.SCHEMA_APPLY_PRE_PROMOTE, 1), new Cell(Failpoints.SCHEMA_APPLY_MID_PROMOTE, 1),
        new Cell(Failpoints.SIDECAR_DELETE, 1)));
    for (Cell c : cells) {
      String label = SCHEMA_APPLY3.name() + " @ " + (c.failpoint() == null ? CONTROL : c.failpoint()
          + (c.failpoint().equals(Failpoints.SCHEMA_APPLY_POST_TABLE_EFFECT) ? "#" + c.hit() : ""));
      CellResult r = runCell(backend, SCHEMA_APPLY3, c.failpoint(), c.hit(), null);
      COVERED.incrementAndGet();
      String divergence = r.divergence();
      if (divergence == null) {
        // The accepted schema is the old one after "before" and the new one after "after", on a fresh open.
        try (Graph g = Omnigraph.open(lastUri, new OpenOptions(backend.options()))) {
          String wanted = r.outcome().startsWith("after") ? SCHEMA_APPLY_PG : SCHEMA;
          if (!g.schema().source().equals(wanted)) {
            divergence = "outcome " + r.outcome() + " but the accepted schema is " + g.schema().source();
          } else if (!r.outcome().startsWith("after")) {
            // Nothing is wedged: the interrupted apply can be applied again (no orphan table at a new path).
            try {
              g.applySchema(SCHEMA_APPLY_PG, io.omnigraph.api.SchemaApplyOptions.defaults());
            } catch (RuntimeException e) {
              divergence = "re-applying after the rollback failed: " + e;
            }
          }
        }
      }
      if (divergence != null) {
        divergent.add(backend.name() + " " + label + ": " + divergence);
        DIVERGENCES.add(backend.name() + " " + label + ": " + divergence);
      }
      synchronized (MATRIX) {
        MATRIX.computeIfAbsent(backend.name(), k -> new TreeMap<>()).put(label, r.outcome());
      }
    }
    return divergent;
  }

  /**
   * A crash of the recovery itself: a write halts at {@code writerFailpoint} (its {@code writerHit}-th
   * hit), then a read-write open halts inside its sweep at {@code recoveryFailpoint}.
   */
  record RecoveryCell(String writerFailpoint, int writerHit, String recoveryFailpoint) {}

  /** Every failpoint of the sweep, in each recovery path that passes it. */
  static final List<RecoveryCell> RECOVERY_CELLS = List.of(
      // Rollback: the write halted after its second table commit (two tables to restore).
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.SIDECAR_LIST),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.RECOVERY_POST_LIST_PRE_GATES),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.SIDECAR_POST_LIST_PRE_READ),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.RECOVERY_POST_RESTORE_PRE_PUBLISH),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.PUBLISH_BEFORE),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.PUBLISH_AFTER),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.RECOVERY_POST_ROLLBACK_PUBLISH_PRE_AUDIT),
      new RecoveryCell(Failpoints.TABLE_COMMIT_AFTER, 2, Failpoints.AUDIT_APPEND),
      // Roll forward: the write halted after confirming its sidecar, before publishing.
      new RecoveryCell(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, 1, Failpoints.RECOVERY_POST_LIST_PRE_GATES),
      new RecoveryCell(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, 1, Failpoints.RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH),
      new RecoveryCell(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, 1, Failpoints.PUBLISH_BEFORE),
      new RecoveryCell(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, 1, Failpoints.PUBLISH_AFTER),
      new RecoveryCell(Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, 1, Failpoints.AUDIT_APPEND),
      // Finalize: the write published and halted before deleting its sidecar.
      new RecoveryCell(Failpoints.SIDECAR_DELETE, 1, Failpoints.AUDIT_APPEND));

  @Test
  void aCrashInsideRecoveryIsRepairedByTheNextOpenWithExactlyOneAuditRow() {
    Backend local = local();
    List<String> divergent = new ArrayList<>();
    for (RecoveryCell rc : RECOVERY_CELLS) {
      String label = "recovery: " + MERGE3.name() + " @ " + rc.writerFailpoint()
          + (PER_TABLE.contains(rc.writerFailpoint()) ? "#" + rc.writerHit() : "") + ", open @ " + rc.recoveryFailpoint();
      CellResult r = runCell(local, MERGE3, rc.writerFailpoint(), rc.writerHit(), rc.recoveryFailpoint());
      COVERED.incrementAndGet();
      if (r.divergence() != null) {
        divergent.add(local.name() + " " + label + ": " + r.divergence());
        DIVERGENCES.add(local.name() + " " + label + ": " + r.divergence());
      }
      synchronized (MATRIX) {
        MATRIX.computeIfAbsent(local.name(), k -> new TreeMap<>()).put(label, r.outcome());
      }
    }
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  private Backend local() {
    AtomicInteger n = new AtomicInteger();
    return new Backend() {
      public String name() {
        return "local";
      }

      public String freshUri() {
        return tmp.resolve("g" + n.incrementAndGet()).toString();
      }

      public Map<String, String> options() {
        return Map.of();
      }
    };
  }

  /**
   * Automatic maintenance after a 3-table merge load (children at threshold 2, so all three tables
   * and {@code __manifest} are due): the load is always published ("after"); the maintenance commit
   * is on top exactly when the halt came after a table effect (published by the child or rolled
   * forward by the reopen), and absent when it came before.
   */
  @Test
  void everyAutomaticMaintenanceFailpointOnLocalDiskKeepsTheWriteAndRecoversTheMaintenance() {
    assertThat(maintenanceCells(local())).as("divergent cells").isEmpty();
  }

  @Test
  void everyAutomaticMaintenanceFailpointOnTheS3EmulatorKeepsTheWriteAndRecoversTheMaintenance() {
    assertThat(maintenanceCells(s3())).as("divergent cells").isEmpty();
  }

  private List<String> maintenanceCells(Backend backend) {
    record Cell(String failpoint, int hit, boolean maintained) {}
    List<Cell> cells = new ArrayList<>(List.of(new Cell(null, 0, true),
        new Cell(Failpoints.MAINTENANCE_POST_WRITE, 1, false), new Cell(Failpoints.SIDECAR_WRITE, 2, false),
        new Cell(Failpoints.OPTIMIZE_POST_SIDECAR_PRE_EFFECT, 1, false)));
    for (int i = 1; i <= MERGE3.tables(); i++) {
      cells.add(new Cell(Failpoints.OPTIMIZE_POST_TABLE_EFFECT, i, true));
    }
    cells.addAll(List.of(new Cell(Failpoints.OPTIMIZE_PRE_PUBLISH, 1, true), new Cell(Failpoints.PUBLISH_BEFORE, 2, true),
        new Cell(Failpoints.PUBLISH_AFTER, 2, true), new Cell(Failpoints.OPTIMIZE_POST_PUBLISH_PRE_RETIRE, 1, true),
        new Cell(Failpoints.SIDECAR_DELETE, 2, true)));
    List<String> divergent = new ArrayList<>();
    childMaintenance = "2";
    try {
      for (Cell c : cells) {
        String label = "maintenance after " + MERGE3.name() + " @ " + (c.failpoint() == null ? CONTROL
            : c.failpoint() + "#" + c.hit());
        CellResult r = runCell(backend, MERGE3, c.failpoint(), c.hit(), null, "after");
        COVERED.incrementAndGet();
        String divergence = r.divergence();
        if (divergence == null && (lastMaintenanceCommits == 1) != c.maintained()) {
          divergence = "expected " + (c.maintained() ? "one" : "no") + " maintenance commit, found "
              + lastMaintenanceCommits;
        }
        if (divergence != null) {
          divergent.add(backend.name() + " " + label + ": " + divergence);
          DIVERGENCES.add(backend.name() + " " + label + ": " + divergence);
        }
        synchronized (MATRIX) {
          MATRIX.computeIfAbsent(backend.name(), k -> new TreeMap<>()).put(label, r.outcome()
              + (lastMaintenanceCommits > 0 ? " + maintenance" : ""));
        }
      }
    } finally {
      childMaintenance = null;
    }
    return divergent;
  }

  /** The S3 emulator: every cell gets a fresh bucket. */
  static Backend s3() {
    S3ProxyServer server = S3.server();
    Map<String, String> options = S3AdapterOptions.forEmulator(server.endpoint());
    return new Backend() {
      public String name() {
        return "s3";
      }

      public String freshUri() {
        return "s3://" + server.createBucket() + "/graphs/g";
      }

      public Map<String, String> options() {
        return options;
      }
    };
  }

  @Test
  void everyWritePathFailpointOnTheS3EmulatorLeavesTheBeforeOrTheAfterState() {
    Backend s3 = s3();
    // Every load failpoint (the 3-table merge) and every mutation failpoint (the node delete passes
    // all of the effect path plus the node-delete point; the empty mutation the no-effect point).
    List<String> divergent = new ArrayList<>();
    for (Writer w : List.of(MERGE3, FIRE2, NOBODY)) {
      divergent.addAll(runWriter(s3, w));
    }
    assertThat(divergent).as("divergent cells").isEmpty();
  }

  @AfterAll
  static void printMatrix() {
    StringBuilder b = new StringBuilder("\nCrash matrix (failpoint x backend -> outcome); cells run: " + COVERED.get()
        + "\n");
    java.util.TreeSet<String> labels = new java.util.TreeSet<>();
    MATRIX.values().forEach(m -> labels.addAll(m.keySet()));
    int width = labels.stream().mapToInt(String::length).max().orElse(10);
    b.append(String.format("%-" + width + "s", "cell"));
    MATRIX.keySet().forEach(k -> b.append(" | ").append(String.format("%-32s", k)));
    b.append('\n');
    for (String l : labels) {
      b.append(String.format("%-" + width + "s", l));
      for (Map<String, String> col : MATRIX.values()) {
        b.append(" | ").append(String.format("%-32s", col.getOrDefault(l, "-")));
      }
      b.append('\n');
    }
    if (!DIVERGENCES.isEmpty()) {
      b.append("Divergences:\n");
      DIVERGENCES.forEach(d -> b.append("  ").append(d).append('\n'));
    }
    System.out.println(b);
  }

  private List<String> runWriter(Backend backend, Writer w) {
    Set<String> placed = placedFailpoints();
    List<String> divergent = new ArrayList<>();
    record Cell(String failpoint, int hit) {}
    List<Cell> cells = new ArrayList<>();
    cells.add(new Cell(null, 0));
    for (String f : w.ownFailpoints()) {
      cells.add(new Cell(f, 1));
    }
    for (String f : w.tables() == 0 ? List.<String>of() : WRITE_PATH) {
      if (PER_TABLE.contains(f)) {
        for (int i = 1; i <= w.tables(); i++) {
          cells.add(new Cell(f, i));
        }
      } else {
        cells.add(new Cell(f, 1));
      }
    }
    for (Cell c : cells) {
      String label = w.name() + " @ " + (c.failpoint() == null ? CONTROL
          : c.failpoint() + (PER_TABLE.contains(c.failpoint()) ? "#" + c.hit() : ""));
      String outcome;
      if (c.failpoint() != null && !placed.contains(c.failpoint())) {
        outcome = "not placed";
      } else {
        CellResult r = runCell(backend, w, c.failpoint(), c.hit(), null);
        COVERED.incrementAndGet();
        outcome = r.outcome();
        if (r.divergence() != null) {
          divergent.add(backend.name() + " " + label + ": " + r.divergence());
          DIVERGENCES.add(backend.name() + " " + label + ": " + r.divergence());
        }
      }
      synchronized (MATRIX) {
        MATRIX.computeIfAbsent(backend.name(), k -> new TreeMap<>()).put(label, outcome);
      }
    }
    return divergent;
  }

  record CellResult(String outcome, String divergence) {}

  /** The root of the cell {@link #runCell} ran last. */
  private String lastUri;
  /** Automatic maintenance commits on top of the write in the cell {@link #runCell} ran last. */
  private int lastMaintenanceCommits;
  /** The child's {@link io.omnigraph.api.MaintenancePolicy#PROPERTY}, or {@code null} for the default. */
  private String childMaintenance;

  /**
   * Runs one cell: the write in a child JVM halting at {@code failpoint} (its {@code hit}-th hit);
   * then, when {@code recoveryFailpoint} is set, a read-write open in a second child JVM that halts
   * inside its recovery sweep there; then the checks on a reopen in this JVM.
   */
  private CellResult runCell(Backend backend, Writer w, String failpoint, int hit, String recoveryFailpoint) {
    return runCell(backend, w, failpoint, hit, recoveryFailpoint, null);
  }

  /** {@link #runCell(Backend, Writer, String, int, String)} expecting {@code expectedOutcome} when it is not {@code null}. */
  private CellResult runCell(Backend backend, Writer w, String failpoint, int hit, String recoveryFailpoint,
      String expectedOutcome) {
    String uri = backend.freshUri();
    lastUri = uri;
    OpenOptions open = new OpenOptions(backend.options());
    GraphModel before;
    List<String> beforeCommits;
    try (Graph g = Omnigraph.init(uri, SCHEMA, open)) {
      load(g, LoadMode.OVERWRITE, BASE);
      if (w == OPTIMIZE3) {
        load(g, LoadMode.MERGE, OPTIMIZE_SETUP); // a second fragment in every table, for compaction to merge
      }
      before = GraphModel.fromExport(KEYS, export(g));
      beforeCommits = commitIds(g);
    }
    GraphModel after = w.effect().apply(before.copy());
    Path input = inputFile(tmp, w.input());
    List<String> args = new ArrayList<>();
    args.add(uri);
    backend.options().forEach((k, v) -> {
      args.add("--option");
      args.add(k + "=" + v);
    });
    args.addAll(w.childArgs(input));
    Map<String, String> props = new java.util.HashMap<>();
    if (failpoint != null) {
      props.put(Failpoints.SYSTEM_PROPERTY, failpoint + "=halt@" + hit);
    }
    if (childMaintenance != null) {
      props.put(io.omnigraph.api.MaintenancePolicy.PROPERTY, childMaintenance);
    }
    ChildJvm.Result child;
    try (ChildJvm.Running r = CrashWriter.child(props, args).startLogged(tmp.resolve("children"))) {
      child = r.await(5, java.util.concurrent.TimeUnit.MINUTES);
    }
    int expectedExit = failpoint == null ? 0 : Failpoints.HALT_STATUS;
    if (child.exitCode() != expectedExit) {
      return new CellResult("exit " + child.exitCode(), "child exited " + child.exitCode() + ", expected "
          + expectedExit + " (" + (failpoint == null ? "a clean write" : "a halt at the failpoint") + "):\n"
          + child.output());
    }
    if (failpoint != null && !child.output().contains(Failpoints.HALT_MARKER + failpoint)) {
      return new CellResult("no marker", "child halted without the halt marker of " + failpoint + ":\n" + child.output());
    }
    if (recoveryFailpoint != null) {
      List<String> openArgs = new ArrayList<>(args.subList(0, args.size() - w.childArgs(input).size()));
      openArgs.add("open");
      ChildJvm.Result recovering = CrashWriter.child(Map.of(Failpoints.SYSTEM_PROPERTY, recoveryFailpoint + "=halt@1"),
          openArgs).runLogged(tmp.resolve("children"));
      if (recovering.exitCode() != Failpoints.HALT_STATUS
          || !recovering.output().contains(Failpoints.HALT_MARKER + recoveryFailpoint)) {
        return new CellResult("recovery not halted", "the recovering open exited " + recovering.exitCode()
            + " without halting at " + recoveryFailpoint + ":\n" + recovering.output());
      }
    }
    String outcome;
    GraphModel state;
    try (Graph g = Omnigraph.open(uri, open)) {
      GraphModel actual = GraphModel.fromExport(KEYS, export(g));
      List<String> commits = commitIds(g);
      // Automatic maintenance commits on top (rows unchanged) and their audit rows are set aside.
      List<io.omnigraph.api.CommitInfo> infos = g.commits();
      int maintained = 0;
      while (maintained < infos.size() && io.omnigraph.api.MaintenancePolicy.COMMIT_MESSAGE.equals(
          infos.get(maintained).message()) && !beforeCommits.contains(infos.get(maintained).id())) {
        maintained++;
      }
      java.util.Set<String> maintenanceIds = new java.util.HashSet<>(commits.subList(0, maintained));
      lastMaintenanceCommits = maintained;
      commits = commits.subList(maintained, commits.size());
      String headActor = infos.get(maintained).actor();
      boolean oneMore = commits.size() == beforeCommits.size() + 1
          && commits.subList(1, commits.size()).equals(beforeCommits);
      List<io.omnigraph.api.RecoveryRecord> audit = g.recoveries().stream()
          .filter(r -> !maintenanceIds.contains(r.graphCommitId())).toList();
      if (w.same(actual, before) && commits.equals(beforeCommits) && audit.isEmpty()) {
        outcome = "before";
        state = before;
      } else if (w.same(actual, before) && oneMore && audit.size() == 1 && audit.get(0).kind().equals("RolledBack")
          && audit.get(0).graphCommitId().equals(commits.get(0))
          && "omnigraph:recovery".equals(headActor)) {
        // A rollback publishes the restored heads as one commit by the recovery actor, and audits it.
        outcome = ROLLED_BACK;
        state = before;
      } else if (w.same(actual, after) && oneMore && audit.size() <= 1) {
        outcome = audit.isEmpty() ? "after" : "after (" + audit.get(0).kind() + ")";
        if (!audit.isEmpty() && !(audit.get(0).kind().equals("RolledForward")
            && audit.get(0).graphCommitId().equals(commits.get(0)))) {
          return new CellResult("DIVERGED", "after state with an unexpected audit row " + audit.get(0));
        }
        state = after;
      } else {
        return new CellResult("DIVERGED", "reopened graph is neither before nor after: vs before [" + before.diff(actual)
            + "] vs after [" + after.diff(actual) + "], commits " + commits + " (before " + beforeCommits + ")");
      }
      // A writer without effects never commits: its every cell, the control included, is "before".
      String wanted = expectedOutcome != null ? expectedOutcome : w.tables() == 0 ? "before"
          : w == SCHEMA_APPLY3 ? expectedSchemaApplyOutcome(failpoint) : expectedOutcome(failpoint, hit);
      if (!outcome.equals(wanted)) {
        return new CellResult(outcome, "expected " + wanted + " (state and audit row), got " + outcome
            + "; audit " + audit);
      }
      List<String> sidecars = sidecars(uri, backend.options());
      if (!sidecars.isEmpty()) {
        return new CellResult(outcome + ", sidecars left", "sidecars left after reopen: " + sidecars);
      }
      // Nothing is wedged: the next write succeeds and lands exactly on the recovered state.
      String followUp = FOLLOW_UP;
      try {
        load(g, LoadMode.MERGE, followUp);
      } catch (RuntimeException e) {
        return new CellResult(outcome, "the next write failed: " + e);
      }
      GraphModel expected = state.copy().apply(LoadMode.MERGE, followUp);
      GraphModel now = GraphModel.fromExport(KEYS, export(g));
      if (!w.same(now, expected)) {
        return new CellResult(outcome + ", next write diverged", "after the next write: " + expected.diff(now));
      }
    }
    return new CellResult(outcome, null);
  }

  /** Failpoints that some production call site passes (the rest cannot fire yet). */
  static Set<String> placedFailpoints() {
    return io.omnigraph.engine.failpoint.FailpointCallSites.placedNames();
  }
}
