package io.omnigraph.cli.nativelib;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.cli.CliRun;
import io.omnigraph.nativelib.NativeLibraryCache;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LanceExit}: Lance's dispatcher thread, which HotSpot's exit waits 0.3 s for while it is "in
 * native", ends up parked in Java, and a CLI process still exits with its own output and code. Each
 * case runs in a child JVM, because the parked dispatcher stays parked for the rest of a JVM's life.
 */
class LanceExitTest {
  @TempDir Path tmp;

  /**
   * Loads Lance, notes every thread's state, parks the dispatcher, then prints how the parked
   * thread was before (Lance names it only on the Rust side, so it is found by where it parks).
   */
  public static final class DispatcherProbe {
    public static void main(String[] args) throws Exception {
      Class.forName("org.lance.Dataset", true, DispatcherProbe.class.getClassLoader()); // loads the library
      Thread.sleep(500); // the dispatcher attaches itself from its own thread
      Map<Thread, String> before = new HashMap<>();
      Thread.getAllStackTraces().forEach((t, stack) -> before.put(t, describe(t, stack)));
      System.out.println("parked " + LanceExit.parkDispatcher(Duration.ofSeconds(30)));
      for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
        if (Arrays.toString(e.getValue()).contains("LanceExit.parkForever")) {
          System.out.println("before " + before.get(e.getKey()));
          System.out.println("after " + describe(e.getKey(), e.getValue()));
        }
      }
      System.exit(0);
    }

    /** The state and where the thread is: "native" when it has no Java frame (blocked in Rust). */
    static String describe(Thread t, StackTraceElement[] stack) {
      return t.getState() + " " + (stack.length == 0 ? "native" : Arrays.toString(stack));
    }
  }

  @Test
  void theDispatcherLeavesNativeCodeAndIsParkedInJava() {
    ChildJvm.Result r = ChildJvm.main(DispatcherProbe.class)
        .property(NativeLibraryCache.CACHE_PROPERTY, NativeLibraryCache.cacheRoot().toString())
        .run(Duration.ofMinutes(2));

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("parked true");
    assertThat(r.output()).as("before: a thread blocked in Rust with no Java frame, which HotSpot's exit waits for")
        .contains("before RUNNABLE native");
    assertThat(r.output()).as("after: the same thread parked in Java, which HotSpot's exit does not wait for")
        .containsPattern("after WAITING \\[.*LockSupport\\.park.*LanceExit.*AsyncScanner\\.completeTask");
  }

  @Test
  void aCliProcessThatLoadedLanceStillPrintsItsResultAndExitsWithItsCode() throws Exception {
    Path schema = Files.writeString(tmp.resolve("s.pg"), "node Person {\n  name: String @key\n}\n");
    String graph = tmp.resolve("g").toString();
    CliRun init = CliRun.of("init", "--schema", schema.toString(), graph);
    assertThat(init.exitCode()).as(init.err()).isZero();

    ChildJvm.Result list = cli("commit", "list", graph).stderrToParent().run(Duration.ofMinutes(2));
    assertThat(list.exitCode()).as(list.output()).isZero();
    assertThat(list.output()).isEqualTo(CliRun.of("commit", "list", graph).out());

    ChildJvm.Result missing = cli("commit", "show", "no-such-commit", graph).run(Duration.ofMinutes(2));
    assertThat(missing.exitCode()).as(missing.output()).isEqualTo(2);
    assertThat(missing.output()).contains("error: ");
  }

  private static ChildJvm cli(String... args) {
    return ChildJvm.main(io.omnigraph.cli.OmnigraphCli.class, args)
        .property(NativeLibraryCache.CACHE_PROPERTY, NativeLibraryCache.cacheRoot().toString());
  }
}
