package io.omnigraph.testkit.s3;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that provides a running {@link S3ProxyServer} (s3proxy in-process).
 *
 * <p>One server serves the whole test run (JVM): it is started by the first test class that needs
 * it and stopped when the JUnit root context closes, after the last test. Tests isolate
 * themselves with {@link S3ProxyServer#createBucket()}. Tests that must stop or break the server
 * start their own with {@link S3ProxyServer#start()}.
 *
 * <p>Use it as {@code @ExtendWith(S3ProxyExtension.class)} with an {@code S3ProxyServer}
 * parameter on a test, lifecycle method or constructor, or as
 * {@code @RegisterExtension static final S3ProxyExtension S3 = new S3ProxyExtension();} and call
 * {@link #server()}.
 */
public final class S3ProxyExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(S3ProxyExtension.class);

  private volatile S3ProxyServer server;

  @Override
  public void beforeAll(ExtensionContext context) {
    server = shared(context);
  }

  /**
   * @return the running server
   * @throws IllegalStateException when called before the extension's {@code beforeAll}
   */
  public S3ProxyServer server() {
    S3ProxyServer s = server;
    if (s == null) {
      throw new IllegalStateException("s3proxy is not started yet: use it from a test or @BeforeAll/@BeforeEach");
    }
    return s;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return parameterContext.getParameter().getType() == S3ProxyServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    return shared(extensionContext);
  }

  private static S3ProxyServer shared(ExtensionContext context) {
    // JUnit closes AutoCloseable store values when the root context closes (after the last test)
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(S3ProxyServer.class, k -> S3ProxyServer.start(), S3ProxyServer.class);
  }
}
