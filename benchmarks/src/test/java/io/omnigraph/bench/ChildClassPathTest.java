package io.omnigraph.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each write-benchmark child runs on its own system's class path (docs/benchmarks.md, "Write benchmark"). */
class ChildClassPathTest {
  private static final String M2 = "/root/.m2/repository";
  private static final String BENCH = "/w/benchmarks/target/classes";
  private static final String API = "/w/modules/api/target/omnigraph-api-0.1.0-SNAPSHOT.jar";
  private static final String ENGINE = "/w/modules/engine/target/omnigraph-engine-0.1.0-SNAPSHOT.jar";
  private static final String FS = "/w/modules/adapter-fs/target/omnigraph-adapter-fs-0.1.0-SNAPSHOT.jar";
  private static final String TESTKIT = "/w/modules/testkit/target/omnigraph-testkit-0.1.0-SNAPSHOT.jar";
  private static final String LANCE = M2 + "/org/lance/lance-core/7.0.0/lance-core-7.0.0.jar";
  private static final String JACKSON = M2 + "/com/fasterxml/jackson/core/jackson-core/2.22.4/jackson-core-2.22.4.jar";
  private static final String AZURE = M2 + "/com/azure/azure-core/1.58.1/azure-core-1.58.1.jar";
  private static final String KUZU = M2 + "/com/kuzudb/kuzu/0.11.2/kuzu-0.11.2.jar";
  private static final String NEO4J = M2 + "/org/neo4j/neo4j-kernel/5.26.16/neo4j-kernel-5.26.16.jar";
  private static final String NEO4J_SLF4J = M2 + "/org/neo4j/neo4j-slf4j-provider/5.26.16/neo4j-slf4j-provider-5.26.16.jar";
  private static final String LOG4J = M2 + "/org/apache/logging/log4j/log4j-core/2.20.0/log4j-core-2.20.0.jar";
  private static final List<String> PARENT =
      List.of(API, ENGINE, FS, LANCE, JACKSON, TESTKIT, AZURE, KUZU, NEO4J, NEO4J_SLF4J, LOG4J, BENCH);
  private static final List<String> ENGINE_RUNTIME = List.of(API, LANCE, JACKSON);

  private static List<String> entries(String classPath) {
    return List.of(classPath.split(File.pathSeparator));
  }

  @Test
  void theOmnigraphChildRunsOnTheEnginesRuntimeWithoutThePeersOrTheEmulators() {
    ChildClassPath cp = ChildClassPath.of(PARENT, ENGINE_RUNTIME);
    assertThat(entries(cp.forSystem("omnigraph"))).containsExactlyInAnyOrder(BENCH, API, ENGINE, FS, LANCE, JACKSON);
  }

  @Test
  void theKuzuChildRunsOnKuzuAndJacksonOnly() {
    ChildClassPath cp = ChildClassPath.of(PARENT, ENGINE_RUNTIME);
    // omnigraph-api: the child class names one of its exception types, which the verifier loads.
    assertThat(entries(cp.forSystem("kuzu"))).containsExactlyInAnyOrder(BENCH, API, KUZU, JACKSON);
  }

  @Test
  void theNeo4jChildKeepsItsDependencyTreeWithoutKuzu() {
    ChildClassPath cp = ChildClassPath.of(PARENT, ENGINE_RUNTIME);
    assertThat(entries(cp.forSystem("neo4j"))).containsAll(List.of(NEO4J, NEO4J_SLF4J, LOG4J, BENCH)).doesNotContain(KUZU);
  }

  @Test
  void withoutTheEnginesRuntimeFileEveryChildGetsTheWholePathAndTheHeaderSaysSo() {
    ChildClassPath cp = ChildClassPath.of(PARENT, null);
    for (String system : List.of("omnigraph", "kuzu", "neo4j")) {
      assertThat(entries(cp.forSystem(system))).as(system).containsExactlyElementsOf(PARENT);
    }
    assertThat(cp.description()).contains("whole class path");
  }
}
