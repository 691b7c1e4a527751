package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every operation refuses illegal addresses with INVALID_PATH, before touching storage.
 *
 * <p>The tests of the contract group {@code PathValidation}, bound by {@link StorageAdapterContract.PathValidation}.
 */
abstract class PathValidationGuarantees extends ContractGroup {

  PathValidationGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/abs", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "../x", "a\\b", "a\u0000b",
      "a\nb", "a\u007fb", "x#123", "dir/x#0"})
  void everyObjectOperationRefusesAnIllegalPath(String illegal) {
    assertKind(() -> adapter.readTextIfExists(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.readText(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.readIfExists(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.exists(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
    assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.ifAbsent()), Kind.INVALID_PATH);
    assertKind(() -> adapter.put(illegal, utf8("x"), WriteCondition.ifMatch("v")), Kind.INVALID_PATH);
    assertKind(() -> adapter.delete(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.lanceLocation(illegal), Kind.INVALID_PATH);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/abs", "a//b", "./a", "a/../b", "..", "a\\b", "a\u0001b", "d/x#9"})
  void listAndDeletePrefixRefuseAnIllegalDirectory(String illegal) {
    assertKind(() -> adapter.list(illegal), Kind.INVALID_PATH);
    assertKind(() -> adapter.deletePrefix(illegal), Kind.INVALID_PATH);
  }

  @Test
  void refusedWritesLeaveNothingBehind() throws Exception {
    for (String illegal : List.of("../x", "a//b", "a/../b")) {
      assertKind(() -> put(illegal, "x"), Kind.INVALID_PATH);
    }
    assertThat(list("")).isEmpty();
    assertThat(list("a")).isEmpty();
  }

  @Test
  void legalButUnusualNamesAreAccepted() throws Exception {
    List<String> legal = List.of("x#", "x#12a", "#1/b", "a.b", "...", "a..b", "-", "_");
    Set<String> written = new HashSet<>();
    for (String path : legal) {
      put("dir/" + path, path);
      written.add("dir/" + path);
    }
    for (String path : legal) {
      assertThat(adapter.readText("dir/" + path)).isEqualTo(path);
    }
    assertThat(list("dir")).contains("dir/x#", "dir/x#12a", "dir/a.b", "dir/...", "dir/a..b", "dir/-", "dir/_");
    assertThat(written).hasSize(legal.size());
  }

  @Test
  void lanceLocationsOfDistinctPathsAreDistinctUrisNamingThePath() throws Exception {
    LanceLocation one = adapter.lanceLocation("tables/nodes.lance");
    LanceLocation two = adapter.lanceLocation("tables/edges.lance");
    assertThat(one.uri()).isNotBlank().contains("tables/nodes.lance").isNotEqualTo(two.uri());
    assertThat(one.uri()).startsWith(adapter.capabilities().scheme() + ":");
    assertThat(one.storageOptions()).isNotNull();
  }
}
