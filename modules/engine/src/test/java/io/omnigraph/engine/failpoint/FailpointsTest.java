package io.omnigraph.engine.failpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.StorageFailureException;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FailpointsTest {
  @TempDir
  Path tmp;

  @AfterEach
  void disarm() {
    Failpoints.disarmAll();
  }

  @Test
  void anUnarmedFailpointDoesNothing() {
    Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);
    assertThat(Failpoints.armedNames()).isEmpty();
  }

  @Test
  void anArmedErrorThrowsATypedStorageFailureNamingTheFailpoint() {
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.SIDECAR_WRITE, FailAction.error())) {
      assertThatThrownBy(() -> Failpoints.hit(Failpoints.SIDECAR_WRITE))
          .isInstanceOfSatisfying(StorageFailureException.class, e -> {
            assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
            assertThat(e.getMessage()).isEqualTo("injected failpoint triggered: recovery.sidecar_write");
            assertThat(e.detail()).contains(new ErrorDetail.Storage(FailAction.Error.STORAGE_KIND, null));
            assertThat(Failpoints.injectedBy(e)).contains(Failpoints.SIDECAR_WRITE);
          });
      assertThat(a.hits()).isEqualTo(1);
      assertThat(a.fired()).isEqualTo(1);
      // Other failpoints stay inert.
      Failpoints.hit(Failpoints.SIDECAR_DELETE);
    }
  }

  @Test
  void closingTheHandleDisarms() {
    Failpoints.Armed a = Failpoints.arm(Failpoints.PUBLISH_BEFORE, FailAction.error());
    a.close();
    Failpoints.hit(Failpoints.PUBLISH_BEFORE);
    assertThat(a.hits()).isZero();
    assertThat(Failpoints.armedNames()).isEmpty();
  }

  @Test
  void closingAReplacedHandleLeavesTheNewArmingInPlace() {
    Failpoints.Armed first = Failpoints.arm(Failpoints.PUBLISH_BEFORE, FailAction.error());
    try (Failpoints.Armed second = Failpoints.arm(Failpoints.PUBLISH_BEFORE, FailAction.error())) {
      first.close();
      assertThatThrownBy(() -> Failpoints.hit(Failpoints.PUBLISH_BEFORE)).isInstanceOf(StorageFailureException.class);
      assertThat(second.fired()).isEqualTo(1);
    }
  }

  @Test
  void anArmingForTheNthHitFiresOnThatHitOnly() {
    AtomicInteger calls = new AtomicInteger();
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.TABLE_COMMIT_AFTER, FailAction.call(calls::incrementAndGet), 2)) {
      for (int i = 0; i < 4; i++) {
        Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);
      }
      assertThat(calls).hasValue(1);
      assertThat(a.hits()).isEqualTo(4);
      assertThat(a.fired()).isEqualTo(1);
    }
  }

  @Test
  void aDelaySleepsAndContinues() {
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.PUBLISH_AFTER, FailAction.delay(Duration.ofMillis(150)))) {
      long t0 = System.nanoTime();
      Failpoints.hit(Failpoints.PUBLISH_AFTER);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
      assertThat(a.fired()).isEqualTo(1);
    }
  }

  @Test
  void aCallThatThrowsFailsTheStep() {
    try (Failpoints.Armed a = Failpoints.arm(Failpoints.PUBLISH_AFTER, FailAction.call(() -> {
      throw new IllegalStateException("boom");
    }))) {
      assertThatThrownBy(() -> Failpoints.hit(Failpoints.PUBLISH_AFTER)).hasMessage("boom");
    }
  }

  @Test
  void unknownNamesAreRefused() {
    assertThatThrownBy(() -> Failpoints.arm("no.such_point", FailAction.error()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown failpoint 'no.such_point'");
  }

  @Test
  void namesAreUniqueAndIncludeTheWritePathPoints() {
    assertThat(Failpoints.NAMES).doesNotHaveDuplicates().contains(Failpoints.WRITE_POST_STAGE_PRE_EFFECT,
        Failpoints.SIDECAR_WRITE, Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER,
        Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH, Failpoints.PUBLISH_BEFORE, Failpoints.PUBLISH_AFTER,
        Failpoints.SIDECAR_DELETE, Failpoints.SIDECAR_LIST, Failpoints.AUDIT_APPEND)
        .doesNotContain(Failpoints.SYSTEM_PROPERTY, Failpoints.HALT_MARKER);
  }

  @Test
  void theSpecParsesEveryActionAndHitNumber() {
    Map<String, Failpoints.Trigger> t = Failpoints.parse(
        " mutation.post_table_commit=halt@2, recovery.sidecar_delete=error,graph_publish.after_manifest_commit=delay:25,"
            + "graph_publish.before_commit_append=halt:9 ");
    assertThat(t).containsExactly(
        Map.entry(Failpoints.TABLE_COMMIT_AFTER, new Failpoints.Trigger(new FailAction.Halt(Failpoints.HALT_STATUS), 2)),
        Map.entry(Failpoints.SIDECAR_DELETE, new Failpoints.Trigger(new FailAction.Error(), 0)),
        Map.entry(Failpoints.PUBLISH_AFTER, new Failpoints.Trigger(new FailAction.Delay(Duration.ofMillis(25)), 0)),
        Map.entry(Failpoints.PUBLISH_BEFORE, new Failpoints.Trigger(new FailAction.Halt(9), 0)));
  }

  @Test
  void aMalformedSpecIsRefusedNamingTheEntry() {
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_writ=halt"))
        .hasMessageContaining("unknown failpoint 'recovery.sidecar_writ'");
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_write=explode")).hasMessageContaining("unknown action");
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_write")).hasMessageContaining("expected name=action");
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_write=halt@0")).hasMessageContaining("positive");
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_write=delay")).hasMessageContaining("milliseconds");
    assertThatThrownBy(() -> Failpoints.parse("recovery.sidecar_write=error,recovery.sidecar_write=halt"))
        .hasMessageContaining("named twice");
  }

  @Test
  void aChildJvmHaltsAtTheFailpointNamedInTheSystemProperty() {
    ChildJvm.Result r = ChildJvm.main(FailpointChild.class, Failpoints.TABLE_COMMIT_BEFORE,
        Failpoints.TABLE_COMMIT_AFTER, Failpoints.TABLE_COMMIT_AFTER, Failpoints.PUBLISH_BEFORE).option("-Xmx512m")
        .properties(Map.of(Failpoints.SYSTEM_PROPERTY, Failpoints.TABLE_COMMIT_AFTER + "=halt@2")).runLogged(tmp);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(Failpoints.HALT_STATUS);
    assertThat(r.output()).contains("passed " + Failpoints.TABLE_COMMIT_BEFORE, "passed " + Failpoints.TABLE_COMMIT_AFTER,
        Failpoints.HALT_MARKER + Failpoints.TABLE_COMMIT_AFTER).doesNotContain("passed " + Failpoints.PUBLISH_BEFORE);
  }

  @Test
  void aChildJvmGetsTheTypedErrorNamedInTheSystemProperty() {
    ChildJvm.Result r = ChildJvm.main(FailpointChild.class, Failpoints.SIDECAR_WRITE).option("-Xmx512m")
        .properties(Map.of(Failpoints.SYSTEM_PROPERTY, Failpoints.SIDECAR_WRITE + "=error")).runLogged(tmp);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(3);
    assertThat(r.output()).contains("error " + Failpoints.SIDECAR_WRITE + " internal");
  }

  @Test
  void aChildJvmWithoutThePropertyPassesEveryFailpoint() {
    ChildJvm.Result r = ChildJvm.main(FailpointChild.class, Failpoints.PUBLISH_BEFORE).option("-Xmx512m").runLogged(tmp);
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("passed " + Failpoints.PUBLISH_BEFORE, "done");
  }
}
