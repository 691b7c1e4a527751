package io.omnigraph.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.engine.storage.GraphRoot;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The graph's cross-process effect lease: while a writer holds it, no other writer that follows the
 * protocol commits to the graph's tables or publishes. It exists because Lance rebases a
 * concurrent insertion (Append, or an insertion-only Update) past another one even with zero
 * commit retries: without mutual exclusion of the effect window, two processes preparing against
 * the same table version would both land, and the loser's commit would sit unpublished on the
 * table's HEAD. The manifest compare-and-set stays the visibility fence; the lease keeps physical
 * effects from racing.
 *
 * <p>The lease is one control file, {@value #PATH}, changed only with conditional puts: a writer
 * takes it when it is absent ({@code IfAbsent}) or when the current holder has released it or let it
 * expire ({@code IfMatch} on the version it read), and releases it with {@code IfMatch} on the
 * version it wrote. Of several writers racing for it, exactly one wins the conditional put. A
 * crashed holder's lease expires after its time to live, or at once when the holder was a process
 * on this machine that no longer exists; a holder whose lease has expired before its effects start
 * must not start them ({@link Held#checkValid()}).
 *
 * <p>Its puts are not made durable against power loss ({@link GraphRoot#putIfNonDurable}): after a
 * power failure no process holds anything, so a lease that comes back older, or not at all, harms
 * nothing, and one cut short (unreadable) is treated as free. Between live processes the puts are
 * as atomic and conditional as any other.
 *
 * <p>The lease is held only for the effect window (revalidate, commit, publish); preparation and
 * validation run outside it, which is what optimistic concurrency protects. Object-store cost per
 * write: one conditional PUT to acquire when this writer released the lease last (IfMatch on the
 * version it released), else one GET and one conditional PUT; one conditional PUT to release.
 */
public final class WriteLease {
  /** The lease file, relative to the graph root. */
  public static final String PATH = "__write_lease.json";
  /** Default time to live of a held lease. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);
  /** Default time a writer waits for another holder before giving up. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(120);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final GraphRoot root;
  private final Duration ttl;
  private final Duration wait;
  private final LongSupplier clockMillis;
  /**
   * The version of the lease file this writer wrote when it last released the lease, or
   * {@code null}. While the file still has that version it is a released lease, so the next acquire
   * first tries one conditional put on it and skips the read.
   */
  private volatile String lastReleased;

  /** A lease on {@code root} with the default time to live and wait. */
  public WriteLease(GraphRoot root) {
    this(root, DEFAULT_TTL, DEFAULT_WAIT, System::currentTimeMillis);
  }

  /**
   * @param root the graph root holding the lease file
   * @param ttl how long a held lease stays valid without being released
   * @param wait how long {@link #acquire} waits for another holder
   * @param clockMillis wall clock in epoch milliseconds (expiry is compared across processes)
   */
  public WriteLease(GraphRoot root, Duration ttl, Duration wait, LongSupplier clockMillis) {
    this.root = Objects.requireNonNull(root);
    this.ttl = Objects.requireNonNull(ttl);
    this.wait = Objects.requireNonNull(wait);
    this.clockMillis = Objects.requireNonNull(clockMillis);
  }

  /**
   * Takes the lease, waiting while another writer holds a live one.
   *
   * @param operation names the writer in the lease file (diagnostics only)
   * @return the held lease; release it with {@link Held#close()}
   * @throws ConflictException another writer held the lease for longer than the wait
   */
  public Held acquire(String operation) {
    String owner = UUID.randomUUID().toString();
    long deadline = System.nanoTime() + wait.toNanos();
    long sleepMillis = 1;
    String lastHolder = null;
    String released = lastReleased;
    if (released != null) {
      // IfMatch on the version this writer released: it succeeds only if nobody took the lease since.
      long now = clockMillis.getAsLong();
      Optional<String> version = root.putIfNonDurable(PATH, render(owner, operation, now + ttl.toMillis(), false),
          WriteCondition.ifMatch(released));
      if (version.isPresent()) {
        return new Held(owner, operation, version.get(), now + ttl.toMillis());
      }
    }
    while (true) {
      long now = clockMillis.getAsLong();
      String text = render(owner, operation, now + ttl.toMillis(), false);
      Optional<StoredObject> current = root.readObject(PATH);
      Optional<String> version;
      if (current.isEmpty()) {
        version = root.putIfNonDurable(PATH, text, WriteCondition.ifAbsent());
      } else {
        Optional<JsonNode> parsed = parse(current.get().text());
        JsonNode held = parsed.orElse(null);
        lastHolder = held == null ? "unreadable lease" : held.path("operation").asText("?");
        // An unreadable lease is one a power failure cut short (live writers replace it atomically):
        // nobody holds it.
        boolean free = held == null || held.path("released").asBoolean(false)
            || held.path("expires_at_ms").asLong(0) <= now || holderIsDeadOnThisHost(held);
        version = free ? root.putIfNonDurable(PATH, text, WriteCondition.ifMatch(current.get().version()))
            : Optional.empty();
      }
      if (version.isPresent()) {
        return new Held(owner, operation, version.get(), now + ttl.toMillis());
      }
      if (System.nanoTime() > deadline) {
        throw new ConflictException("another writer (" + lastHolder + ") held the graph's write lease for more than "
            + wait.toSeconds() + " s; retry later", new ErrorDetail.ReadSetConflict("write_lease", null, lastHolder));
      }
      try {
        Thread.sleep(ThreadLocalRandom.current().nextLong(1, sleepMillis + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InternalErrorException("interrupted while waiting for the graph's write lease", null, e);
      }
      sleepMillis = Math.min(50, sleepMillis * 2);
    }
  }

  /**
   * A holder that crashed on this machine need not be waited out: the lease names its boot id, pid
   * and process start time, and when that process no longer exists (or the pid now belongs to a
   * later process) the lease is free. Holders on other machines, or without a boot id, are waited
   * out until they release or expire.
   */
  static boolean holderIsDeadOnThisHost(JsonNode held) {
    String boot = held.path("boot_id").asText("");
    if (BOOT_ID.isEmpty() || !BOOT_ID.equals(boot) || !held.hasNonNull("pid")) {
      return false;
    }
    Optional<ProcessHandle> p = ProcessHandle.of(held.path("pid").asLong());
    if (p.isEmpty() || !p.get().isAlive()) {
      return true;
    }
    String start = p.get().info().startInstant().map(Object::toString).orElse("");
    String recorded = held.path("process_start").asText("");
    return !start.isEmpty() && !recorded.isEmpty() && !start.equals(recorded);
  }

  private static final ProcessHandle SELF = ProcessHandle.current();
  private static final String SELF_START = SELF.info().startInstant().map(Object::toString).orElse("");
  private static final String BOOT_ID = readBootId();

  private static String readBootId() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/random/boot_id")).strip();
    } catch (IOException | RuntimeException e) {
      // Not Linux (or /proc hidden): crashed holders are then only recovered by expiry.
      return "";
    }
  }

  private static String render(String owner, String operation, long expiresAtMillis, boolean released) {
    ObjectNode n = JSON.createObjectNode();
    n.put("owner", owner);
    n.put("operation", operation);
    n.put("pid", SELF.pid());
    n.put("process_start", SELF_START);
    n.put("boot_id", BOOT_ID);
    n.put("expires_at_ms", expiresAtMillis);
    n.put("released", released);
    return n.toString();
  }

  /** @return the lease, or empty when the file is not a JSON object (cut short by a power failure) */
  private static Optional<JsonNode> parse(String text) {
    try {
      JsonNode n = JSON.readTree(text);
      return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** A held lease. Not thread-safe; one writer uses it. */
  public final class Held implements AutoCloseable {
    private final String owner;
    private final String operation;
    private final String version;
    private final long expiresAtMillis;
    private boolean closed;

    private Held(String owner, String operation, String version, long expiresAtMillis) {
      this.owner = owner;
      this.operation = operation;
      this.version = version;
      this.expiresAtMillis = expiresAtMillis;
    }

    /** @return this holder's id, as written in the lease file */
    public String owner() {
      return owner;
    }

    /**
     * Fails when the lease has expired (or expires within a tenth of its time to live): another
     * writer may take it, so effects must not start.
     *
     * @throws ConflictException the lease is (nearly) expired
     */
    public void checkValid() {
      long margin = ttl.toMillis() / 10;
      if (clockMillis.getAsLong() >= expiresAtMillis - margin) {
        throw new ConflictException("this write held the graph's write lease past its " + ttl.toSeconds()
            + " s time to live before its effects started; nothing was written, retry",
            new ErrorDetail.ReadSetConflict("write_lease", owner, null));
      }
    }

    /**
     * Releases the lease (a conditional put on the version this holder wrote). When another writer
     * has already taken over an expired lease, the file is theirs and is left alone.
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      // An empty result means the lease expired and was taken over: it is no longer ours to release,
      // and the write that held it has already finished one way or the other.
      lastReleased = null; // a release whose outcome is unknown leaves nothing to reuse
      lastReleased = root.putIfNonDurable(PATH, render(owner, operation, clockMillis.getAsLong(), true),
          WriteCondition.ifMatch(version)).orElse(null);
    }
  }
}
