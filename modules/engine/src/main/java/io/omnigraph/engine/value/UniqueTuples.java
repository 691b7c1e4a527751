package io.omnigraph.engine.value;

import java.util.ArrayList;
import java.util.List;

/** Value normalization for {@code @unique} tuple comparison (arrays compare by content). */
public final class UniqueTuples {
  private UniqueTuples() {}

  /** @return {@code v}, with a vector ({@code float[]}) turned into a list so equals compares content */
  public static Object normalize(Object v) {
    if (v instanceof float[] f) {
      List<Float> l = new ArrayList<>(f.length);
      for (float x : f) {
        l.add(x);
      }
      return l;
    }
    if (v instanceof byte[] b) {
      return java.nio.ByteBuffer.wrap(b.clone());
    }
    return v;
  }
}
