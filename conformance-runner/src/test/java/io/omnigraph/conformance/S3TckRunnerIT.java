package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.conformance.RunnerJar.Run;
import io.omnigraph.testkit.s3.S3ProxyExtension;
import io.omnigraph.testkit.s3.S3ProxyServer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The standalone runner jar against an s3proxy URI, started in a child JVM as a user starts it. */
class S3TckRunnerIT {
  @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();

  private static List<String> s3Options(S3ProxyServer s3) {
    return List.of("--option", "endpoint=" + s3.endpoint(), "--option", "allow-http=true",
        "--option", "path-style=true", "--option", "region=" + S3ProxyServer.REGION,
        "--option", "access-key-id=" + S3ProxyServer.ACCESS_KEY_ID,
        "--option", "secret-access-key=" + S3ProxyServer.SECRET_ACCESS_KEY);
  }

  @Test
  void anS3proxyBucketIsCertifiedThroughAVendorBindingWithNothingSkipped() throws Exception {
    S3ProxyServer s3 = S3.server();
    s3.serializeReadsPerKey(); // reads racing writes of a key answer as S3 does (old or new state)
    String bucket = s3.createBucket();
    List<String> args = new ArrayList<>(List.of("--uri", "s3://" + bucket + "/tck", "--certify"));
    args.addAll(s3Options(s3));
    args.addAll(List.of("--option", "list-page-size=100"));
    Run r = RunnerJar.runWithTestClasses(args.toArray(String[]::new));
    Matcher m = RunnerJar.assertEveryGroupPassed(r);
    assertThat(m.group(3)).as(r.out()).isEqualTo("0");
    assertThat(r.out()).contains("faults and residue from the vendor binding " + S3VendorBinding.class.getName())
        .contains("CERTIFIED: every test ran and passed");
    assertThat(s3.client().listObjectsV2(b -> b.bucket(bucket)).contents())
        .as("the run prefix is deleted afterwards").isEmpty();
  }

  @Test
  void withoutAVendorBindingTheStrictRunnerFailsEveryTestItCannotRun() throws Exception {
    S3ProxyServer s3 = S3.server();
    String bucket = s3.createBucket();
    List<String> args = new ArrayList<>(List.of("--uri", "s3://" + bucket + "/tck", "--select", "ErrorMapping",
        "--select", "TempFileResidue"));
    args.addAll(s3Options(s3));
    Run r = RunnerJar.run(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.out()).isEqualTo(1);
    assertThat(r.out()).contains("faults unavailable").contains("strict mode")
        .contains("supplies no FaultController").contains("supplies no ResidueMaker");
    Matcher m = RunnerJar.CLOSING.matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    assertThat(m.group(3)).as("nothing is skipped in strict mode").isEqualTo("0");
    assertThat(Integer.parseInt(m.group(2))).as(r.out()).isGreaterThanOrEqualTo(10);
  }

  @Test
  void aMissingBucketIsReportedAsConfigurationNotAsTestFailures() throws Exception {
    List<String> args = new ArrayList<>(List.of("--uri", "s3://no-such-bucket-for-runner/tck"));
    args.addAll(s3Options(S3.server()));
    Run r = RunnerJar.run(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.out()).isEqualTo(2);
    assertThat(r.out()).contains("CONFIGURATION");
  }
}
