package io.omnigraph.cli.command;

import io.omnigraph.cli.OmnigraphCli;
import io.omnigraph.cli.VersionProvider;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code omnigraph version}: the release version (same as {@code --version}), or JSON. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the release version.")
public final class VersionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin OutputOptions output;

  @Override
  public Integer call() {
    var out = ((OmnigraphCli) spec.root().userObject()).terminal().out();
    if (output.json()) {
      out.println(io.omnigraph.cli.Json.write(io.omnigraph.cli.Json.object()
          .put("version", VersionProvider.version())
          .put("java", System.getProperty("java.version"))));
    } else {
      for (String line : new VersionProvider().getVersion()) {
        out.println(line.replace("${java.version}", System.getProperty("java.version"))
            .replace("${java.vendor}", System.getProperty("java.vendor"))
            .replace("${os.name}", System.getProperty("os.name"))
            .replace("${os.arch}", System.getProperty("os.arch")));
      }
    }
    return 0;
  }
}
