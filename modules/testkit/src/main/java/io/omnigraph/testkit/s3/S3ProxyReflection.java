package io.omnigraph.testkit.s3;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.Properties;

/**
 * Calls into s3proxy 4.1.0 by reflection. The s3proxy jar lists a Jetty service provider that was
 * shaded away, so the JDK cannot derive an automatic module from it: it can only live on the class
 * path, which a named module cannot reference at compile time. Core reflection needs no
 * readability, so this works whether the test kit runs as a named module or on the class path.
 *
 * <p>Every failure becomes an {@link IllegalStateException} carrying s3proxy's own exception.
 */
final class S3ProxyReflection {
  private S3ProxyReflection() {}

  /** {@code S3Proxy.builder().blobStore(transient).endpoint(e).awsAuthentication(AWS_V2_OR_V4, id, secret).build()} */
  static Object build(URI endpoint, String identity, String credential) {
    try {
      Class<?> blobStores = load("org.gaul.s3proxy.BlobStores");
      Class<?> blobStoreType = load("org.gaul.s3proxy.blobstore.BlobStore");
      Object blobStore = blobStores.getMethod("create", String.class, Properties.class)
          .invoke(null, "transient", new Properties());
      Class<?> s3proxy = load("org.gaul.s3proxy.S3Proxy");
      Object builder = s3proxy.getMethod("builder").invoke(null);
      Class<?> b = builder.getClass();
      b.getMethod("blobStore", blobStoreType).invoke(builder, blobStore);
      b.getMethod("endpoint", URI.class).invoke(builder, endpoint);
      @SuppressWarnings({"unchecked", "rawtypes"})
      Object auth = Enum.valueOf((Class) load("org.gaul.s3proxy.auth.AuthenticationType"), "AWS_V2_OR_V4");
      b.getMethod("awsAuthentication", auth.getClass(), String.class, String.class)
          .invoke(builder, auth, identity, credential);
      b.getMethod("stopTimeout", long.class).invoke(builder, 0L); // nothing to drain in tests
      return b.getMethod("build").invoke(builder);
    } catch (ReflectiveOperationException e) {
      throw failure("building s3proxy", e);
    }
  }

  static void start(Object proxy) {
    invoke(proxy, "start", "starting s3proxy");
  }

  static void stop(Object proxy) {
    invoke(proxy, "stop", "stopping s3proxy");
  }

  static String state(Object proxy) {
    return (String) invoke(proxy, "getState", "reading s3proxy's state");
  }

  static int port(Object proxy) {
    return (Integer) invoke(proxy, "getPort", "reading s3proxy's port");
  }

  private static Object invoke(Object target, String name, String what) {
    try {
      Method m = target.getClass().getMethod(name);
      return m.invoke(target);
    } catch (ReflectiveOperationException e) {
      throw failure(what, e);
    }
  }

  private static Class<?> load(String name) throws ClassNotFoundException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try {
      return Class.forName(name, true, loader == null ? S3ProxyReflection.class.getClassLoader() : loader);
    } catch (ClassNotFoundException e) {
      throw new ClassNotFoundException(name + ": put org.gaul:s3proxy on the test class path "
          + "(it cannot be a module; see io.omnigraph.testkit's module-info)", e);
    }
  }

  private static IllegalStateException failure(String what, ReflectiveOperationException e) {
    Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
    return new IllegalStateException(what + " failed: " + cause, cause);
  }
}
