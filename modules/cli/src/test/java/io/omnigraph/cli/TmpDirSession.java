package io.omnigraph.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Creates the dedicated {@code java.io.tmpdir} (set by surefire's argLine) before any test runs:
 * {@code @TempDir} and Lance's native-library extraction both need it to exist.
 */
public final class TmpDirSession implements LauncherSessionListener {
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    try {
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
