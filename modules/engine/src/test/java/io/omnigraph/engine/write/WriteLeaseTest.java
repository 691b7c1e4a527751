package io.omnigraph.engine.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.engine.storage.GraphRoot;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteLeaseTest {
  @TempDir Path dir;
  GraphRoot root;
  AtomicLong clock = new AtomicLong(1_000_000);

  @BeforeEach
  void open() {
    root = GraphRoot.open(dir.toUri().toString(), Map.of());
  }

  @AfterEach
  void close() {
    root.close();
  }

  WriteLease lease(Duration wait) {
    return new WriteLease(root, Duration.ofSeconds(10), wait, clock::get);
  }

  @Test
  void holdersNeverOverlapAcrossIndependentLeaseObjects() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    AtomicInteger entered = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> all = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        // Each thread has its own GraphRoot and lease object, as separate processes would.
        all.add(pool.submit(() -> {
          try (GraphRoot own = GraphRoot.open(dir.toUri().toString(), Map.of())) {
            WriteLease l = new WriteLease(own, Duration.ofSeconds(30), Duration.ofSeconds(60), System::currentTimeMillis);
            for (int i = 0; i < 10; i++) {
              try (WriteLease.Held h = l.acquire("t")) {
                int now = inside.incrementAndGet();
                maxInside.accumulateAndGet(now, Math::max);
                Thread.sleep(1);
                inside.decrementAndGet();
                entered.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : all) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(entered.get()).isEqualTo(60);
    assertThat(maxInside.get()).isEqualTo(1);
  }

  @Test
  void aLiveLeaseMakesOthersWaitAndThenFailWithATypedConflict() {
    try (WriteLease.Held h = lease(Duration.ofSeconds(10)).acquire("first")) {
      assertThatThrownBy(() -> lease(Duration.ofMillis(100)).acquire("second"))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.detail())
              .contains(new ErrorDetail.ReadSetConflict("write_lease", null, "first")));
    }
    lease(Duration.ofMillis(100)).acquire("third").close();
  }

  @Test
  void aCrashedHolderOnThisMachineIsNotWaitedOut() throws Exception {
    ChildJvm.Result child = ChildJvm.main(LeaseHolderChild.class, dir.toUri().toString()).run();
    String out = child.output();
    assertThat(child.exitCode()).as(out).isEqualTo(3);
    assertThat(out).contains("HELD");
    assertThat(root.readText(WriteLease.PATH)).hasValueSatisfying(t -> assertThat(t).contains("\"released\":false"));
    // The holder's lease would stay valid for 60 s; its process is gone, so it is free now.
    long t0 = System.nanoTime();
    new WriteLease(root, Duration.ofSeconds(60), Duration.ofSeconds(5), System::currentTimeMillis).acquire("next").close();
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aLiveHolderOnThisMachineIsNotMistakenForADeadOne() {
    try (WriteLease.Held h = new WriteLease(root).acquire("alive")) {
      var held = root.readText(WriteLease.PATH).orElseThrow();
      assertThat(WriteLease.holderIsDeadOnThisHost(parse(held))).isFalse();
      assertThat(WriteLease.holderIsDeadOnThisHost(parse(held.replaceAll("\"pid\":\\d+", "\"pid\":999999999"))))
          .isTrue();
    }
  }

  static com.fasterxml.jackson.databind.JsonNode parse(String json) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsStaleHolderCanNeitherStartNorReleaseIt() {
    WriteLease.Held crashed = lease(Duration.ofSeconds(1)).acquire("crashed");
    clock.addAndGet(11_000);
    assertThatThrownBy(crashed::checkValid).isInstanceOf(ConflictException.class);
    WriteLease.Held taker = lease(Duration.ofMillis(100)).acquire("taker");
    taker.checkValid();
    crashed.close(); // stale: must not release the taker's lease
    assertThatThrownBy(() -> lease(Duration.ofMillis(100)).acquire("third")).isInstanceOf(ConflictException.class);
    taker.close();
    lease(Duration.ofMillis(100)).acquire("fourth").close();
  }

  @Test
  void theReleasersShortcutNeverTakesALeaseAnotherWriterTookSinceItsRelease() {
    WriteLease a = lease(Duration.ofMillis(200));
    WriteLease b = lease(Duration.ofMillis(200));
    a.acquire("a1").close(); // a remembers the version it released
    try (WriteLease.Held held = b.acquire("b")) {
      held.checkValid();
      assertThatThrownBy(() -> a.acquire("a2")).isInstanceOfSatisfying(ConflictException.class,
          e -> assertThat(e.detail()).containsInstanceOf(ErrorDetail.ReadSetConflict.class));
    }
    try (WriteLease.Held again = a.acquire("a3")) {
      again.checkValid();
      // a holds it now: b's release of its own earlier version must not free it, and b cannot enter.
      assertThatThrownBy(() -> b.acquire("b2")).isInstanceOf(ConflictException.class);
    }
    a.acquire("a4").close();
    b.acquire("b3").close();
  }

  @Test
  void aLeaseFileCutShortByAPowerFailureIsFreeToTake() {
    // The lease's puts are not durable (docs/write-protocol.md, "The write lease"): after a power
    // failure the file may be empty or partly written. Nobody holds it then.
    for (String cutShort : List.of("", "{\"owner\":\"x\",\"expires_at", "\u0000\u0000\u0000", "[]")) {
      root.put(WriteLease.PATH, cutShort, io.omnigraph.api.storage.WriteCondition.overwrite());
      try (WriteLease.Held h = lease(Duration.ofMillis(100)).acquire("after power failure")) {
        h.checkValid();
        assertThat(root.readText(WriteLease.PATH)).hasValueSatisfying(t -> assertThat(t).contains("after power failure"));
      }
    }
  }
}
