package io.omnigraph.cli.nativelib;

import io.omnigraph.nativelib.NativeLibraryCache;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets a CLI process that has loaded Lance exit without HotSpot's 0.3 s wait for Lance's
 * dispatcher thread (docs/cli.md, "Start-up").
 *
 * <p>HotSpot's exit (also on {@code System.exit}) waits up to 300 ms for every thread that is "in
 * native". Lance's {@code JNI_OnLoad} starts a thread, {@code lance-jni-dispatcher}, attaches it to
 * the JVM for good and leaves it blocked in Rust until an async scan completes; it then calls into
 * Java ({@code AsyncScanner.completeTask}) to complete the scan's future. A thread blocked in Rust
 * is "in native", so every JVM that loaded Lance waited the full 300 ms at exit.
 *
 * <p>{@link #parkDispatcher} runs just before the CLI's {@code System.exit}: it starts one async scan
 * of an empty in-memory dataset ({@code memory://}, no file is touched) and, in the completion
 * callback that runs on the dispatcher thread, parks that thread in Java. A thread parked in Java
 * is "blocked", not "in native", so the exit does not wait for it. The JVM still exits the ordinary
 * way: shutdown hooks run, every output stream has been flushed, the exit code is kept. OmniGraph
 * never uses async scans, and this runs only when the process is about to end, so the parked
 * dispatcher serves no one. Any failure (a Lance version without the dispatcher or without async
 * scans, a timeout) costs only the 300 ms again; it is never reported, because the command's result
 * has already been printed and its exit code is decided.
 *
 * <p>Lance is called reflectively: the CLI module does not read Lance's automatic modules at compile
 * time (they would bring jar-jni's {@code io.questdb.jar.jni}, the package the CLI's own
 * {@code JarJniLoader} shadows). {@code LanceExitTest} checks that the dispatcher ends up parked.
 */
public final class LanceExit {
  private static final Duration WAIT = Duration.ofMillis(250);
  private static final int ATTEMPTS = 3;

  private LanceExit() {}

  /**
   * Parks Lance's dispatcher thread in Java when this process has loaded Lance's library;
   * otherwise does nothing (Lance is never loaded just for this).
   *
   * @return true when the dispatcher is parked
   */
  public static boolean beforeExit() {
    return NativeLibraryCache.loaded() && parkDispatcher(WAIT);
  }

  /**
   * Starts async scans of an empty in-memory dataset until one's completion callback runs on
   * another thread (the dispatcher) and parks it there, for at most {@code wait} in all.
   *
   * @return true when a thread other than the caller is parked
   */
  static boolean parkDispatcher(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    try {
      ClassLoader loader = LanceExit.class.getClassLoader();
      Object allocator = Class.forName("org.apache.arrow.memory.RootAllocator", true, loader)
          .getConstructor().newInstance();
      Class<?> allocatorType = Class.forName("org.apache.arrow.memory.BufferAllocator", true, loader);
      Object dataset = emptyDataset(loader, allocator, allocatorType);
      Class<?> scanOptionsType = Class.forName("org.lance.ipc.ScanOptions", true, loader);
      Object scanOptions = builder(loader, "org.lance.ipc.ScanOptions$Builder");
      Method create = Class.forName("org.lance.ipc.AsyncScanner", true, loader)
          .getMethod("create", Class.forName("org.lance.Dataset", true, loader), scanOptionsType, allocatorType);
      Object scanner = create.invoke(null, dataset, scanOptions, allocator);
      Method scan = scanner.getClass().getMethod("scanBatchesAsync");
      Thread caller = Thread.currentThread();
      // An attempt whose scan completed before its callback was registered does not count: it waited
      // for nothing. The deadline bounds those.
      for (int i = 0; i < ATTEMPTS && System.nanoTime() < deadline; ) {
        CountDownLatch parked = new CountDownLatch(1);
        AtomicBoolean ranHere = new AtomicBoolean();
        CompletableFuture<?> done = (CompletableFuture<?>) scan.invoke(scanner);
        // Registered after the scan started: when it had already completed, the callback runs here,
        // on the caller, before whenComplete returns, and parks nothing; then the next attempt tries
        // again at once (waiting for this attempt's latch would only use up the whole deadline).
        done.whenComplete((result, failure) -> {
          if (Thread.currentThread() != caller) {
            parked.countDown();
            parkForever();
          } else {
            ranHere.set(true);
          }
        });
        if (ranHere.get()) {
          continue;
        }
        i++;
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        if (parked.await(left, TimeUnit.NANOSECONDS)) {
          return true;
        }
      }
      return false;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** A one-column dataset with no rows in Lance's in-memory object store. */
  private static Object emptyDataset(ClassLoader loader, Object allocator, Class<?> allocatorType)
      throws ReflectiveOperationException {
    Class<?> arrowType = Class.forName("org.apache.arrow.vector.types.pojo.ArrowType", true, loader);
    Object int32 = Class.forName("org.apache.arrow.vector.types.pojo.ArrowType$Int", true, loader)
        .getConstructor(int.class, boolean.class).newInstance(32, true);
    Class<?> fieldType = Class.forName("org.apache.arrow.vector.types.pojo.Field", true, loader);
    Object field = fieldType.getMethod("nullable", String.class, arrowType).invoke(null, "x", int32);
    Class<?> schemaType = Class.forName("org.apache.arrow.vector.types.pojo.Schema", true, loader);
    Constructor<?> schemaOf = schemaType.getConstructor(Iterable.class);
    Object schema = schemaOf.newInstance(List.of(field));
    Class<?> writeParamsType = Class.forName("org.lance.WriteParams", true, loader);
    Object writeParams = builder(loader, "org.lance.WriteParams$Builder");
    String uri = "memory://omnigraph-exit-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    return Class.forName("org.lance.Dataset", true, loader)
        .getMethod("create", allocatorType, String.class, schemaType, writeParamsType)
        .invoke(null, allocator, uri, schema, writeParams);
  }

  private static Object builder(ClassLoader loader, String builderClass) throws ReflectiveOperationException {
    Object builder = Class.forName(builderClass, true, loader).getConstructor().newInstance();
    return builder.getClass().getMethod("build").invoke(builder);
  }

  private static void parkForever() {
    while (true) {
      Thread.interrupted(); // an interrupt would make park return at once: never spin
      LockSupport.park(LanceExit.class);
    }
  }
}
