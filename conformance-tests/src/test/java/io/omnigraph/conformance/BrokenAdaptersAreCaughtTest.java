package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The suite can fail: each deliberately broken adapter is reported failing, in the right group. */
class BrokenAdaptersAreCaughtTest {

  @Test
  void anAdapterThatSwallowsALaterPageFailureFailsListingFailure() {
    SuiteRun run = SuiteRun.of(BrokenAdapters.SwallowsLaterPageFailure.class);
    assertThat(run.groupsWithFailures()).as(run.toString()).containsExactly("ListingFailure");
    assertThat(run.failedTests()).extracting(SuiteRun.Result::name)
        .contains("a failure on a later page throws instead of ending the listing early",
            "a failure on the last page throws");
    assertThat(run.failedContainers()).as(run.toString()).isEmpty();
  }

  @Test
  void anAdapterThatListsTempNamesFailsTempFileResidue() {
    SuiteRun run = SuiteRun.of(BrokenAdapters.ListsTempNames.class);
    assertThat(run.groupsWithFailures()).as(run.toString()).containsExactly("TempFileResidue");
    assertThat(run.failedTests()).extracting(SuiteRun.Result::name)
        .contains("residue of an interrupted write is not listed");
  }

  @Test
  void anAdapterWhoseIfAbsentIsCheckThenWriteFailsConditionalPut() {
    SuiteRun run = SuiteRun.of(BrokenAdapters.CheckThenWriteIfAbsent.class);
    assertThat(run.groupsWithFailures()).as(run.toString()).containsExactly("ConditionalPut");
    assertThat(run.failedTests()).extracting(SuiteRun.Result::name)
        .containsExactly("sixteen concurrent if absent writers have exactly one winner");
  }

  @Test
  void theRealFsAdapterPassesTheSameRunsCleanly() {
    SuiteRun run = SuiteRun.of(FsTckOnModulePathTest.class);
    assertThat(run.failedTests()).as(run.toString()).isEmpty();
    assertThat(run.failedContainers()).as(run.toString()).isEmpty();
    assertThat(run.count(org.junit.platform.engine.TestExecutionResult.Status.ABORTED)).isZero();
    assertThat(run.tests()).hasSizeGreaterThanOrEqualTo(40);
  }
}
