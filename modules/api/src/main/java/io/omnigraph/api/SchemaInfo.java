package io.omnigraph.api;

import java.util.List;
import java.util.Objects;

/**
 * The accepted schema of a graph.
 *
 * @param source the {@code .pg} source text as accepted at init
 * @param irJson the compiled schema IR ({@code _schema.ir.json})
 * @param identity the schema identity hash ({@code sha256:<hex>})
 * @param tableKeys the table keys ({@code node:Person}, {@code edge:Knows}), sorted
 */
public record SchemaInfo(String source, String irJson, String identity, List<String> tableKeys) {
  public SchemaInfo {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(irJson, "irJson");
    Objects.requireNonNull(identity, "identity");
    tableKeys = List.copyOf(tableKeys);
  }
}
