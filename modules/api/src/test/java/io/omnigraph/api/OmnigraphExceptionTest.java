package io.omnigraph.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OmnigraphExceptionTest {

  @Test
  void keyConflictRendersTheReferenceShapeWithEveryId() {
    ConflictException e = new ConflictException("node type 'Person' already has this id",
        new ErrorDetail.KeyConflict("node", "Person", List.of("p-7", "p-9")));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFLICT);
    assertThat(e.httpStatus()).isEqualTo(409);
    assertThat(e.code()).isEqualTo("conflict");
    assertThat(e.toJson()).isEqualTo("{\"error\":\"node type 'Person' already has this id\",\"code\":\"conflict\","
        + "\"key_conflict\":{\"entity_kind\":\"node\",\"type_name\":\"Person\",\"entity_id\":\"p-7\","
        + "\"entity_ids\":[\"p-7\",\"p-9\"]}}");
  }

  @Test
  void resourceLimitIs413WithResourceLimitAndActual() {
    ResourceLimitException e = new ResourceLimitException("too big",
        new ErrorDetail.ResourceLimit("keyed write entities for node:Person", 8192, 8193));
    assertThat(e.httpStatus()).isEqualTo(413);
    assertThat(e.toJson()).endsWith("\"resource_limit\":{\"resource\":\"keyed write entities for node:Person\","
        + "\"limit\":8192,\"actual\":8193}}");
  }

  @Test
  void absentOptionalValuesAreOmitted() {
    InvalidInputException e = new InvalidInputException("bad", new ErrorDetail.Validation(3L, null, "age", null));
    assertThat(e.toJson()).isEqualTo("{\"error\":\"bad\",\"code\":\"bad_request\",\"validation\":{\"line\":3,\"field\":\"age\"}}");
    ConflictException r = new ConflictException("moved", new ErrorDetail.ReadSetConflict("graph_head:main", "A", null));
    assertThat(r.toJson()).endsWith("\"read_set_conflict\":{\"member\":\"graph_head:main\",\"expected\":\"A\"}}");
  }

  @Test
  void everyDetailRendersUnderItsOwnField() {
    List<ErrorDetail> all = List.of(
        new ErrorDetail.KeyConflict("edge", "Knows", List.of("e1")),
        new ErrorDetail.ReadSetConflict("m", null, null),
        new ErrorDetail.PublishedVersionConflict("node", "P", 4, 5),
        new ErrorDetail.ResourceLimit("r", 1, 2),
        new ErrorDetail.RecoveryRequired("01JZ8Q3V7K2M4N6P8R0T2W4Y6A"),
        new ErrorDetail.PreconditionFailure("main", "A", "B"),
        new ErrorDetail.Validation(1L, 2L, "f", "rule"),
        new ErrorDetail.Storage("PERMISSION", "_schema.pg"),
        new ErrorDetail.UnsupportedStamp("5", 6));
    for (ErrorDetail d : all) {
      String json = new InternalErrorException("x", d).toJson();
      assertThat(json).contains("\"" + d.jsonField() + "\":{");
    }
    assertThat(new InternalErrorException("x", new ErrorDetail.PublishedVersionConflict("node", "P", 4, 5)).toJson())
        .contains("\"expected_published_dataset_version\":4,\"actual_published_dataset_version\":5");
  }

  @Test
  void mergeConflictsRenderAsAnArrayWithRowValuesEmbeddedAsJson() {
    ConflictException e = new ConflictException("merge of 'feature' into 'main' has 2 conflicts",
        new ErrorDetail.MergeConflicts(List.of(
            new ErrorDetail.MergeConflict("divergent_update", "node", "Person", "p-7", "{\"age\":1}",
                "{\"age\":2}", "{\"age\":3}", "divergent update for id 'p-7'"),
            new ErrorDetail.MergeConflict("delete_vs_update", "node", "Person", "p-8", "{\"age\":1}", "null",
                null, "p-8 deleted on one side, updated on the other"))));
    assertThat(e.httpStatus()).isEqualTo(409);
    assertThat(e.toJson()).isEqualTo("{\"error\":\"merge of 'feature' into 'main' has 2 conflicts\",\"code\":\"conflict\","
        + "\"merge_conflicts\":[{\"kind\":\"divergent_update\",\"entity_kind\":\"node\",\"type_name\":\"Person\","
        + "\"entity_id\":\"p-7\",\"base\":{\"age\":1},\"source\":{\"age\":2},\"target\":{\"age\":3},"
        + "\"message\":\"divergent update for id 'p-7'\"},{\"kind\":\"delete_vs_update\",\"entity_kind\":\"node\","
        + "\"type_name\":\"Person\",\"entity_id\":\"p-8\",\"base\":{\"age\":1},\"source\":null,"
        + "\"message\":\"p-8 deleted on one side, updated on the other\"}]}");
    assertThatThrownBy(() -> new ErrorDetail.MergeConflicts(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void mergeOutcomeCodesRoundTrip() {
    for (MergeOutcome o : MergeOutcome.values()) {
      assertThat(MergeOutcome.fromCode(o.code())).isEqualTo(o);
    }
    assertThat(MergeOutcome.FAST_FORWARD.code()).isEqualTo("fast_forward");
  }

  @Test
  void messagesAreEscaped() {
    assertThat(new InternalErrorException("a\"b\\c\nd\u0001", null).toJson())
        .isEqualTo("{\"error\":\"a\\\"b\\\\c\\nd\\u0001\",\"code\":\"internal\"}");
  }

  @Test
  void kindsFixStatusAndCode() {
    assertThat(new RecoveryRequiredException("r", new ErrorDetail.RecoveryRequired("x")).httpStatus()).isEqualTo(503);
    assertThat(new PreconditionFailedException("p", null).httpStatus()).isEqualTo(412);
    assertThat(new NotFoundException("n", null).code()).isEqualTo("not_found");
    assertThat(new UnsupportedStorageVersionException("u", null).kind()).isEqualTo(ErrorKind.UNSUPPORTED_STORAGE_VERSION);
    assertThat(new StorageFailureException("s", null).kind()).isEqualTo(ErrorKind.STORAGE);
  }

  @Test
  void loadModeParsesCaseInsensitivelyAndRejectsOthers() {
    assertThat(LoadMode.parse("Merge")).isEqualTo(LoadMode.MERGE);
    assertThatThrownBy(() -> LoadMode.parse("upsert")).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("append, merge or overwrite");
  }

  @Test
  void keyConflictNeedsAnId() {
    assertThatThrownBy(() -> new ErrorDetail.KeyConflict("node", "P", List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
