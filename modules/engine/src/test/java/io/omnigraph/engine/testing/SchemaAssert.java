package io.omnigraph.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;

/** Assertions on compiling a schema. */
public final class SchemaAssert {
  private SchemaAssert() {}

  /** Asserts that {@code src} fails to compile at {@code line}:{@code column} with a detail containing {@code fragment}. */
  public static void assertError(String src, int line, int column, String fragment) {
    assertThatThrownBy(() -> SchemaCompiler.compile(src))
        .isInstanceOf(SchemaException.class)
        .satisfies(
            e -> {
              SchemaException se = (SchemaException) e;
              assertThat(se.detail()).contains(fragment);
              assertThat(se.line() + ":" + se.column()).as(se.getMessage()).isEqualTo(line + ":" + column);
              assertThat(se.getMessage()).startsWith("line " + line + ":" + column + ": ");
            });
  }
}
