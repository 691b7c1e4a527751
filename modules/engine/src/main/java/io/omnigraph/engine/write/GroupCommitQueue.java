package io.omnigraph.engine.write;

import io.omnigraph.engine.manifest.GraphBranch;
import io.omnigraph.engine.manifest.ManifestPublisher;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leader, the queue and the prepare barrier of group commit (docs/concurrency.md, "Group
 * commit"), one per {@link GraphWrite} (graph handle).
 *
 * <p>A {@link GraphWrite.Member} queues a ticket and waits. When no leader is active, a waiting
 * member becomes the leader and opens a round:
 *
 * <ol>
 *   <li>it enters the effect window (this process's gate, then the cross-process lease) and reads
 *       the head H of main;</li>
 *   <li>it drains the queue (at most {@value #MAX_BATCH} tickets); a ticket prepared against H is
 *       ready; a ticket prepared against an older head is told to re-prepare, which its own thread
 *       does in parallel with the others (the leader re-prepares its own ticket itself) while the
 *       leader holds the window, so nothing can publish meanwhile; a ticket whose branch or schema
 *       changed fails with its own ReadSetChanged;</li>
 *   <li>it waits for the re-preparing tickets, at most {@value #BARRIER_MILLIS} ms (a ticket not
 *       back by then stays queued for the next round), then forms the batch from the ready tickets
 *       in queue order ({@link GroupCommitBatch#select}); a ticket that may not join goes alone
 *       after the round, through {@link GraphWrite#commitAndPublish};</li>
 *   <li>one ready ticket commits through the single-write path inside the window; two or more
 *       commit as one {@link GroupCommitBatch}; each ticket receives its own outcome or its own
 *       typed failure.</li>
 * </ol>
 *
 * <p>A member never holds the gate while it waits or re-prepares, so it cannot block the leader
 * that waits for it; a writer that already holds the gate never queues (its caller checks).
 */
final class GroupCommitQueue {
  /** At most this many members per batch (one sidecar, one publish). */
  static final int MAX_BATCH = 32;
  /** How long a leader waits for the members it told to re-prepare. */
  static final long BARRIER_MILLIS = 250;
  /** Set to {@code false} to turn batching off: every queued member then commits alone (docs/concurrency.md). */
  static final String ENABLED_PROPERTY = "omnigraph.write.groupCommit";

  private static final AtomicLong BATCHES = new AtomicLong();
  private static final AtomicLong BATCHED = new AtomicLong();

  private enum State { QUEUED, REPREPARE, REPREPARING, DONE }

  /** One member's place in the queue and what became of it. */
  private static final class Ticket {
    final GraphWrite.Member member;
    State state = State.QUEUED;
    GraphWrite.Outcome outcome;
    RuntimeException failure;
    boolean alone;

    Ticket(GraphWrite.Member member) {
      this.member = member;
    }
  }

  private final GraphWrite writer;
  private final Object lock = new Object();
  private final ArrayDeque<Ticket> queue = new ArrayDeque<>();
  private boolean leading;
  private final ThreadLocal<Boolean> interrupted = new ThreadLocal<>();

  GroupCommitQueue(GraphWrite writer) {
    this.writer = writer;
  }

  /** @return batches of two or more members committed by this process so far */
  static long batches() {
    return BATCHES.get();
  }

  /** @return members committed in such batches by this process so far */
  static long batchedMembers() {
    return BATCHED.get();
  }

  static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true"));
  }

  GraphWrite.Outcome submit(GraphWrite.Member member) {
    if (member.intent() == null) {
      return null;
    }
    Ticket t = new Ticket(member);
    synchronized (lock) {
      queue.addLast(t);
      lock.notifyAll();
    }
    while (true) {
      boolean lead = false;
      synchronized (lock) {
        while (t.state != State.DONE && t.state != State.REPREPARE && leading) {
          await(0);
        }
        if (t.state == State.DONE) {
          break;
        }
        if (t.state == State.REPREPARE) {
          t.state = State.REPREPARING;
        } else {
          leading = true;
          lead = true;
        }
      }
      if (lead) {
        try {
          lead(t);
        } finally {
          synchronized (lock) {
            leading = false;
            lock.notifyAll();
          }
        }
      } else {
        reprepare(t);
      }
    }
    if (interrupted.get() != null) {
      interrupted.remove();
      Thread.currentThread().interrupt();
    }
    if (t.alone) {
      return writer.commitAndPublish(t.member.intent());
    }
    if (t.failure != null) {
      throw t.failure;
    }
    return t.outcome;
  }

  /** Re-prepares {@code t} in this thread, outside the gate; reports back to the round. */
  private void reprepare(Ticket t) {
    RuntimeException failure = null;
    try {
      t.member.reprepare();
    } catch (RuntimeException e) {
      failure = e;
    }
    synchronized (lock) {
      if (failure != null) {
        done(t, null, failure);
      } else if (t.member.intent() == null) {
        done(t, null, null);
      } else {
        t.state = State.QUEUED;
      }
      lock.notifyAll();
    }
  }

  /** One round, led by {@code self}'s thread. */
  private void lead(Ticket self) {
    List<Ticket> round = new ArrayList<>();
    try (EffectWindow window = writer.enterWindow("group commit");
        // Alone in the queue (a single writer), the leader most likely commits its own ticket alone:
        // its sidecar's bytes are written while the round reads (discarded if the round differs).
        GraphWrite.EarlyArm early = aloneInQueue(self) ? writer.startArm(self.member.intent()) : null;
        ManifestPublisher.Base fresh = writer.publisher().openBase(GraphBranch.MAIN)) {
      WriteToken now = writer.tokenNow(fresh.state(), GraphBranch.MAIN);
      writer.sidecars().requireNonePending();
      synchronized (lock) {
        drain(round, now);
      }
      if (self.state == State.REPREPARE) {
        self.state = State.REPREPARING;
        reprepare(self);
      }
      List<Ticket> ready = barrier(round, now);
      if (!ready.isEmpty()) {
        window.checkValid();
        commit(ready, window, fresh, early);
      }
    } catch (RuntimeException | Error e) {
      synchronized (lock) {
        // The window could not be entered or the round failed before its outcome was handed out:
        // the leader's own ticket and every ticket of the round not yet decided get the failure.
        if (self.state != State.DONE && !round.contains(self) && queue.remove(self)) {
          done(self, null, asRuntime(e));
        }
        for (Ticket t : round) {
          if (t.state == State.QUEUED || t.state == State.REPREPARE) {
            done(t, null, asRuntime(e));
          }
        }
      }
      if (e instanceof Error err) {
        throw err;
      }
    } finally {
      synchronized (lock) {
        // Tickets still re-preparing go back to the front of the queue, in order, for the next round.
        for (int i = round.size() - 1; i >= 0; i--) {
          Ticket t = round.get(i);
          if (t.state != State.DONE) {
            queue.addFirst(t);
          }
        }
        lock.notifyAll();
      }
    }
  }

  /** @return whether {@code self} is the only ticket queued, and prepared (not told to re-prepare) */
  private boolean aloneInQueue(Ticket self) {
    synchronized (lock) {
      return queue.size() == 1 && queue.peekFirst() == self && self.state == State.QUEUED;
    }
  }

  /** Moves queued tickets into the round (up to the bound) and classifies them against {@code now}. */
  private void drain(List<Ticket> round, WriteToken now) {
    while (round.size() < MAX_BATCH && !queue.isEmpty()) {
      Ticket t = queue.pollFirst();
      round.add(t);
      classify(t, now);
    }
    lock.notifyAll();
  }

  private void classify(Ticket t, WriteToken now) {
    if (t.state != State.QUEUED) {
      return;
    }
    GraphWrite.Intent intent = t.member.intent();
    switch (intent.token().compare(now)) {
      case NONE -> { }
      case HEAD -> t.state = State.REPREPARE;
      case IDENTITY -> done(t, null, intent.token().readSetChanged(now, "mutation"));
    }
  }

  /**
   * Waits until no ticket of the round is re-preparing (or the barrier's time is up), taking in
   * tickets queued meanwhile.
   *
   * @return the round's tickets prepared against {@code now}, in queue order
   */
  private List<Ticket> barrier(List<Ticket> round, WriteToken now) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BARRIER_MILLIS);
    synchronized (lock) {
      while (true) {
        drain(round, now);
        for (Ticket t : round) {
          classify(t, now);
        }
        long left = deadline - System.nanoTime();
        boolean pending = round.stream().anyMatch(t -> t.state == State.REPREPARE || t.state == State.REPREPARING);
        if (!pending || left <= 0) {
          break;
        }
        await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
      List<Ticket> ready = new ArrayList<>();
      for (Ticket t : round) {
        if (t.state == State.QUEUED) {
          ready.add(t);
        }
      }
      return ready;
    }
  }

  /** Commits the ready tickets inside the window and hands each its outcome or failure. */
  private void commit(List<Ticket> ready, EffectWindow window, ManifestPublisher.Base fresh,
      GraphWrite.EarlyArm early) {
    List<GraphWrite.Member> members = new ArrayList<>();
    ready.forEach(t -> members.add(t.member));
    List<Integer> batch = enabled() ? GroupCommitBatch.select(members) : List.of(0);
    List<GroupCommitBatch.Result> results;
    if (batch.size() == 1) {
      GroupCommitBatch.Result r;
      try {
        r = new GroupCommitBatch.Result(writer.inWindowChecked(members.get(batch.get(0)).intent(), window, fresh, early),
            null, false);
      } catch (RuntimeException e) {
        r = new GroupCommitBatch.Result(null, e, false);
      }
      results = List.of(r);
    } else {
      List<GraphWrite.Intent> intents = new ArrayList<>();
      batch.forEach(i -> intents.add(members.get(i).intent()));
      results = GroupCommitBatch.run(writer, window, fresh, intents);
      if (results.stream().anyMatch(r -> r.outcome() != null)) {
        BATCHES.incrementAndGet();
        BATCHED.addAndGet(results.size());
      }
    }
    synchronized (lock) {
      for (int i = 0; i < ready.size(); i++) {
        Ticket t = ready.get(i);
        int at = batch.indexOf(i);
        if (at < 0) {
          t.alone = true;
          done(t, null, null);
        } else {
          GroupCommitBatch.Result r = results.get(at);
          t.alone = r.alone();
          done(t, r.outcome(), r.failure());
        }
      }
    }
  }

  private void done(Ticket t, GraphWrite.Outcome outcome, RuntimeException failure) {
    t.outcome = outcome;
    t.failure = failure;
    t.state = State.DONE;
    lock.notifyAll();
  }

  /**
   * Waits on the lock. An interrupt does not end the wait: a queued member's staged transactions may
   * be committing in the leader's batch, so its thread must stay for the outcome (the interrupt is
   * kept for the caller).
   */
  private void await(long millis) {
    try {
      lock.wait(millis);
    } catch (InterruptedException e) {
      interrupted.set(Boolean.TRUE);
    }
  }

  private static RuntimeException asRuntime(Throwable e) {
    return e instanceof RuntimeException r ? r
        : new io.omnigraph.api.InternalErrorException("the group commit's leader failed: " + e, null, e);
  }
}
