package io.omnigraph.engine.table;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.omnigraph.engine.archfixture.RogueWriter;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The build fails when any engine class other than {@link TableWriter} (the write gateway) calls a Lance write API, or
 * when a class outside {@code table/} touches Lance at all. Both rules are proven to bite by
 * analysing deliberately violating fixture classes.
 */
class TableStoreGuardTest {
  /** Lance methods that write (commit, stage data files, or change refs, indices or config). */
  static final Set<String> WRITE_METHODS = Set.of("write", "create", "commit", "commitAppend", "commitOverwrite",
      "commitTransaction", "mergeInsert", "delete", "deleteRows", "restore", "createIndex", "dropIndex",
      "createBranch", "addColumns", "dropColumns", "alterColumns", "compact", "truncateTable", "updateColumns",
      "mergeColumns", "drop", "updateConfig", "deleteConfigKeys", "optimizeIndices", "shallowClone",
      "cleanupWithPolicy", "migrateManifestPathsV2", "mergeIndexMetadata", "commitExistingIndexSegments",
      "buildIndexSegments", "mergeExistingIndexSegments", "initializeMemWal", "execute");

  static final DescribedPredicate<JavaAccess<?>> LANCE_WRITE =
      DescribedPredicate.describe("a Lance write API", (JavaAccess<?> a) -> {
        String owner = a.getTargetOwner().getName();
        // A Session is an in-process cache handle: creating one (TableStore does) writes nothing.
        if (!owner.startsWith("org.lance.") || owner.equals("org.lance.Session")) {
          return false;
        }
        String name = a.getName();
        return WRITE_METHODS.contains(name) || owner.equals("org.lance.CommitBuilder")
            || ((owner.startsWith("org.lance.Dataset$Tags") || owner.startsWith("org.lance.Dataset$Branches"))
                && !name.equals("list")); // listing refs reads
      });

  static final ArchRule ONLY_TABLE_STORE_WRITES = noClasses()
      .that().doNotHaveFullyQualifiedName(TableWriter.class.getName())
      .and().doNotHaveFullyQualifiedName(AddressedUpdate.class.getName())
      .should().accessTargetWhere(LANCE_WRITE)
      .because("TableWriter (with AddressedUpdate, the manifest publish's one-row Update that TableWriter's"
          + " 800-line bound keeps out of it) is the engine's only Lance write gateway (docs/architecture.md)");

  static final ArchRule LANCE_STAYS_IN_TABLE = noClasses()
      .that().resideOutsideOfPackage("io.omnigraph.engine.table..")
      .should().dependOnClassesThat().resideInAPackage("org.lance..")
      .because("only table/ talks to Lance; other packages hold TableSnapshot/StagedWrite handles");

  /** The engine's main classes, imported from their own output location (scanning every jar is slow). */
  private static JavaClasses production() {
    try {
      java.nio.file.Path classes = java.nio.file.Path.of(
          TableStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPath(classes);
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void onlyTableStoreCallsLanceWriteApis() {
    JavaClasses classes = production();
    assertThat(classes.contain(TableWriter.class)).isTrue();
    assertThat(classes.contain(TableReader.class)).isTrue();
    assertThat(classes.contain("io.omnigraph.engine.manifest.ManifestPublisher")).isTrue();
    ONLY_TABLE_STORE_WRITES.check(classes);
  }

  @Test
  void onlyTheTablePackageDependsOnLance() {
    LANCE_STAYS_IN_TABLE.check(production());
  }

  @Test
  void theWriteRuleFailsForAViolatingClassInsideTheTablePackage() {
    JavaClasses withFixture = new ClassFileImporter().importClasses(TableWriter.class, RogueTableHelper.class);
    assertThatThrownBy(() -> ONLY_TABLE_STORE_WRITES.check(withFixture)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueTableHelper.class.getName()).hasMessageContaining("CommitBuilder");
  }

  @Test
  void bothRulesFailForAViolatingClassOutsideTheTablePackage() {
    JavaClasses withFixture = new ClassFileImporter().importClasses(TableWriter.class, RogueWriter.class);
    assertThatThrownBy(() -> ONLY_TABLE_STORE_WRITES.check(withFixture)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueWriter.class.getName()).hasMessageContaining("delete");
    assertThatThrownBy(() -> LANCE_STAYS_IN_TABLE.check(withFixture)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueWriter.class.getName());
  }
}
