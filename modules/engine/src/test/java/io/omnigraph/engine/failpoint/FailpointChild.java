package io.omnigraph.engine.failpoint;

/**
 * A child-JVM main for {@link FailpointsTest}: passes each failpoint named in {@code args} in order,
 * printing {@code passed <name>} after each, then {@code done}. An injected error prints
 * {@code error <name> <code>} and exits 3.
 */
public final class FailpointChild {
  private FailpointChild() {}

  /**
   * @param args failpoint names to pass, in order
   */
  public static void main(String[] args) {
    for (String name : args) {
      try {
        Failpoints.hit(name);
      } catch (io.omnigraph.api.OmnigraphException e) {
        System.out.println("error " + Failpoints.injectedBy(e).orElse("?") + " " + e.code());
        System.exit(3);
      }
      System.out.println("passed " + name);
    }
    System.out.println("done");
  }
}
