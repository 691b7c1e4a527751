package io.omnigraph.testkit.gcs;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts a {@link GcsEmulator} on 127.0.0.1 and a random port for a test class and stops it
 * afterwards. Register it on a static field for one emulator per class
 * ({@code @RegisterExtension static GcsEmulatorExtension gcs = new GcsEmulatorExtension();}),
 * or on an instance field for one per test. With a static field, {@code @Nested} classes share
 * the outer class's emulator. Test methods and constructors may also declare a
 * {@link GcsEmulator} parameter.
 */
public final class GcsEmulatorExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private GcsEmulator emulator;
  private boolean perClass;
  /** JUnit calls before/afterAll again for each {@code @Nested} class; only the outermost pair counts. */
  private int classDepth;

  /** @return the running emulator; fails when called outside the extension's lifetime */
  public GcsEmulator emulator() {
    if (emulator == null) {
      throw new IllegalStateException("the GCS emulator is not running (register the extension with @RegisterExtension)");
    }
    return emulator;
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws Exception {
    perClass = true;
    if (classDepth++ == 0) {
      emulator = GcsEmulator.start();
    }
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (--classDepth == 0) {
      stop();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    if (!perClass) {
      emulator = GcsEmulator.start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) throws ParameterResolutionException {
    return p.getParameter().getType() == GcsEmulator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) throws ParameterResolutionException {
    return emulator();
  }

  private void stop() {
    if (emulator != null) {
      emulator.close();
      emulator = null;
    }
  }
}
