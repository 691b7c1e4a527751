package io.omnigraph.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MergeOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.QueryParams;
import io.omnigraph.api.SchemaApplyOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every write path leaves a local graph readable by another user as the umask allows (issue 17
 * item 4, docs/cli.md "File modes"): after each write — init, load, mutation, ensure-indices,
 * schema apply, branch create, a load on a branch, merge (deleting the branch), optimize — every
 * file has the read bits {@code 0444 & ~umask} and every directory {@code 0555 & ~umask}. Checked
 * after each step, so a later step's fix cannot hide an earlier one's private files. (Lance writes
 * its data, transaction, deletion and hint files 0600: without LocalFileModes this fails at the
 * first load.)
 */
class LocalFileModesTest {
  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      edge Knows: Person -> Person
      """;
  static final String ADD = "query add($n: String) { insert Person { name: $n } }";

  @TempDir Path tmp;

  @Test
  void everyWritePathLeavesEveryFileReadableAsTheUmaskAllows() throws IOException {
    int umask = LocalFileModes.umask();
    Assumptions.assumeTrue((umask & 0044) == 0, "the umask grants group and others read (else nothing to check)");
    Path root = tmp.resolve("g");
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      assertReadable(root, "init");
      load(g, null, """
          {"type":"Person","data":{"name":"a","age":1}}
          {"type":"Person","data":{"name":"b"}}
          {"edge":"Knows","from":"a","to":"b","data":{}}
          """);
      assertReadable(root, "load");
      g.mutate(ADD, "add", QueryParams.of(java.util.Map.of("n", "c")), MutationOptions.defaults());
      assertReadable(root, "mutate");
      g.ensureIndices();
      assertReadable(root, "ensure-indices");
      g.applySchema(SCHEMA.replace("age: I32?", "age: I32?\n  city: String?"), SchemaApplyOptions.defaults());
      assertReadable(root, "schema apply");
      g.createBranch("f", null);
      assertReadable(root, "branch create");
      load(g, "f", "{\"type\":\"Person\",\"data\":{\"name\":\"d\"}}\n");
      assertReadable(root, "load on a branch");
      g.mutate(ADD, "add", QueryParams.of(java.util.Map.of("n", "e")), MutationOptions.defaults());
      g.merge("f", null, new MergeOptions(null, null, true));
      assertReadable(root, "merge (and the branch delete)");
      g.optimize();
      assertReadable(root, "optimize");
    }
  }

  /**
   * A proven-insert merge of several links makes intermediate versions of the target's table and
   * does not walk the graph afterwards (docs/cli.md, "File modes"): the chain's sync fixes each
   * version's manifest and transaction file, the adopted data files keep the source's modes.
   */
  @Test
  void aProvenInsertMergeOfSeveralLinksLeavesEveryFileReadable() throws IOException {
    int umask = LocalFileModes.umask();
    Assumptions.assumeTrue((umask & 0044) == 0, "the umask grants group and others read (else nothing to check)");
    Path root = tmp.resolve("p");
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA)) {
      load(g, null, "{\"type\":\"Person\",\"data\":{\"name\":\"a\"}}\n");
      g.createBranch("f", null);
      for (String name : List.of("b", "c", "d")) {
        g.load(LoadMode.APPEND, new ByteArrayInputStream(("{\"type\":\"Person\",\"data\":{\"name\":\"" + name
            + "\"}}\n").getBytes(StandardCharsets.UTF_8)), LoadOptions.defaults().withBranch("f"));
      }
      io.omnigraph.api.MergeResult r = g.merge("f", null, MergeOptions.defaults());
      assertThat(r.tables().get("node:Person").route()).isEqualTo("proven_insert");
      assertThat(r.tables().get("node:Person").transactions()).as("one transaction per link").isEqualTo(3);
      assertReadable(root, "a proven-insert merge of three links");
    }
  }

  /** Automatic maintenance compacts after the write (docs/maintenance.md); its files too. */
  @Test
  void automaticMaintenanceLeavesEveryFileReadable() throws IOException {
    int umask = LocalFileModes.umask();
    Assumptions.assumeTrue((umask & 0044) == 0, "the umask grants group and others read (else nothing to check)");
    Path root = tmp.resolve("m");
    io.omnigraph.api.OpenOptions options =
        io.omnigraph.api.OpenOptions.defaults().withMaintenance(io.omnigraph.api.MaintenancePolicy.atFragments(2));
    try (Graph g = Omnigraph.init(root.toString(), SCHEMA, options)) {
      int maintained = 0;
      for (int i = 0; i < 6; i++) {
        g.mutate(ADD, "add", QueryParams.of(java.util.Map.of("n", "p" + i)), MutationOptions.defaults());
      }
      for (io.omnigraph.api.CommitInfo c : g.commits()) {
        if (io.omnigraph.api.MaintenancePolicy.COMMIT_MESSAGE.equals(c.message())) {
          maintained++;
        }
      }
      assertThat(maintained).as("automatic maintenance ran").isPositive();
      assertReadable(root, "automatic maintenance");
    }
  }

  private static void load(Graph g, String branch, String ndjson) {
    LoadOptions options = branch == null ? LoadOptions.defaults() : LoadOptions.defaults().withBranch(branch);
    g.load(LoadMode.MERGE, new ByteArrayInputStream(ndjson.getBytes(StandardCharsets.UTF_8)), options);
  }

  private static void assertReadable(Path root, String after) throws IOException {
    int umask = LocalFileModes.umask();
    Set<PosixFilePermission> fileBits = PosixFilePermissions.fromString(mode(0444 & ~umask));
    Set<PosixFilePermission> dirBits = PosixFilePermissions.fromString(mode(0555 & ~umask));
    List<String> private_ = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.toList()) {
        if (Files.isSymbolicLink(p)) {
          continue;
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
        if (!perms.containsAll(Files.isDirectory(p) ? dirBits : fileBits)) {
          private_.add(PosixFilePermissions.toString(perms) + " " + root.relativize(p));
        }
      }
    }
    assertThat(private_).as("files another user with read access could not read after " + after).isEmpty();
  }

  private static String mode(int bits) {
    StringBuilder b = new StringBuilder();
    String letters = "rwxrwxrwx";
    for (int i = 8; i >= 0; i--) {
      b.append((bits & (1 << i)) != 0 ? letters.charAt(8 - i) : '-');
    }
    return b.toString();
  }
}
