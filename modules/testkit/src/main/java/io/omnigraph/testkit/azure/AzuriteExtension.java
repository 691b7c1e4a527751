package io.omnigraph.testkit.azure;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that provides a running {@link Azurite}.
 *
 * <p>One Azurite serves the whole test run (JVM): it is started by the first test class that needs
 * it and stopped when the JUnit root context closes, i.e. after the last test. Tests isolate
 * themselves with {@link Azurite#createContainer()} (a fresh container each). Tests that must stop
 * or break the emulator start their own with {@link Azurite#start()} instead.
 *
 * <p>Use it as {@code @ExtendWith(AzuriteExtension.class)} with an {@code Azurite} parameter on a
 * test, lifecycle method or constructor, or as
 * {@code @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();} and
 * call {@link #azurite()}.
 */
public final class AzuriteExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(AzuriteExtension.class);

  private volatile Azurite azurite;

  @Override
  public void beforeAll(ExtensionContext context) {
    azurite = shared(context);
  }

  /**
   * @return the running Azurite
   * @throws IllegalStateException when called before the extension's {@code beforeAll}
   */
  public Azurite azurite() {
    Azurite a = azurite;
    if (a == null) {
      throw new IllegalStateException("Azurite is not started yet: use it from a test or @BeforeAll/@BeforeEach");
    }
    return a;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == Azurite.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return shared(extensionContext);
  }

  private static Azurite shared(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        // JUnit closes AutoCloseable store values when the store's context closes: here the root
        // context, after the last test of the run.
        .getOrComputeIfAbsent(Azurite.class, k -> Azurite.start(), Azurite.class);
  }
}
