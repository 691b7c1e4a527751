package io.omnigraph.cli.command;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.cli.Json;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omnigraph quickstart [dir]}: a first run that shows each step.
 *
 * <p>Interim version until the engine lands: it opens the local root through
 * {@link StorageAdapters} (the file-system adapter, found by ServiceLoader), writes, lists and reads
 * back one control file, and prints each step.
 */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    description = "Create a demo graph on local disk and show each step (default dir: ./quickstart-graph).")
public final class QuickstartCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin OutputOptions output;

  @Parameters(index = "0", arity = "0..1", paramLabel = "<dir>", description = "Directory for the demo graph.")
  Path dir = Path.of("quickstart-graph");

  @Override
  public Integer call() throws StorageException {
    PrintWriter out = spec.commandLine().getOut();
    Path root = dir.toAbsolutePath().normalize();
    ObjectNode result = Json.object();
    result.put("root", root.toUri().toString());
    ArrayNode steps = result.putArray("steps");

    try (StorageAdapter adapter = StorageAdapters.open(root.toString(), Map.of())) {
      step(out, steps, "opened " + root.toUri() + " with " + adapter.capabilities());

      String path = "quickstart/hello.txt";
      String version = adapter.put(path, "hello from omnigraph\n".getBytes(StandardCharsets.UTF_8),
          new WriteCondition.Overwrite());
      step(out, steps, "wrote " + path + " (version " + version + ")");

      StringBuilder names = new StringBuilder();
      try (ObjectListing listing = adapter.list("quickstart")) {
        while (listing.hasNext()) {
          names.append(names.length() == 0 ? "" : ", ").append(listing.next());
        }
      }
      step(out, steps, "listed quickstart/: " + names);

      String text = adapter.readText(path);
      step(out, steps, "read back " + path + ": " + text.strip());
    }
    step(out, steps, "the engine is not on this build yet: no graph was created");
    if (output.json()) {
      out.println(Json.write(result));
    }
    out.flush();
    return 0;
  }

  private void step(PrintWriter out, ArrayNode steps, String line) {
    steps.add(line);
    if (!output.json()) {
      out.println("[quickstart] " + line);
    }
  }
}
