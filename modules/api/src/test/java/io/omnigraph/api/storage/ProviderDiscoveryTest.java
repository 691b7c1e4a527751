package io.omnigraph.api.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strict provider discovery, with real providers: two plain-jar providers are compiled at test time
 * into a directory with their {@code META-INF/services} file and loaded through a class loader, as
 * adapters on the class path are.
 */
class ProviderDiscoveryTest {
  @TempDir
  static Path tmp;

  private static URLClassLoader loader;

  private static String provider(String pkg, String cls, String scheme) {
    return "package " + pkg + ";\n"
        + "public final class " + cls + " implements io.omnigraph.api.storage.StorageAdapterProvider {\n"
        + "  public java.util.Set<String> schemes() { return java.util.Set.of(\"" + scheme + "\"); }\n"
        + "  public io.omnigraph.api.storage.StorageAdapter open(java.net.URI r, java.util.Map<String, String> o)\n"
        + "      throws io.omnigraph.api.storage.StorageException {\n"
        + "    throw new io.omnigraph.api.storage.StorageException(io.omnigraph.api.storage.StorageException.Kind.PERMANENT,"
        + " null, \"opened " + cls + "\");\n"
        + "  }\n"
        + "}\n";
  }

  @BeforeAll
  static void compileProviders() throws Exception {
    Path src = tmp.resolve("src");
    Path out = Files.createDirectories(tmp.resolve("classes"));
    Path a = src.resolve("dup/a/FirstProvider.java");
    Path b = src.resolve("dup/b/SecondProvider.java");
    Path c = src.resolve("solo/OnlyProvider.java");
    for (Path p : List.of(a, b, c)) {
      Files.createDirectories(p.getParent());
    }
    Files.writeString(a, provider("dup.a", "FirstProvider", "dup"));
    Files.writeString(b, provider("dup.b", "SecondProvider", "dup"));
    Files.writeString(c, provider("solo", "OnlyProvider", "solo"));
    String api = Path.of(StorageAdapterProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
    // javac as a process: the test runs inside the named module io.omnigraph.api, which does not read java.compiler
    Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
        "-d", out.toString(), "-classpath", api, a.toString(), b.toString(), c.toString())
        .redirectErrorStream(true).start();
    String log = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(javac.waitFor()).as(log).isZero();
    Path services = Files.createDirectories(out.resolve("META-INF/services"));
    Files.writeString(services.resolve(StorageAdapterProvider.class.getName()),
        "dup.a.FirstProvider\ndup.b.SecondProvider\nsolo.OnlyProvider\n", StandardCharsets.UTF_8);
    loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, StorageAdapterProvider.class.getClassLoader());
  }

  @AfterAll
  static void closeLoader() throws Exception {
    loader.close();
  }

  @Test
  void twoProvidersForOneSchemeAreRefusedNamingBothClasses() {
    assertThatThrownBy(() -> StorageAdapters.provider("dup", null, loader))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.kind()).isEqualTo(StorageException.Kind.CONFIGURATION);
          assertThat(e.getMessage()).contains("'dup'").contains("dup.a.FirstProvider").contains("dup.b.SecondProvider");
        });
  }

  @Test
  void theSingleProviderOfASchemeIsTheOneThatOpens() {
    assertThatThrownBy(() -> StorageAdapters.open(java.net.URI.create("solo://x"), java.util.Map.of(), null, loader))
        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage()).contains("opened OnlyProvider"));
  }

  @Test
  void anUnknownSchemeListsEverySchemeThatIsAvailable() {
    assertThatThrownBy(() -> StorageAdapters.provider("nope", null, loader))
        .isInstanceOfSatisfying(StorageException.class, e -> {
          assertThat(e.kind()).isEqualTo(StorageException.Kind.CONFIGURATION);
          assertThat(e.getMessage()).contains("'nope'").contains("dup").contains("solo");
        });
  }

  @Test
  void aProviderSeenThroughTheLayerAndTheLoaderCountsOnce() throws Exception {
    assertThat(StorageAdapters.providersByScheme(ModuleLayer.boot(), loader).get("solo")).hasSize(1);
  }
}
