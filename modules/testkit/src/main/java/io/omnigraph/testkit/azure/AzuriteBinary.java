package io.omnigraph.testkit.azure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the {@code azurite-blob} executable that the Maven build installed into the test kit's
 * project-local folder ({@code modules/testkit/azurite/node_modules}, from the committed
 * {@code package.json}/{@code package-lock.json}; never a global install).
 *
 * <p>Lookup order: the system property {@value #PROPERTY} (a path to the executable), then a walk
 * up from {@code user.dir} to the file system root, trying {@code modules/testkit/azurite/...}
 * and {@code azurite/...} below each directory. The walk makes any module's tests find the one
 * install without per-module configuration, because Surefire runs each module with
 * {@code user.dir} set to that module's directory inside the repository.
 */
public final class AzuriteBinary {
  /** System property that names the {@code azurite-blob} executable explicitly. */
  public static final String PROPERTY = "omnigraph.azurite.bin";

  private static final String RELATIVE_BIN = "azurite/node_modules/.bin/azurite-blob";

  private AzuriteBinary() {}

  /**
   * @return the path of an existing, executable {@code azurite-blob}
   * @throws IllegalStateException when none is found; the message lists every place tried and the
   *     command that installs it
   */
  public static Path locate() {
    String explicit = System.getProperty(PROPERTY);
    if (explicit != null && !explicit.isBlank()) {
      Path p = Path.of(explicit).toAbsolutePath();
      if (Files.isExecutable(p)) {
        return p;
      }
      throw new IllegalStateException("-D" + PROPERTY + "=" + explicit + " is not an executable file");
    }
    List<Path> tried = new ArrayList<>();
    for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
      for (Path candidate : List.of(dir.resolve("modules/testkit").resolve(RELATIVE_BIN), dir.resolve(RELATIVE_BIN))) {
        if (Files.isExecutable(candidate)) {
          return candidate;
        }
        tried.add(candidate);
      }
    }
    throw new IllegalStateException("azurite-blob not found; tried -D" + PROPERTY + " and " + tried
        + ". Install it with: ./mvnw -pl modules/testkit generate-resources"
        + " (runs modules/testkit/azurite/install.sh, i.e. npm ci; needs Node.js 20+ and npm)");
  }
}
