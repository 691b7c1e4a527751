package io.omnigraph.engine.schema;

import java.util.Optional;

/** The base (scalar) types of the schema language, spelled as in {@code .pg} source. */
public enum ScalarKind {
  STRING("String"),
  BLOB("Blob"),
  BOOL("Bool"),
  I32("I32"),
  I64("I64"),
  U32("U32"),
  U64("U64"),
  F32("F32"),
  F64("F64"),
  DATE("Date"),
  DATE_TIME("DateTime");

  private final String spelling;

  ScalarKind(String spelling) {
    this.spelling = spelling;
  }

  /** @return the source spelling, e.g. {@code DateTime} */
  public String spelling() {
    return spelling;
  }

  /** @return true for I32, I64, U32, U64, F32, F64 (the types {@code @range} accepts) */
  public boolean isNumeric() {
    return isInteger() || this == F32 || this == F64;
  }

  /** @return true for the four integer types */
  public boolean isInteger() {
    return this == I32 || this == I64 || this == U32 || this == U64;
  }

  /**
   * @param spelling a source spelling such as {@code I64}
   * @return the base type with that exact spelling
   */
  public static Optional<ScalarKind> fromSpelling(String spelling) {
    for (ScalarKind k : values()) {
      if (k.spelling.equals(spelling)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
