package io.omnigraph.engine.write;

import io.omnigraph.engine.storage.GraphRoot;
import java.util.Map;

/** Takes the write lease of the graph root {@code args[0]}, prints {@code HELD}, and halts without releasing it. */
public final class LeaseHolderChild {
  private LeaseHolderChild() {}

  public static void main(String[] args) {
    GraphRoot root = GraphRoot.open(args[0], Map.of());
    new WriteLease(root).acquire("crashing holder");
    System.out.println("HELD");
    System.out.flush();
    Runtime.getRuntime().halt(3);
  }
}
