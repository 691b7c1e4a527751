package io.omnigraph.engine.failpoint;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.StorageFailureException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named failpoints at every external effect of a write (table commit, manifest publish, sidecar
 * put/delete/list, audit append, recovery steps), so tests can fail, halt or delay the engine at
 * an exact point — in this JVM ({@link #arm}) or in a child JVM started with
 * {@code -Domnigraph.failpoints=<spec>} ({@link #SYSTEM_PROPERTY}).
 *
 * <p>Names are the reference implementation's (docs/failpoints.md, "Every failpoint") where this
 * engine has the
 * same point; call sites pass the constants below, never a literal (a guard test enforces it), and
 * {@link #NAMES} is the closed set a spec may name.
 *
 * <p>Cost when nothing is armed: {@link #hit} is one volatile read of a {@code null} field. Arming
 * is process-wide; tests that arm from code close the returned {@link Armed} (try-with-resources).
 *
 * <p>System-property spec: comma-separated {@code name=action[@n]}, where {@code action} is
 * {@code error}, {@code halt}, {@code halt:<status>} or {@code delay:<millis>}, and {@code @n}
 * fires on the n-th hit only (1-based; default: every hit). Example:
 * {@code -Domnigraph.failpoints=mutation.post_table_commit=halt@2,recovery.sidecar_delete=error}.
 * An unknown name or malformed entry fails class initialization, so a typo can never silently
 * disarm a crash test.
 */
public final class Failpoints {
  /** The system property a child JVM reads once, when this class initializes. */
  public static final String SYSTEM_PROPERTY = "omnigraph.failpoints";
  /** Exit status of {@link FailAction#halt()}, so a parent can tell a failpoint halt from any other exit. */
  public static final int HALT_STATUS = 86;
  /** Printed (and flushed) to stderr right before a halt: {@code HALT_MARKER + name}. */
  public static final String HALT_MARKER = "omnigraph failpoint halt: ";

  // ---- Write path (load and mutation, the shared write seam) --------------------------------

  /** After every table is staged, before any durable effect (before the Phase A sidecar). */
  public static final String WRITE_POST_STAGE_PRE_EFFECT = "mutation.post_stage_pre_effect_gate";
  /** A mutation that matched nothing: after planning, before returning without an effect. */
  public static final String WRITE_POST_NO_EFFECT = "mutation.post_no_effect_pre_gate";
  /** A node delete, after its rows are matched and before the primary table's delete (and cascade) is staged. */
  public static final String WRITE_DELETE_NODE_PRE_PRIMARY_DELETE = "mutation.delete_node_pre_primary_delete";
  /**
   * After the Phase A sidecar is durable, before the first-touch forks of a branch write (the
   * sidecar names them; none exists yet) and before the first table commit.
   */
  public static final String WRITE_POST_SIDECAR_PRE_COMMIT = "mutation.post_sidecar_pre_fork";
  /** Before each table's staged transaction is committed (fires once per table, in commit order). */
  public static final String TABLE_COMMIT_BEFORE = "mutation.post_fork_pre_commit";
  /** After each table's staged transaction is committed (fires once per table, in commit order). */
  public static final String TABLE_COMMIT_AFTER = "mutation.post_table_commit";
  /** After every table commit (and the sidecar confirmation), before the manifest publish. */
  public static final String WRITE_POST_FINALIZE_PRE_PUBLISH = "mutation.post_finalize_pre_publisher";

  // ---- Manifest publisher -----------------------------------------------------------------

  /** In each publish attempt, after the scan and checks, before the {@code __manifest} merge. */
  public static final String PUBLISH_BEFORE = "graph_publish.before_commit_append";
  /**
   * On the second thread that writes a publish's files ahead (write/PublishAhead), before it writes
   * them; a failure here fails only the writing ahead (the publish writes its own files).
   */
  public static final String PUBLISH_WRITE_AHEAD = "graph_publish.write_ahead";
  /** After the {@code __manifest} merge landed (the graph commit is visible), before returning. */
  public static final String PUBLISH_AFTER = "graph_publish.after_manifest_commit";

  // ---- Recovery sidecars, sweep and audit ------------------------------------------------------

  /** Before the Phase A sidecar put ({@code __recovery/<id>.json}). */
  public static final String SIDECAR_WRITE = "recovery.sidecar_write";
  /** Before the sidecar is rewritten as confirmed (effects achieved). */
  public static final String SIDECAR_CONFIRM = "recovery.sidecar_confirm";
  /** Before the Phase D sidecar delete. */
  public static final String SIDECAR_DELETE = "recovery.sidecar_delete";
  /** Before {@code __recovery/} is listed (sweep and write-entry heal). */
  public static final String SIDECAR_LIST = "recovery.sidecar_list";
  /** After a non-empty listing, before the first sidecar body is read. */
  public static final String SIDECAR_POST_LIST_PRE_READ = "recovery.post_sidecar_list_pre_read";
  /** In the write-entry heal, after a non-empty listing, before the sidecars are processed. */
  public static final String RECOVERY_POST_LIST_PRE_GATES = "recovery.post_list_pre_gates";
  /** Before a roll-forward publishes the sidecar's confirmed effects. */
  public static final String RECOVERY_BEFORE_ROLL_FORWARD_PUBLISH = "recovery.before_roll_forward_publish";
  /** After a rollback restored the drifted tables, before it publishes them. */
  public static final String RECOVERY_POST_RESTORE_PRE_PUBLISH = "recovery.post_table_restore_pre_publish";
  /** After a rollback published, before its audit row is appended. */
  public static final String RECOVERY_POST_ROLLBACK_PUBLISH_PRE_AUDIT = "recovery.post_rollback_publish_pre_audit";
  /** Before a recovery appends its row to {@code _graph_commit_recoveries}. */
  public static final String AUDIT_APPEND = "recovery.record_audit";

  /** Branch create, inside the effect window, right before the native Lance branch create. */
  public static final String BRANCH_CREATE_PRE_NATIVE = "branch_create.pre_native";
  /** Branch create, after the native Lance branch exists. */
  public static final String BRANCH_CREATE_POST_NATIVE = "branch_create.post_native";
  /** Branch delete, inside the effect window, right before the native Lance branch delete. */
  public static final String BRANCH_DELETE_PRE_NATIVE = "branch_delete.pre_native";
  /** Branch delete, after the native Lance branch is gone, before its tree is reclaimed. */
  public static final String BRANCH_DELETE_POST_NATIVE = "branch_delete.post_native";

  /** A lazy table fork on a branch, inside the effect window, after any leftover was reclaimed, before the native ref create. */
  public static final String TABLE_FORK_PRE_NATIVE = "table_fork.pre_native";
  /** A lazy table fork, after the native ref exists, before any write staged on it or published it. */
  public static final String TABLE_FORK_POST_NATIVE = "table_fork.post_native";

  /** Optimize, inside the effect window, after its Optimize sidecar is armed, before the first table effect. */
  public static final String OPTIMIZE_POST_SIDECAR_PRE_EFFECT = "optimize.post_sidecar_pre_effect";
  /** Optimize, after one table was compacted, its indexes folded and missing ones built (once per table). */
  public static final String OPTIMIZE_POST_TABLE_EFFECT = "optimize.post_table_effect";
  /** Optimize, after every table effect, before the one publish. */
  public static final String OPTIMIZE_PRE_PUBLISH = "optimize.pre_publish";
  /** Optimize, after the publish, before the sidecar is retired. */
  public static final String OPTIMIZE_POST_PUBLISH_PRE_RETIRE = "optimize.post_publish_pre_retire";
  /** Automatic maintenance: the write is published and its window closed; the bounded optimize has not started. */
  public static final String MAINTENANCE_POST_WRITE = "maintenance.post_write_pre_optimize";

  /** Schema apply, inside the effect window, after its sidecar is armed, before the first table effect. */
  public static final String SCHEMA_APPLY_POST_SIDECAR_PRE_EFFECT = "schema_apply.post_sidecar_pre_effect";
  /** Schema apply, after one table was rewritten or created (once per table). */
  public static final String SCHEMA_APPLY_POST_TABLE_EFFECT = "schema_apply.post_table_effect";
  /** Schema apply, after every table effect and the confirmation, before the publish. */
  public static final String SCHEMA_APPLY_PRE_PUBLISH = "schema_apply.pre_publish";
  /** Schema apply, after the publish, before the first schema file is promoted. */
  public static final String SCHEMA_APPLY_PRE_PROMOTE = "schema_apply.pre_promote";
  /** Schema apply, between promoting the source and the IR/state files. */
  public static final String SCHEMA_APPLY_MID_PROMOTE = "schema_apply.mid_promote";
  /** Branch merge, after planning and staging checks, before its BranchMerge sidecar is armed. */
  public static final String MERGE_BEFORE_ARM = "branch_merge.before_arm";
  /** Branch merge, right after its sidecar is armed, before the first chunk commit. */
  public static final String MERGE_AFTER_ARM = "branch_merge.after_arm";
  /** Branch merge, after each chunk transaction landed (once per chunk, over all tables). */
  public static final String MERGE_AFTER_CHUNK_COMMIT = "branch_merge.after_chunk_commit";
  /** Branch merge, after the sidecar was confirmed, before the publish. */
  public static final String MERGE_AFTER_CONFIRM = "branch_merge.after_confirm";
  /** Branch merge, right before the one publish. */
  public static final String MERGE_BEFORE_PUBLISH = "branch_merge.before_publish";
  /** Branch merge, after the publish, before the sidecar is retired. */
  public static final String MERGE_AFTER_PUBLISH = "branch_merge.after_publish";
  /** Merge recovery, after one table's compensating restore, before the rollback publish. */
  public static final String MERGE_RECOVERY_AFTER_RESTORE = "branch_merge.recovery_after_restore";

  /** Every failpoint name, in declaration order (the values of the {@code String} constants above). */
  public static final List<String> NAMES = declaredNames();

  /** The armed set; {@code null} when nothing is armed, so {@link #hit} costs one volatile read. */
  private static volatile Map<String, Armed> armed;

  static {
    String spec = System.getProperty(SYSTEM_PROPERTY);
    if (spec != null && !spec.isBlank()) {
      for (Map.Entry<String, Trigger> e : parse(spec).entrySet()) {
        arm(e.getKey(), e.getValue().action(), e.getValue().onHit());
      }
    }
  }

  private Failpoints() {}

  /**
   * Passes the failpoint {@code name}: does nothing unless it is armed, else counts the hit and
   * runs the action when the hit is the one it is armed for.
   *
   * @param name one of the constants of this class
   * @throws StorageFailureException when the action is {@link FailAction.Error}
   */
  public static void hit(String name) {
    Map<String, Armed> current = armed;
    if (current == null) {
      return;
    }
    Armed a = current.get(name);
    if (a != null) {
      a.fire();
    }
  }

  /**
   * Arms {@code name} to run {@code action} on every hit, replacing any earlier arming of it.
   *
   * @param name one of {@link #NAMES}
   * @param action what to do
   * @return the handle; {@link Armed#close()} disarms
   * @throws IllegalArgumentException for an unknown name
   */
  public static Armed arm(String name, FailAction action) {
    return arm(name, action, 0);
  }

  /**
   * Arms {@code name} to run {@code action} on its {@code onHit}-th hit only (1-based), or on every
   * hit when {@code onHit} is 0; replaces any earlier arming of it.
   *
   * @param name one of {@link #NAMES}
   * @param action what to do
   * @param onHit the hit to fire on, or 0 for every hit
   * @return the handle; {@link Armed#close()} disarms
   * @throws IllegalArgumentException for an unknown name or a negative {@code onHit}
   */
  public static synchronized Armed arm(String name, FailAction action, int onHit) {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown failpoint '" + name + "'; known: " + NAMES);
    }
    if (onHit < 0) {
      throw new IllegalArgumentException("onHit must be >= 0, got " + onHit);
    }
    Armed a = new Armed(name, java.util.Objects.requireNonNull(action, "action"), onHit);
    Map<String, Armed> next = armed == null ? new HashMap<>() : new HashMap<>(armed);
    next.put(name, a);
    armed = Collections.unmodifiableMap(next);
    return a;
  }

  /** Disarms every failpoint (for test cleanup). */
  public static synchronized void disarmAll() {
    armed = null;
  }

  /** @return the names armed right now */
  public static List<String> armedNames() {
    Map<String, Armed> current = armed;
    return current == null ? List.of() : List.copyOf(new java.util.TreeSet<>(current.keySet()));
  }

  private static synchronized void disarm(Armed a) {
    if (armed != null && armed.get(a.name) == a) {
      Map<String, Armed> next = new HashMap<>(armed);
      next.remove(a.name);
      armed = next.isEmpty() ? null : Collections.unmodifiableMap(next);
    }
  }

  /**
   * @param failure any throwable
   * @return the failpoint whose {@link FailAction.Error} caused {@code failure} (searching its cause
   *     chain), or empty when it was not injected
   */
  public static Optional<String> injectedBy(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof FailAction.InjectedFailure f) {
        return Optional.of(f.failpoint());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }

  /** The failure {@link FailAction.Error} throws at {@code name}. */
  static StorageFailureException injectedFailure(String name) {
    FailAction.InjectedFailure cause = new FailAction.InjectedFailure(name);
    return new StorageFailureException(cause.getMessage(),
        new ErrorDetail.Storage(FailAction.Error.STORAGE_KIND, null), cause);
  }

  /** One armed failpoint. Closing it disarms it (if it is still the current arming of its name). */
  public static final class Armed implements AutoCloseable {
    private final String name;
    private final FailAction action;
    private final int onHit;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger fired = new AtomicInteger();

    private Armed(String name, FailAction action, int onHit) {
      this.name = name;
      this.action = action;
      this.onHit = onHit;
    }

    /** @return the failpoint's name */
    public String name() {
      return name;
    }

    /** @return how often the failpoint was passed while armed */
    public int hits() {
      return hits.get();
    }

    /** @return how often the action ran */
    public int fired() {
      return fired.get();
    }

    private void fire() {
      int n = hits.incrementAndGet();
      if (onHit != 0 && n != onHit) {
        return;
      }
      fired.incrementAndGet();
      if (action instanceof FailAction.Error) {
        throw injectedFailure(name);
      } else if (action instanceof FailAction.Halt h) {
        System.err.println(HALT_MARKER + name);
        System.err.flush();
        System.out.flush();
        Runtime.getRuntime().halt(h.status());
      } else if (action instanceof FailAction.Delay d) {
        sleep(d.duration());
      } else if (action instanceof FailAction.Call c) {
        c.action().run();
      } else {
        throw new IllegalStateException("unhandled failpoint action " + action);
      }
    }

    @Override
    public void close() {
      disarm(this);
    }

    @Override
    public String toString() {
      return name + "=" + action + (onHit == 0 ? "" : "@" + onHit);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted in a failpoint delay", e);
    }
  }

  /** A parsed spec entry. */
  record Trigger(FailAction action, int onHit) {}

  /**
   * Parses a system-property spec (see the class comment).
   *
   * @param spec the text
   * @return name → trigger, in spec order
   * @throws IllegalArgumentException naming the bad entry
   */
  static Map<String, Trigger> parse(String spec) {
    Map<String, Trigger> out = new java.util.LinkedHashMap<>();
    for (String raw : spec.split(",")) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw bad(entry, "expected name=action");
      }
      String name = entry.substring(0, eq).trim();
      if (!NAMES.contains(name)) {
        throw bad(entry, "unknown failpoint '" + name + "'; known: " + NAMES);
      }
      String rest = entry.substring(eq + 1).trim();
      int onHit = 0;
      int at = rest.indexOf('@');
      if (at >= 0) {
        onHit = positive(entry, rest.substring(at + 1));
        rest = rest.substring(0, at).trim();
      }
      int colon = rest.indexOf(':');
      String verb = colon < 0 ? rest : rest.substring(0, colon);
      String arg = colon < 0 ? null : rest.substring(colon + 1);
      FailAction action = switch (verb) {
        case "error" -> {
          noArg(entry, arg);
          yield FailAction.error();
        }
        case "halt" -> arg == null ? FailAction.halt() : new FailAction.Halt(positive(entry, arg));
        case "delay" -> {
          if (arg == null) {
            throw bad(entry, "delay needs milliseconds, e.g. delay:200");
          }
          yield FailAction.delay(Duration.ofMillis(positive(entry, arg)));
        }
        default -> throw bad(entry, "unknown action '" + verb + "' (error, halt[:status], delay:<ms>)");
      };
      if (out.put(name, new Trigger(action, onHit)) != null) {
        throw bad(entry, "failpoint named twice");
      }
    }
    return out;
  }

  private static void noArg(String entry, String arg) {
    if (arg != null) {
      throw bad(entry, "error takes no argument");
    }
  }

  private static int positive(String entry, String text) {
    try {
      int v = Integer.parseInt(text.trim());
      if (v <= 0) {
        throw bad(entry, "expected a positive number, got " + text);
      }
      return v;
    } catch (NumberFormatException e) {
      throw bad(entry, "expected a number, got '" + text + "'");
    }
  }

  private static IllegalArgumentException bad(String entry, String why) {
    return new IllegalArgumentException("bad " + SYSTEM_PROPERTY + " entry '" + entry + "': " + why);
  }

  private static List<String> declaredNames() {
    List<String> names = new ArrayList<>();
    for (Field f : Failpoints.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isStatic(m) && Modifier.isFinal(m) && Modifier.isPublic(m) && f.getType() == String.class
          && !f.getName().equals("SYSTEM_PROPERTY") && !f.getName().equals("HALT_MARKER")) {
        try {
          names.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    if (names.size() != new java.util.HashSet<>(names).size()) {
      throw new IllegalStateException("duplicate failpoint name in " + names);
    }
    return List.copyOf(names);
  }
}
