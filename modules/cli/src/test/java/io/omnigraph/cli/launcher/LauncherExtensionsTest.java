package io.omnigraph.cli.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import io.omnigraph.cli.launcher.LauncherLayout.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's two class paths (docs/cli.md, "Start-up"): the cloud adapters, the TCK and the jars
 * only they need are extensions, in {@code target/lib/ext}, and the launcher puts them on the class
 * path only for a call that may need them — a root of a scheme other than {@code file} (argument or
 * {@code OMNIGRAPH_STORE}), {@code tck}, an {@code @file} argument. Every other call (a local
 * {@code commit list}) runs without them. Runs the real {@code ./omnigraph} in a repository copy
 * ({@link LauncherLayout}); five launcher calls, no class-data archive (a few seconds each).
 */
class LauncherExtensionsTest {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  @TempDir Path tmp;

  @Test
  void mavenPutsTheCloudSdksAndTheTckInTheExtensionsAndNotOnTheClisClassPath() throws Exception {
    List<String> cli = LauncherLayout.classPath("cli").stream().map(p -> p.getFileName().toString()).toList();
    List<String> ext = LauncherLayout.classPath("ext").stream().map(p -> p.getFileName().toString()).toList();

    List<String> extensionJars = List.of("omnigraph-adapter-s3-", "omnigraph-adapter-gcs-", "omnigraph-adapter-azure-",
        "omnigraph-conformance-", "s3-2", "google-cloud-storage-", "azure-storage-blob-", "junit-platform-launcher-",
        "assertj-core-", "byte-buddy-");
    for (String prefix : extensionJars) {
      assertThat(ext).as("extensions").anyMatch(n -> n.startsWith(prefix));
      assertThat(cli).as("the CLI's own class path").noneMatch(n -> n.startsWith(prefix));
    }
    assertThat(cli).anyMatch(n -> n.startsWith("omnigraph-engine-")).anyMatch(n -> n.startsWith("omnigraph-adapter-fs-"))
        .anyMatch(n -> n.startsWith("lance-core-")).anyMatch(n -> n.startsWith("picocli-"));
    assertThat(cli).as("no jar in both").doesNotContainAnyElementsOf(ext);
    assertThat(cli.size()).as("the CLI's own class path stays short").isLessThan(60);
  }

  @Test
  void onlyCallsThatMayNeedAnAdapterOrTheTckGetTheExtensionClassPath() throws Exception {
    Path repo = tmp.resolve("repo");
    LauncherLayout.assemble(repo);
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person {\n  name: String @key\n}\n");
    Path data = Files.writeString(tmp.resolve("p.ndjson"), "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n");

    // A local graph: init and commit list run without the extensions.
    Path local = tmp.resolve("graph");
    Run init = launcher(repo, Map.of(), "init", "--schema", schema.toString(), local.toString());
    assertThat(init.code()).as(init.err()).isZero();
    assertThat(init.classPath()).as("class path of a local init").noneMatch(e -> e.contains("/lib/ext/"));
    Run list = launcher(repo, Map.of(), "commit", "list", local.toString());
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out()).contains("(genesis)");
    assertThat(list.classPath()).as("class path of a local commit list").noneMatch(e -> e.contains("/lib/ext/"));

    // An s3:// root (in an argument, then in OMNIGRAPH_STORE): the extensions are on the class path and the adapter works.
    S3ProxyServer server = S3.server();
    String root = "s3://" + server.createBucket() + "/graphs/launcher";
    List<String> options = List.of("--option", "endpoint=" + server.endpoint(), "--option", "allow-http=true",
        "--option", "path-style=true", "--option", "region=" + S3ProxyServer.REGION,
        "--option", "access-key-id=" + S3ProxyServer.ACCESS_KEY_ID,
        "--option", "secret-access-key=" + S3ProxyServer.SECRET_ACCESS_KEY);
    List<String> args = new ArrayList<>(List.of("init", "--schema", schema.toString(), root));
    args.addAll(options);
    Run s3Init = launcher(repo, Map.of(), args.toArray(String[]::new));
    assertThat(s3Init.code()).as(s3Init.err()).isZero();
    assertThat(s3Init.classPath()).as("class path of an s3:// init").anyMatch(e -> e.contains("/lib/ext/"));
    args = new ArrayList<>(List.of("load", "--mode", "overwrite", "--data", data.toString()));
    args.addAll(options);
    Run s3Load = launcher(repo, Map.of("OMNIGRAPH_STORE", root), args.toArray(String[]::new));
    assertThat(s3Load.code()).as(s3Load.err()).isZero();
    assertThat(s3Load.out()).contains("1 row");
    assertThat(s3Load.classPath()).as("class path with OMNIGRAPH_STORE=s3://...").anyMatch(e -> e.contains("/lib/ext/"));

    // tck: the conformance runner (JUnit) is an extension.
    Path tckRoot = Files.createDirectory(tmp.resolve("tck"));
    Run tck = launcher(repo, Map.of(), "tck", "--uri", tckRoot.toString(), "--select", "PathValidation");
    assertThat(tck.code()).as(tck.out() + tck.err()).isZero();
    assertThat(tck.out()).contains("0 failed");
  }

  private Run launcher(Path repo, Map<String, String> env, String... args) throws Exception {
    Map<String, String> all = new HashMap<>(Map.of("OMNIGRAPH_CDS", "0", "OMNIGRAPH_JAVA_OPTS", "-XshowSettings:properties"));
    all.putAll(env);
    return LauncherLayout.run(repo, tmp, all, args);
  }
}
