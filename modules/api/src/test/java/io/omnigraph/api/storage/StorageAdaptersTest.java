package io.omnigraph.api.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StorageAdaptersTest {

  @Test
  void unknownSchemeNamesTheSchemeAndTheAvailableOnes() {
    assertThatThrownBy(() -> StorageAdapters.open(URI.create("nope://x"), Map.of()))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.kind()).isEqualTo(StorageException.Kind.CONFIGURATION);
          assertThat(e.getMessage()).contains("'nope'").contains("available schemes");
        });
  }

  @Test
  void plainLocalPathsBecomeFileUris() throws StorageException {
    URI u = StorageAdapters.toUri("some/dir");
    assertThat(u.getScheme()).isEqualTo("file");
    assertThat(u.getPath()).endsWith("/some/dir");
    assertThat(StorageAdapters.toUri("s3://bucket/prefix").getScheme()).isEqualTo("s3");
  }

  @Test
  void rootWithoutSchemeIsAConfigurationError() {
    assertThatThrownBy(() -> StorageAdapters.open(URI.create("relative/path"), Map.of()))
        .isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).isEqualTo(StorageException.Kind.CONFIGURATION));
  }
}
