package io.omnigraph.engine.gq;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Deliberately violates the front-end rule: a .gq front-end class reading a file. Never called. */
public final class RogueGqIncludeReader {
  private RogueGqIncludeReader() {}

  static String include(String name) throws IOException {
    return Files.readString(Path.of(name));
  }
}
