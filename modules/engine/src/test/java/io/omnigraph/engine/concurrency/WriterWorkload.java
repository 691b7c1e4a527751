package io.omnigraph.engine.concurrency;

import io.omnigraph.api.Graph;
import java.util.List;

/**
 * What the concurrent writers of {@link ConcurrentWritersTest} run: loads ({@link ConcurrentWorkload})
 * or {@code .gq} mutations ({@link ConcurrentMutationWorkload}). Each has a schema, a seed, a fixed
 * rotation of operations per writer and a model check.
 */
public enum WriterWorkload {
  /** Appends of unique and contended ids, merges of hot ids. */
  LOADS(3),
  /** Insert-only mutations, contended upserts, updates, an expected-head counter, contended deletes. */
  MUTATIONS(5);

  private final int ops;

  WriterWorkload(int ops) {
    this.ops = ops;
  }

  /** @return operations per writer (one full rotation) */
  public int ops() {
    return ops;
  }

  /** @return the graph's schema */
  public String schema() {
    return this == LOADS ? ConcurrentWorkload.SCHEMA : ConcurrentMutationWorkload.SCHEMA;
  }

  /** Writes the state every run starts from (after the genesis commit). */
  public void seed(Graph g) {
    if (this == MUTATIONS) {
      ConcurrentMutationWorkload.seed(g);
    }
  }

  /** Runs one writer's operations; typed conflicts become REJECT outcomes, anything else is thrown. */
  public List<ConcurrentWorkload.Outcome> run(Graph g, int writer, int ops) {
    return this == LOADS ? ConcurrentWorkload.run(g, writer, ops) : ConcurrentMutationWorkload.run(g, writer, ops);
  }

  /** @return the model violations after a run (empty when the model holds) */
  public List<String> check(Graph g, List<ConcurrentWorkload.Outcome> outcomes) {
    return this == LOADS ? ConcurrentWorkload.check(g, outcomes) : ConcurrentMutationWorkload.check(g, outcomes);
  }
}
