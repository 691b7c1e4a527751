package io.omnigraph.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.omnigraph.cli.CliRun;
import io.omnigraph.cli.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code ./omnigraph} command of the README — the fenced {@code sh} blocks in order, then
 * the inline ones — in process against a copy of {@code examples/} in a temporary directory, and
 * checks that each exits 0 (a {@code | grep} must match). Relative paths are resolved in the
 * temporary directory; {@code <commit id>} is the newest commit of {@code ./my-library}. Not run:
 * {@code ./mvnw verify} (the build itself) and the block that starts {@code serve} and calls it with
 * {@code curl}, which {@link ReadmeServeTest} runs as written against a child JVM.
 */
class ReadmeCommandsTest {
  @TempDir Path tmp;

  static Path repo() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("examples")))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new AssertionError("no README.md with examples/ above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  /** The README's commands: fenced sh blocks in order, then inline `./omnigraph ...` spans. */
  static List<List<String>> readmeCommands(String readme) {
    List<List<String>> out = new ArrayList<>();
    Matcher blocks = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    while (blocks.find()) {
      String block = blocks.group(1);
      if (block.contains("./omnigraph serve")) {
        continue; // serve + curl: ReadmeServeTest
      }
      out.addAll(commands(block));
    }
    Matcher inline = Pattern.compile("`(\\./omnigraph [^`]+)`").matcher(readme);
    while (inline.find()) {
      out.addAll(commands(inline.group(1) + "\n"));
    }
    out.removeIf(c -> c.isEmpty() || !c.get(0).equals("./omnigraph"));
    return out;
  }

  /** A small shell-word splitter: quotes, backslash-newline, comments, and the operators > | &. */
  static List<List<String>> commands(String text) {
    text = text.replace("<commit id>", "@COMMIT@");
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    StringBuilder tok = null;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (quote == '"' && c == '\\' && i + 1 < text.length() && "\"\\$`".indexOf(text.charAt(i + 1)) >= 0) {
          tok.append(text.charAt(++i));
        } else {
          tok.append(c);
        }
        continue;
      }
      if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
        i++;
        c = ' ';
      }
      if (c == ' ' || c == '\t' || c == '\n') {
        if (tok != null) {
          cur.add(tok.toString());
          tok = null;
        }
        if (c == '\n' && !cur.isEmpty()) {
          out.add(cur);
          cur = new ArrayList<>();
        }
        continue;
      }
      if (c == '#' && tok == null) {
        while (i + 1 < text.length() && text.charAt(i + 1) != '\n') {
          i++;
        }
        continue;
      }
      if ((c == '>' || c == '|' || c == '&') && tok == null) {
        cur.add(String.valueOf(c));
        continue;
      }
      if (tok == null) {
        tok = new StringBuilder();
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else {
        tok.append(c);
      }
    }
    if (tok != null) {
      cur.add(tok.toString());
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }

  private String path(String arg) {
    if (arg.startsWith("./")) {
      return tmp.resolve(arg.substring(2)).toString();
    }
    if (arg.startsWith("examples/") || arg.equals("quickstart-graph") || arg.matches("[a-z-]+\\.(pg|ndjson|gq)")) {
      return tmp.resolve(arg).toString();
    }
    return arg;
  }

  private String newestCommit(String graph) {
    CliRun list = CliRun.of("commit", "list", graph, "--json");
    assertThat(list.exitCode()).as(list.err()).isZero();
    return Json.parseObject(list.out().strip()).get("commits").get(0).get("graph_commit_id").asText();
  }

  @Test
  void everyReadmeCommandRunsAgainstTheExampleFiles() throws IOException {
    Path repo = repo();
    try (Stream<Path> files = Files.list(repo.resolve("examples"))) {
      Files.createDirectories(tmp.resolve("examples"));
      for (Path f : files.toList()) {
        Files.copy(f, tmp.resolve("examples").resolve(f.getFileName()));
      }
    }
    List<List<String>> commands = readmeCommands(Files.readString(repo.resolve("README.md")));
    assertThat(commands).as("README commands").hasSizeGreaterThan(15);
    int ran = 0;
    for (List<String> command : commands) {
      List<String> args = new ArrayList<>();
      Path redirect = null;
      String grep = null;
      for (int i = 1; i < command.size(); i++) {
        String a = command.get(i);
        if (a.equals(">")) {
          redirect = Path.of(path(command.get(++i)));
        } else if (a.equals("|")) {
          assertThat(command.get(i + 1)).as("only '| grep' is supported: " + command).isEqualTo("grep");
          grep = command.get(i + 2);
          i += 2;
        } else if (a.equals("@COMMIT@")) {
          args.add(newestCommit(tmp.resolve("my-library").toString()));
        } else {
          args.add(path(a));
        }
      }
      if (args.equals(List.of("quickstart"))) {
        args.add(tmp.resolve("quickstart-graph").toString());
      }
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertThat(run.exitCode()).as("%s%n%s%s", String.join(" ", command), run.out(), run.err()).isZero();
      if (redirect != null) {
        Files.writeString(redirect, run.out(), StandardCharsets.UTF_8);
      }
      if (grep != null) {
        String g = grep;
        assertThat(run.out().lines().filter(l -> l.contains(g))).as("grep %s in %s", g, run.out()).isNotEmpty();
      }
      ran++;
    }
    assertThat(ran).isEqualTo(commands.size());
    // the example graph converged: a second merge load of the keyed edges added none
    CliRun wrote = CliRun.of("export", tmp.resolve("example-library").toString(), "--type", "Wrote");
    assertThat(wrote.out().lines()).hasSize(4);
  }

  /** Every `--option key=value` in a fenced block of the README and docs/ is a key its root's adapter accepts. */
  @Test
  void everyDocumentedStorageOptionIsOneTheAdapterAccepts() throws IOException {
    Path repo = repo();
    List<Path> docs = new ArrayList<>(List.of(repo.resolve("README.md")));
    try (Stream<Path> s = Files.list(repo.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    int checked = 0;
    for (Path doc : docs) {
      Matcher blocks = Pattern.compile("```(?:sh|bash)?\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(doc));
      while (blocks.find()) {
        for (List<String> command : commands(blocks.group(1))) {
          String root = command.stream().filter(a -> a.matches("(s3|gs|az)://.*")).findFirst().orElse(null);
          Map<String, String> options = new LinkedHashMap<>();
          for (int i = 0; i + 1 < command.size(); i++) {
            if (command.get(i).equals("--option") && command.get(i + 1).contains("=")) {
              String kv = command.get(i + 1);
              options.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
          }
          if (root == null || options.isEmpty()) {
            continue;
          }
          String where = doc.getFileName() + ": " + String.join(" ", command);
          assertThatCode(() -> StorageOptionKeys.check(root, options)).as(where).doesNotThrowAnyException();
          checked++;
        }
      }
    }
    assertThat(checked).as("documented commands with --option").isPositive();
  }
}
