package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.gq.QueryAst.ReadBody;
import java.util.Map;
import java.util.Objects;

/**
 * A read query ({@code match ... return ...}) that type-checked against a catalog.
 *
 * @param decl the declaration
 * @param variableTypes every node variable bound in the outer match (not inside {@code not}) →
 *     its node type name, in first-binding order
 */
public record CheckedRead(QueryDecl decl, Map<String, String> variableTypes) implements CheckedQuery {
  public CheckedRead {
    Objects.requireNonNull(decl, "decl");
    if (!(decl.body() instanceof ReadBody)) {
      throw new IllegalArgumentException("not a read query: " + decl.name());
    }
    variableTypes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(variableTypes));
  }

  /** @return the read body */
  public ReadBody body() {
    return (ReadBody) decl.body();
  }
}
