package io.omnigraph.engine.load;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A load's input that remembers the {@link IOException}s its own reads threw, so a failure can be
 * blamed on the input only when the input failed: Lance's native binding can throw an undeclared
 * {@code IOException} for the graph's storage, which must be reported as a storage failure, never
 * as "cannot read the input" (docs/errors.md).
 */
public final class TrackedInput extends FilterInputStream {
  private final Set<IOException> thrown = Collections.newSetFromMap(new IdentityHashMap<>());

  /** @param in the input */
  public TrackedInput(InputStream in) {
    super(in);
  }

  /**
   * @param e a failure caught around a load
   * @return true if one of this input's own reads (or its close) threw {@code e}
   */
  public boolean threw(IOException e) {
    return thrown.contains(e);
  }

  private IOException seen(IOException e) {
    thrown.add(e);
    return e;
  }

  @Override
  public int read() throws IOException {
    try {
      return super.read();
    } catch (IOException e) {
      throw seen(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (IOException e) {
      throw seen(e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return super.skip(n);
    } catch (IOException e) {
      throw seen(e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } catch (IOException e) {
      throw seen(e);
    }
  }
}
