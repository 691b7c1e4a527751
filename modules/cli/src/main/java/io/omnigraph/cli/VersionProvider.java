package io.omnigraph.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** Reads the release version that Maven filtered into {@code version.properties}. */
public final class VersionProvider implements CommandLine.IVersionProvider {

  /** @return the release version, e.g. {@code 0.1.0-SNAPSHOT} */
  public static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("version.properties is missing from the CLI jar");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "omnigraph " + version(),
      "Java ${java.version} (${java.vendor}), ${os.name} ${os.arch}",
    };
  }
}
