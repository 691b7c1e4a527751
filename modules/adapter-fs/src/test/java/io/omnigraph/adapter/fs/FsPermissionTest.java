package io.omnigraph.adapter.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory the process may not enter or read makes every operation fail with PERMISSION — never
 * "not found", never {@code false}, never an empty listing.
 *
 * <p>chmod only denies a process that lacks {@code CAP_DAC_OVERRIDE}; the build often runs as root,
 * which has it. So the same probe runs twice: in this JVM (skipped, with the reason, when this JVM
 * is privileged) and in a child JVM started by {@code setpriv} with {@code CAP_DAC_OVERRIDE} and
 * {@code CAP_DAC_READ_SEARCH} removed from its bounding set (skipped, with the reason, when this
 * JVM is not root or {@code setpriv} is missing — then the in-JVM run is the real one).
 */
class FsPermissionTest {
  private static final List<String> EXPECTED = List.of("list PERMISSION", "readTextIfExists PERMISSION",
      "readText PERMISSION", "exists PERMISSION", "put PERMISSION", "putIfAbsent PERMISSION", "delete PERMISSION");

  @TempDir
  Path tmp;

  private Path root;
  private Path locked;

  @BeforeEach
  void lockADirectory() throws Exception {
    root = tmp.resolve("root");
    try (StorageAdapter a = new FsStorageAdapterProvider().open(root.toUri(), Map.of())) {
      a.put("locked/x", new byte[] {42}, WriteCondition.overwrite());
    }
    locked = root.resolve("locked");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
  }

  @AfterEach
  void unlock() throws Exception {
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void everyOperationOnAnUnreadableDirectoryFailsWithPermissionInThisJvm() throws Exception {
    Assumptions.assumeFalse(Files.isReadable(locked) || Files.isWritable(locked),
        "this JVM bypasses file permissions (root with CAP_DAC_OVERRIDE): chmod 000 cannot deny it access; "
            + "everyOperationOnAnUnreadableDirectoryFailsWithPermissionInAnUnprivilegedChildJvm covers this case");
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.out;
    System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      PermissionProbe.main(new String[] {root.toString()});
    } finally {
      System.setOut(old);
    }
    assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8).lines()).containsExactlyElementsOf(EXPECTED);
  }

  @Test
  void everyOperationOnAnUnreadableDirectoryFailsWithPermissionInAnUnprivilegedChildJvm() throws Exception {
    Path setpriv = Path.of("/usr/bin/setpriv");
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(setpriv),
        "needs root and /usr/bin/setpriv to start a JVM without CAP_DAC_OVERRIDE; when not root, "
            + "everyOperationOnAnUnreadableDirectoryFailsWithPermissionInThisJvm is the real check");
    ChildJvm.Result r = ChildJvm.main(PermissionProbe.class, root.toString())
        .wrappedIn(setpriv.toString(), "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all", "--").run();
    String out = r.output();
    assertThat(r.exitCode()).as(out).isZero();
    assertThat(out.lines()).as(out).containsExactlyElementsOf(EXPECTED);
  }
}
