package io.omnigraph.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;

/** Passes on only the export lines whose {@code type} or {@code edge} is one of the given names. */
final class TypeFilterOutputStream extends OutputStream {
  private final OutputStream out;
  private final Set<String> names;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

  TypeFilterOutputStream(OutputStream out, Set<String> names) {
    this.out = out;
    this.names = names;
  }

  @Override
  public void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') {
      endLine();
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i + 1 - start);
        endLine();
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
  }

  private void endLine() throws IOException {
    byte[] bytes = line.toByteArray();
    line.reset();
    if (keep(bytes)) {
      out.write(bytes);
    }
  }

  private boolean keep(byte[] bytes) throws IOException {
    try (JsonParser p = Wire.JSON.getFactory().createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        JsonToken v = p.nextToken();
        if ((f.equals("type") || f.equals("edge")) && v == JsonToken.VALUE_STRING) {
          return names.contains(p.getText());
        }
        p.skipChildren();
      }
      return false;
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (line.size() > 0) {
      endLine();
    }
    out.close();
  }
}
