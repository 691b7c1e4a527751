package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.omnigraph.engine.table.LanceErrors.Failure;
import io.omnigraph.engine.testing.TableSamples;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lance.Dataset;

/**
 * Pins every Lance message the engine tells apart (docs/errors.md, "storage.kind values"). The literal
 * messages are the ones Lance 7.0.0 produced; the last tests provoke real ones.
 */
class LanceErrorsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Retryable commit conflict for version 2: This Delete transaction was preempted by concurrent transaction Delete at version 2. Please retry., /build/rust/lance/src/io/commit/conflict_resolver.rs:884:26|RETRYABLE_CONFLICT",
      "Retryable commit conflict for version 2: This Update transaction was preempted by concurrent transaction Update at version 2. Please retry.|RETRYABLE_CONFLICT",
      "Too many concurrent writers. Attempted 0 retries.|RETRYABLE_CONFLICT",
      "Incompatible transaction: This Append transaction is incompatible with concurrent transaction Overwrite at version 2.|INCOMPATIBLE_CONFLICT",
      "Dataset already exists: /tmp/x|ALREADY_EXISTS",
      "Query Execution error: Execution error: Merge insert failed: found matching row with key values: id = \"k3\"|KEY_EXISTS",
      "Dataset at path /tmp/x was not found: LanceError(IO): ...|NOT_FOUND",
      "Dataset at path /tmp/x/_versions/999.manifest was not found|NOT_FOUND",
      "Version not found error: version 9 does not exist|NOT_FOUND",
      "Ref not found error: tag nope does not exist|NOT_FOUND",
      "Not found: /tmp/x/tree/dev|NOT_FOUND",
      "Ref conflict error: Branch dev is referenced by [(\"dev2\", 3)] versions, can not delete|REF_CONFLICT",
      "Invalid user input: Schema error: No field named nope|INVALID_INPUT",
      "Append with different schema: fields did not match, missing=[a], unexpected=[b]|INVALID_INPUT",
      "Field id contained null values even though the field is marked non-null|INVALID_INPUT",
      "LanceError(IO): Generic S3 error: 403 Forbidden|IO",
      "LanceError(IO): Permission denied (os error 13) at path \"/g/nodes/x/data/.tmpnN73Lo\", /workspace/rust/lance-io/src/object_store.rs:746:21|PERMISSION",
      "LanceError(IO): Read-only file system (os error 30)|PERMISSION",
      "LanceError(IO): Object at location data/x.lance not found|IO",
      "Dataset is closed|OTHER",
  })
  void knownMessagesClassify(String message, Failure expected) {
    assertThat(LanceErrors.classify(new RuntimeException(message))).isEqualTo(expected);
  }

  @Test
  void nullMessagesAreOther() {
    assertThat(LanceErrors.classify(new RuntimeException())).isEqualTo(Failure.OTHER);
  }

  @Test
  void cleanDropsTheRustSourceLocation() {
    assertThat(LanceErrors.clean(new RuntimeException(
        "Too many concurrent writers., /home/build/rust/lance/src/io/commit.rs:88:12")))
        .isEqualTo("Too many concurrent writers.");
  }

  @Test
  void realMissingDatasetMessageIsNotFound(@TempDir Path dir) {
    LanceRuntime.prepare();
    Throwable t = catchThrowable(() -> Dataset.open(dir.resolve("missing").toString()).close());
    assertThat(LanceErrors.classify(t)).isEqualTo(Failure.NOT_FOUND);
  }

  @Test
  void realExistingDatasetMessageIsAlreadyExists(@TempDir Path dir) {
    try (TableStore store = new TableStore()) {
      var loc = new io.omnigraph.api.storage.LanceLocation(dir.resolve("t").toUri().toString(), Map.of());
      store.writer().createTable(loc, "node:P", TableSamples.ID_N, java.util.List.of());
      Throwable t = catchThrowable(() -> store.writer().createTable(loc, "node:P", TableSamples.ID_N, java.util.List.of()));
      assertThat(LanceErrors.classify(t.getCause())).isEqualTo(Failure.ALREADY_EXISTS);
    }
  }
}
