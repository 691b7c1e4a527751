package io.omnigraph.testkit.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildJvmTest {
  @TempDir Path tmp;

  /** Prints its arguments, a system property, its temp dir and LC_ALL, then exits with the code in args[0]. */
  public static final class Echo {
    public static void main(String[] args) throws Exception {
      System.out.println("args " + String.join(",", args));
      System.out.println("prop " + System.getProperty("childjvm.test"));
      System.out.println("tmp " + System.getProperty("java.io.tmpdir"));
      System.out.println("lc " + System.getenv("LC_ALL"));
      System.err.println("on stderr");
      if (args.length > 1 && args[1].equals("hang")) {
        System.out.flush();
        Thread.sleep(600_000);
      }
      System.exit(Integer.parseInt(args[0]));
    }
  }

  @Test
  void runsAMainOfTheTestCodeWithArgumentsPropertiesAndMergedOutput() {
    ChildJvm.Result r = ChildJvm.main(Echo.class, "7", "b c").property("childjvm.test", "x=1").run();
    assertThat(r.exitCode()).as(r.output()).isEqualTo(7);
    assertThat(r.output().lines()).contains("args 7,b c", "prop x=1", "lc C.UTF-8", "on stderr",
        "tmp " + System.getProperty("java.io.tmpdir"));
  }

  @Test
  void aLoggedChildHasAPrivateTempDirThatIsDeletedAndCanBeKilled() throws IOException {
    Path root = tmp.resolve("children");
    try (ChildJvm.Running r = ChildJvm.main(Echo.class, "0", "hang").startLogged(root)) {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (!r.output().contains("lc ") && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(r.output()).contains("tmp " + root.resolve("child-tmp-"));
      ChildJvm.Result killed = r.kill();
      assertThat(killed.exitCode()).isNotZero();
      assertThat(killed.output()).contains("args 0,hang");
    }
    try (var children = Files.list(root)) {
      assertThat(children).isEmpty();
    }
  }

  @Test
  void aJarOrRawJavaCommandGetsExactlyTheGivenArguments() {
    List<String> cmd = ChildJvm.java(List.of("-version")).wrappedIn("env", "--").command();
    assertThat(cmd).containsExactly("env", "--", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-version");
    assertThat(ChildJvm.jar(Path.of("r.jar"), List.of("--help")).command()).endsWith("-jar", "r.jar", "--help")
        .noneMatch(a -> a.startsWith("-XX:"));
    ChildJvm.Result r = ChildJvm.java(List.of("-version")).run();
    assertThat(r.exitCode()).isZero();
    assertThat(r.output()).contains("version");
    assertThat(ChildJvm.main(Echo.class).measured().command()).doesNotContain("-XX:TieredStopAtLevel=1")
        .contains("-Xshare:auto");
    assertThat(ChildJvm.main(Echo.class).properties(Map.of("a", "b")).option("-Xmx64m").command())
        .containsSubsequence("-Xmx64m", "-Da=b", "-cp");
  }

  @Test
  void outputOfAPipedChildIsReadToTheEnd() {
    Process p = ChildJvm.main(Echo.class, "3").stderrToParent().start();
    String out = ChildJvm.output(p, ChildJvm.GUARD);
    assertThat(p.exitValue()).isEqualTo(3);
    assertThat(out).contains("args 3").doesNotContain("on stderr");
  }
}
