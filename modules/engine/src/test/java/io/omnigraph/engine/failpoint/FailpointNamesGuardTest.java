package io.omnigraph.engine.failpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Call sites name failpoints through the {@link Failpoints} constants, never by literal: a renamed
 * or mistyped literal would silently stop a crash test from firing. The rule is proven to bite on
 * fixture sources.
 */
class FailpointNamesGuardTest {

  @Test
  void productionCallSitesUseTheConstants() {
    List<String> violations = new ArrayList<>();
    List<Path> sources = FailpointCallSites.productionSources();
    assertThat(sources).anySatisfy(p -> assertThat(p.toString()).endsWith("ManifestPublisher.java"));
    for (Path p : sources) {
      violations.addAll(FailpointCallSites.violations(p.toString().replace('\\', '/'), FailpointCallSites.read(p)));
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void theWritePathAndTheManifestPublisherPlaceTheirFailpoints() {
    TreeSet<String> placed = FailpointCallSites.placedNames();
    System.out.println("failpoints placed: " + placed);
    TreeSet<String> unplaced = new TreeSet<>(Failpoints.NAMES);
    unplaced.removeAll(placed);
    System.out.println("failpoints declared but not placed yet: " + unplaced);
    assertThat(placed).contains(Failpoints.WRITE_POST_STAGE_PRE_EFFECT, Failpoints.WRITE_POST_SIDECAR_PRE_COMMIT,
        Failpoints.TABLE_COMMIT_BEFORE, Failpoints.TABLE_COMMIT_AFTER, Failpoints.WRITE_POST_FINALIZE_PRE_PUBLISH,
        Failpoints.PUBLISH_BEFORE, Failpoints.PUBLISH_AFTER);
  }

  @Test
  void aLiteralNameInAHitCallIsAViolation() {
    String fixture = "import io.omnigraph.engine.failpoint.Failpoints;\nclass X {\n  void f() {\n"
        + "    Failpoints.hit(\"graph_publish.before_commit_append\");\n  }\n}\n";
    assertThat(FailpointCallSites.violations("X.java", fixture))
        .anySatisfy(v -> assertThat(v).startsWith("X.java:4: failpoint hit(").contains("must pass a Failpoints constant"))
        .anySatisfy(v -> assertThat(v).contains("literal \"graph_publish.before_commit_append\""));
  }

  @Test
  void aVariableOrUnknownConstantInAHitCallIsAViolation() {
    String fixture = "class X {\n  void f(String n) {\n    Failpoints.hit(n);\n    Failpoints.hit(Failpoints.NO_SUCH);\n  }\n}\n";
    assertThat(FailpointCallSites.violations("X.java", fixture)).containsExactly(
        "X.java:3: failpoint hit(n) must pass a Failpoints constant",
        "X.java:4: failpoint hit(Failpoints.NO_SUCH) must pass a Failpoints constant");
  }

  @Test
  void aFailpointNameSpelledAnywhereOutsideTheRegistryIsAViolation() {
    String fixture = "class X {\n  static final String N = \"recovery.sidecar_write\";\n}\n";
    assertThat(FailpointCallSites.violations("X.java", fixture)).containsExactly(
        "X.java:2: literal \"recovery.sidecar_write\" spells a failpoint name; use the Failpoints constant");
  }

  @Test
  void constantCallSitesAreAccepted() {
    String fixture = "import static io.omnigraph.engine.failpoint.Failpoints.SIDECAR_WRITE;\nclass X {\n  void f() {\n"
        + "    Failpoints.hit(Failpoints.TABLE_COMMIT_AFTER);\n    Failpoints.hit(SIDECAR_WRITE);\n  }\n}\n";
    assertThat(FailpointCallSites.violations("X.java", fixture)).isEmpty();
    assertThat(FailpointCallSites.sites("X.java", fixture)).extracting(FailpointCallSites.Site::constant)
        .containsExactly("TABLE_COMMIT_AFTER", "SIDECAR_WRITE");
  }
}
