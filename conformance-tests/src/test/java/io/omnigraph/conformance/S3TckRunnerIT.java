package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standalone runner jar against an s3proxy URI, started in a child JVM as a user starts it. */
class S3TckRunnerIT {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  private static final Pattern CLOSING = Pattern.compile("(?m)^(\\d+) passed, (\\d+) failed, (\\d+) skipped$");
  private static final List<String> GROUPS = List.of("ReadAndNotFound", "AtomicPut", "ConditionalPut", "Listing",
      "ListingFailure", "TempFileResidue", "Delete", "ErrorMapping", "PathValidation");

  private static Path jar;

  @BeforeAll
  static void findJar() {
    jar = Path.of(System.getProperty("omnigraph.tck.runnerJar", "target/missing-runner.jar"));
    assertThat(jar).as("runner jar (built by the package phase)").isRegularFile();
  }

  record Run(int exit, String out) {}

  static Run runJar(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C.UTF-8");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("runner exited").isTrue();
    return new Run(p.exitValue(), out);
  }

  private static List<String> s3Options(S3ProxyServer s3) {
    return List.of("--option", "endpoint=" + s3.endpoint(), "--option", "allow-http=true",
        "--option", "path-style=true", "--option", "region=" + S3ProxyServer.REGION,
        "--option", "access-key-id=" + S3ProxyServer.ACCESS_KEY_ID,
        "--option", "secret-access-key=" + S3ProxyServer.SECRET_ACCESS_KEY);
  }

  @Test
  void anS3proxyBucketPassesEveryGroupWithNoFailure() throws Exception {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    List<String> args = new ArrayList<>(List.of("--uri", "s3://" + bucket + "/tck"));
    args.addAll(s3Options(s3));
    args.addAll(List.of("--option", "list-page-size=100"));
    Run r = runJar(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.out()).isZero();
    for (String g : GROUPS) {
      assertThat(r.out()).as(r.out()).containsPattern("(?m)^" + g + " +\\d+ +0 +\\d+$");
    }
    Matcher m = CLOSING.matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isGreaterThanOrEqualTo(40);
    assertThat(m.group(2)).isEqualTo("0");
    // a user's store has no fault or residue hooks: those tests are skipped with the reason
    assertThat(r.out()).contains("supplies no FaultController");
    assertThat(s3.client().listObjectsV2(b -> b.bucket(bucket)).contents())
        .as("the run prefix is deleted afterwards").isEmpty();
  }

  @Test
  void aMissingBucketIsReportedAsConfigurationNotAsTestFailures() throws Exception {
    List<String> args = new ArrayList<>(List.of("--uri", "s3://no-such-bucket-for-runner/tck"));
    args.addAll(s3Options(S3.server()));
    Run r = runJar(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.out()).isEqualTo(2);
    assertThat(r.out()).contains("CONFIGURATION");
  }
}
