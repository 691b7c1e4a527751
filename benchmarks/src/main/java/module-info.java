/**
 * Load benchmark harness: {@link io.omnigraph.bench.LoadBenchmark} runs paired child JVMs
 * ({@link io.omnigraph.bench.BenchChild}) that load through the engine or write the same Arrow data
 * with raw lance-java, and reports median time ratios and peak-RSS deltas.
 */
module io.omnigraph.benchmarks {
  requires io.omnigraph.api;
  requires java.management;
  requires lance.core;
  requires org.apache.arrow.vector;
  requires org.apache.arrow.memory.core;
  requires org.apache.arrow.c;
  requires org.apache.arrow.dataset;

  exports io.omnigraph.bench;
}
