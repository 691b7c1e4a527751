package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/** The harness fails runs that would otherwise prove nothing, and skips (never passes) what it cannot test. */
class HarnessChecksItselfTest {

  @Test
  void everyTestFailsWhenTheEmptyRootIsNotEmpty() {
    SuiteRun run = SuiteRun.of(HarnessBindings.NonEmptyRoot.class);
    assertThat(run.tests()).isNotEmpty();
    assertThat(run.count(Status.SUCCESSFUL)).as(run.toString()).isZero();
    assertThat(run.failedTests()).allSatisfy(r -> assertThat(r.message()).contains("'empty' root", "not empty"));
  }

  @Test
  void aTestWhoseArmedFaultNeverFiredFails() {
    SuiteRun run = SuiteRun.of(HarnessBindings.FaultsNeverReportFired.class);
    List<SuiteRun.Result> failed = run.failedTests();
    assertThat(failed).as(run.toString()).isNotEmpty();
    assertThat(failed).allSatisfy(r -> assertThat(r.message()).contains("never fired"));
    // exactly the fault-injecting groups' tests are affected; the others still pass
    assertThat(run.groupsWithFailures()).containsExactlyInAnyOrder("AtomicPut", "ConditionalPut", "ListingFailure",
        "NonDurableWrite", "Delete", "ErrorMapping");
    assertThat(run.count(Status.SUCCESSFUL)).isGreaterThan(40);
  }

  @Test
  void aRunInWhichAContractGroupRanNoTestFails() {
    SuiteRun run = SuiteRun.of(Map.of(),
        selectNestedClass(List.of(HarnessBindings.Fs.class), StorageAdapterContract.ReadAndNotFound.class));
    assertThat(run.failedTests()).isEmpty();
    assertThat(run.count(Status.SUCCESSFUL)).isPositive();
    assertThat(run.failedContainers()).singleElement().satisfies(r -> assertThat(r.message())
        .contains("ran no test")
        .contains("AtomicPut", "ConditionalPut", "Listing", "ListingFailure", "TempFileResidue", "NonDurableWrite", "Delete",
            "ErrorMapping", "PathValidation")
        .doesNotContain("ReadAndNotFound"));
  }

  @Test
  void aPartialRunIsAllowedWhenAskedForExplicitly() {
    SuiteRun run = SuiteRun.of(Map.of(ContractHarness.ALLOW_PARTIAL, "true"),
        selectNestedClass(List.of(HarnessBindings.Fs.class), StorageAdapterContract.Delete.class));
    assertThat(run.failedContainers()).as(run.toString()).isEmpty();
    assertThat(run.count(Status.SUCCESSFUL)).isPositive();
  }

  @Test
  void inStrictModeTheDefaultTestsNeedingAMissingHookFailNeverSkip() {
    SuiteRun run = SuiteRun.of(HarnessBindings.NoHooks.class);
    assertThat(run.count(Status.ABORTED)).as(run.toString()).isZero();
    assertThat(run.failedTests()).hasSizeGreaterThanOrEqualTo(15)
        .allSatisfy(r -> assertThat(r.message()).contains("strict mode").containsAnyOf("supplies no FaultController",
            "supplies no ResidueMaker"));
    assertThat(run.groupsWithFailures()).contains("ReadAndNotFound", "Listing", "ListingFailure", "TempFileResidue",
        "ErrorMapping");
  }

  @Test
  void testsNeedingAMissingHookAreSkippedWithTheReasonNeverPassedWhenStrictModeIsOff() {
    SuiteRun run = SuiteRun.of(Map.of(ContractHarness.STRICT, "false"),
        org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(HarnessBindings.NoHooks.class));
    assertThat(run.failedTests()).as(run.toString()).isEmpty();
    assertThat(run.failedContainers()).as(run.toString()).isEmpty();
    List<SuiteRun.Result> skipped = run.tests().stream().filter(r -> r.status() == Status.ABORTED).toList();
    assertThat(skipped).hasSizeGreaterThanOrEqualTo(15);
    assertThat(skipped).allSatisfy(r -> assertThat(r.message()).containsAnyOf("supplies no FaultController",
        "supplies no ResidueMaker"));
    assertThat(skipped).extracting(SuiteRun.Result::group).contains("ListingFailure", "TempFileResidue");
  }
}
