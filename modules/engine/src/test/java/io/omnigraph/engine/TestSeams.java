package io.omnigraph.engine;

import io.omnigraph.api.Graph;

/** Test access to the graph handle's seams from tests outside this package. */
public final class TestSeams {
  private TestSeams() {}

  /** Sets the seam every write attempt runs after preparation, right before its effect window. */
  public static void beforeEffectWindow(Graph graph, Runnable r) {
    ((LanceGraph) graph).beforeEffectWindow = r;
  }

  /** @return the root-relative path of table {@code tableKey} as main publishes it */
  public static String tablePath(Graph graph, String tableKey) {
    return ((LanceGraph) graph).state().table(tableKey).orElseThrow().path();
  }

  /**
   * Adds {@code skew} to every row count a write predicts for its publish written ahead
   * (write/PublishAhead; 0 restores the production behaviour).
   */
  public static void publishAheadRowCountSkew(long skew) {
    try {
      java.lang.reflect.Field f = Class.forName("io.omnigraph.engine.write.PublishAhead").getDeclaredField("rowCountSkew");
      f.setAccessible(true);
      f.setLong(null, skew);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return how many publishes written ahead failed in this process (write/PublishAhead; each logged at WARNING) */
  public static long publishAheadFailures() {
    try {
      java.lang.reflect.Method m = Class.forName("io.omnigraph.engine.write.PublishAhead").getDeclaredMethod("failures");
      m.setAccessible(true);
      return (long) m.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits (at most a minute) until {@code n} members are queued for group commit on the handle's
   * writer (write/GroupCommitQueue; read under the queue's lock).
   *
   * @throws IllegalStateException they were not queued in time
   */
  public static void awaitGroupQueue(Graph graph, int n) {
    try {
      Object writer = ((LanceGraph) graph).writer();
      java.lang.reflect.Field q = writer.getClass().getDeclaredField("groupQueue");
      q.setAccessible(true);
      Object queue = q.get(writer);
      java.lang.reflect.Field lockField = queue.getClass().getDeclaredField("lock");
      lockField.setAccessible(true);
      java.lang.reflect.Field tickets = queue.getClass().getDeclaredField("queue");
      tickets.setAccessible(true);
      Object lock = lockField.get(queue);
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
      while (System.nanoTime() < deadline) {
        synchronized (lock) {
          if (((java.util.Collection<?>) tickets.get(queue)).size() >= n) {
            return;
          }
        }
        Thread.sleep(5);
      }
      throw new IllegalStateException(n + " members were not queued for group commit within a minute");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
