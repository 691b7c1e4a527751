package io.omnigraph.api.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An object's bytes and the version token they were read at (usable in
 * {@link WriteCondition.IfMatch}).
 *
 * @param bytes the whole object (a defensive copy is not made; do not mutate)
 * @param version the opaque version token of exactly these bytes
 */
public record StoredObject(byte[] bytes, String version) {
  public StoredObject {
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(version, "version");
  }

  /** @return the bytes decoded as UTF-8 */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredObject other && Arrays.equals(bytes, other.bytes) && version.equals(other.version);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(bytes) + version.hashCode();
  }

  @Override
  public String toString() {
    return "StoredObject[" + bytes.length + " bytes, version=" + version + "]";
  }
}
