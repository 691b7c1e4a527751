package io.omnigraph.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link MergeResult#toJson()}: the one JSON form the CLI prints and the server answers. */
class MergeResultJsonTest {

  @Test
  void aMergeCommitRendersEveryFieldWithTablesSortedByKey() {
    MergeResult r = new MergeResult(MergeOutcome.MERGED, "dev", "main", "S1", "B1", "C1",
        Map.of("node:Person", new MergeResult.TableMerge("ordered", 2, 1, 0, 1),
            "edge:Knows", new MergeResult.TableMerge("pointer", 0, 0, 0, 0)), true);

    assertThat(r.toJson()).isEqualTo("{\"source\":\"dev\",\"target\":\"main\",\"outcome\":\"merged\",\"branch_deleted\":true,"
        + "\"source_commit_id\":\"S1\",\"base_commit_id\":\"B1\",\"commit_id\":\"C1\",\"tables\":{"
        + "\"edge:Knows\":{\"route\":\"pointer\",\"inserted\":0,\"updated\":0,\"deleted\":0,\"transactions\":0},"
        + "\"node:Person\":{\"route\":\"ordered\",\"inserted\":2,\"updated\":1,\"deleted\":0,\"transactions\":1}},"
        + "\"source_deleted\":true}");
  }

  @Test
  void noMergeBaseIsNullAndNamesAreEscaped() {
    MergeResult r = new MergeResult(MergeOutcome.ALREADY_UP_TO_DATE, "a\"b", "main", "S", null, "C", Map.of(), false);

    assertThat(r.toJson()).isEqualTo("{\"source\":\"a\\\"b\",\"target\":\"main\",\"outcome\":\"already_up_to_date\","
        + "\"branch_deleted\":false,\"source_commit_id\":\"S\",\"base_commit_id\":null,\"commit_id\":\"C\",\"tables\":{},"
        + "\"source_deleted\":false}");
  }
}
