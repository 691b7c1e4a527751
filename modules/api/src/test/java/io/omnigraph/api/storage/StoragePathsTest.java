package io.omnigraph.api.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class StoragePathsTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "/abs", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "a\\b", "a\u0000b", "a\nb",
      "a\u007fb", "x#123", "dir/x#0"})
  void refusesIllegalObjectPaths(String path) {
    assertThatThrownBy(() -> StoragePaths.validate(path))
        .isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).isEqualTo(StorageException.Kind.INVALID_PATH));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "a/b/c.json", "__recovery/01J.json", "x#", "x#12a", "#1/b", "é/ü name", "a.b"})
  void acceptsLegalObjectPaths(String path) throws StorageException {
    assertThat(StoragePaths.validate(path)).isEqualTo(path);
  }

  @Test
  void directoryPathsNormalizeTheTrailingSlashAndAllowTheRoot() throws StorageException {
    assertThat(StoragePaths.validateDirectory("")).isEmpty();
    assertThat(StoragePaths.validateDirectory("a/b/")).isEqualTo("a/b");
    assertThatThrownBy(() -> StoragePaths.validateDirectory("/")).isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> StoragePaths.validateDirectory("a//")).isInstanceOf(StorageException.class);
  }

  @Test
  void utf8OrderDiffersFromUtf16OrderForSupplementaryCharacters() {
    String bmpHigh = "\uFFFD";          // EF BF BD in UTF-8
    String supplementary = "\uD83D\uDE00"; // F0 9F 98 80 in UTF-8, but a surrogate (< U+FFFD) in UTF-16
    assertThat(bmpHigh.compareTo(supplementary)).isPositive();
    assertThat(StoragePaths.compareUtf8(bmpHigh, supplementary)).isNegative();
  }
}
