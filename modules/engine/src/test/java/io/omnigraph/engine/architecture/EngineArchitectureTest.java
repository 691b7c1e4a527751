package io.omnigraph.engine.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import io.omnigraph.engine.archfixture.RogueConstraintBuilder;
import io.omnigraph.engine.archfixture.RogueFilterScan;
import io.omnigraph.engine.gq.RogueGqIncludeReader;
import io.omnigraph.engine.gq.RogueGqPlanBinder;
import io.omnigraph.engine.load.RogueLoadShortcut;
import io.omnigraph.engine.mutate.RogueMutateStep;
import io.omnigraph.engine.schema.PgRogueRemoteImport;
import io.omnigraph.engine.snapshot.RogueSnapshotShortcut;
import io.omnigraph.engine.table.LanceFilter;
import io.omnigraph.engine.table.TableStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's package rules (docs/architecture.md, "Rules between packages"). Each rule runs
 * over the engine's main classes only, and each is proven to fire by a deliberately violating
 * fixture class under src/test (which the real check never imports).
 */
class EngineArchitectureTest {
  static final String ENGINE = "io.omnigraph.engine";

  // ---------------------------------------------------------------- (a) front ends import no I/O

  /** The .pg front end in {@code schema/}: every {@code Pg*} class plus these. */
  static final Set<String> SCHEMA_FRONT_END = Set.of("SchemaAst", "SchemaCompiler", "SchemaException",
      "SourceScanner", "SourcePos", "Literal", "Annotation");

  static final DescribedPredicate<JavaClass> FRONT_END = DescribedPredicate.describe(
      "the .gq and .pg front ends (gq/, schema/'s Pg* lexer/parser/AST)",
      c -> {
        String pkg = c.getPackageName();
        String top = topLevelName(c);
        if (pkg.equals(ENGINE + ".gq") || pkg.startsWith(ENGINE + ".gq.")) {
          return true;
        }
        if (pkg.equals(ENGINE + ".schema")) {
          return top.startsWith("Pg") || SCHEMA_FRONT_END.contains(top);
        }
        return false;
      });

  static final String[] IO_PACKAGES = {"org.lance..", "org.apache.arrow..", "io.omnigraph.api.storage..",
      "io.omnigraph.adapter..", ENGINE + ".storage..", ENGINE + ".table..", ENGINE + ".manifest..",
      ENGINE + ".recovery..", ENGINE + ".write..", "java.nio.file..", "java.nio.channels..", "java.net..",
      "software.amazon..", "com.google.cloud..", "com.azure.."};

  static final ArchRule FRONT_ENDS_DO_NO_IO = noClasses().that(FRONT_END)
      .should().dependOnClassesThat().resideInAnyPackage(IO_PACKAGES)
      .orShould().dependOnClassesThat().haveNameMatching("java\\.io\\.(File|RandomAccessFile)\\w*")
      .because("the .gq and .pg front ends turn text into ASTs and checked plans; storage is for the layers below");

  /** The layers that consume the front end's output: plans, executors, snapshots and the rules. */
  static final String[] FRONT_END_CONSUMERS = {ENGINE + ".plan..", ENGINE + ".mutate..", ENGINE + ".load..",
      ENGINE + ".read..", ENGINE + ".branch..", ENGINE + ".schema.migrate..", ENGINE + ".snapshot..",
      ENGINE + ".validate.."};

  /**
   * The .gq front end sits below the plan layer: {@code plan/} binds what {@code gq/} checked, never the
   * reverse (docs/architecture.md, "Rules between packages").
   */
  static final ArchRule GQ_DOES_NOT_DEPEND_ON_ITS_CONSUMERS = noClasses()
      .that().resideInAPackage(ENGINE + ".gq..")
      .should().dependOnClassesThat().resideInAnyPackage(FRONT_END_CONSUMERS)
      .because("gq/ turns .gq text into checked queries; plan/ and the executors consume them, so the"
          + " dependency runs one way");

  // ---------------------------------------------------------------- (b) capabilities stay apart

  /** load, mutate, read, branch and schema.migrate: none may import another. */
  static final SliceAssignment CAPABILITY = new SliceAssignment() {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass c) {
      String pkg = c.getPackageName();
      if (!pkg.startsWith(ENGINE + ".")) {
        return SliceIdentifier.ignore();
      }
      String rest = pkg.substring(ENGINE.length() + 1);
      if (rest.equals("schema.migrate") || rest.startsWith("schema.migrate.")) {
        return SliceIdentifier.of("schema.migrate");
      }
      String first = rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
      return switch (first) {
        case "load", "mutate", "read", "branch" -> SliceIdentifier.of(first);
        default -> SliceIdentifier.ignore();
      };
    }

    @Override
    public String getDescription() {
      return "the capability packages load, mutate, read, branch, schema.migrate";
    }
  };

  /**
   * Crossings allowed while a move is in flight (used class -> the classes that may still use it). Empty;
   * name any new entry, never a package.
   */
  static final Map<String, Set<String>> KNOWN_CROSSINGS = Map.of();

  static ArchRule capabilitiesStayApart(Map<String, Set<String>> allowed) {
    var rule = SlicesRuleDefinition.slices().assignedFrom(CAPABILITY).should().notDependOnEachOther();
    for (Map.Entry<String, Set<String>> e : allowed.entrySet()) {
      for (String origin : e.getValue()) {
        rule = rule.ignoreDependency(DescribedPredicate.describe(origin, (JavaClass c) -> topLevel(c).equals(origin)),
            DescribedPredicate.describe(e.getKey(), (JavaClass c) -> topLevel(c).equals(e.getKey())));
      }
    }
    return rule.because("load, mutate, read, branch and migrate share code only through snapshot/, validate/, "
        + "value/, plan/ and write/");
  }

  /** The capability packages (and the package name the migration capability will take). */
  static final String[] CAPABILITIES = {ENGINE + ".load..", ENGINE + ".mutate..", ENGINE + ".read..",
      ENGINE + ".branch..", ENGINE + ".schema.migrate.."};

  /**
   * The snapshot core sits below every capability: load, mutate, read, branch and migrate stand on
   * {@code snapshot/}, never the reverse (docs/architecture.md, "Rules between packages").
   */
  static final ArchRule SNAPSHOT_IMPORTS_NO_CAPABILITY = noClasses()
      .that().resideInAPackage(ENGINE + ".snapshot..")
      .should().dependOnClassesThat().resideInAnyPackage(CAPABILITIES)
      .because("a snapshot is what every capability reads; it cannot depend on one of them");

  // ---------------------------------------------------------------- (c) only validate builds constraint violations

  /** The stable codes of the five graph rules (docs/errors.md). */
  static final List<String> CONSTRAINT_CODES = List.of("range_violation", "check_violation", "unique_violation",
      "dangling_edge", "cardinality_violation");
  static final Set<String> LOAD_RULE_CONSTRAINTS = Set.of("RANGE_VIOLATION", "CHECK_VIOLATION", "UNIQUE_VIOLATION",
      "DANGLING_EDGE", "CARDINALITY_VIOLATION");

  static final DescribedPredicate<JavaAccess<?>> CONSTRAINT_RULE_ACCESS = DescribedPredicate.describe(
      "a graph-rule code (validate.ConstraintRule, or load.LoadRule's five graph-rule constants)", a -> {
        String owner = a.getTargetOwner().getName();
        return owner.equals(ENGINE + ".validate.ConstraintRule")
            || (owner.equals(ENGINE + ".load.LoadRule") && LOAD_RULE_CONSTRAINTS.contains(a.getName()));
      });

  /**
   * Classes outside validate/ that may still touch a graph-rule code. LoadRule declares the five
   * constants (its enum initializer assigns them) and builds line-level input errors only.
   */
  static final Set<String> CONSTRAINT_CODE_HOLDERS = Set.of(ENGINE + ".load.LoadRule");

  static ArchRule onlyValidateBuildsConstraintViolations(Set<String> allowed) {
    return noClasses().that().resideOutsideOfPackage(ENGINE + ".validate..")
        .and(DescribedPredicate.describe("not allow-listed", (JavaClass c) -> !allowed.contains(topLevel(c))))
        .should().accessTargetWhere(CONSTRAINT_RULE_ACCESS)
        .because("validate/ is the only builder of constraint-violation errors (docs/architecture.md)");
  }

  /** Source files (relative to src/main/java) that may spell a graph-rule code as a string literal. */
  static final Set<String> CODE_LITERAL_HOLDERS = Set.of("io/omnigraph/engine/validate/ConstraintRule.java");

  /** @return each file under {@code root} (not in {@code allowed}) with the graph-rule code literals it spells */
  static Map<String, List<String>> constraintCodeLiterals(Path root, Set<String> allowed) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    for (Path p : javaFiles(root)) {
      String rel = root.relativize(p).toString().replace('\\', '/');
      if (allowed.contains(rel)) {
        continue;
      }
      String text = read(p);
      List<String> found = CONSTRAINT_CODES.stream().filter(code -> text.contains("\"" + code + "\"")).toList();
      if (!found.isEmpty()) {
        out.put(rel, found);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- (d) only the renderer builds filter strings

  /** A Lance method that takes filter text (scan filters, delete predicates, conditional merges). */
  static final DescribedPredicate<JavaMethodCall> LANCE_FILTER_TEXT = DescribedPredicate.describe(
      "a Lance method taking filter text", call -> {
        String owner = call.getTargetOwner().getName();
        String name = call.getName();
        boolean text = call.getTarget().getRawParameterTypes().stream().anyMatch(t -> t.isEquivalentTo(String.class));
        // Branch and tag calls take a ref name, never filter text (Branches.delete(name)).
        boolean refs = owner.startsWith("org.lance.Dataset$Branches") || owner.startsWith("org.lance.Dataset$Tags");
        return owner.startsWith("org.lance.") && !refs && text && (name.equals("filter") || name.equals("predicate")
            || name.equals("countRows") || name.equals("delete") || name.matches(".*(Filter|Predicate|If|Where)"));
      });

  static final ArchCondition<JavaCodeUnit> HAND_LANCE_ONLY_RENDERED_FILTERS =
      new ArchCondition<>("hand Lance only filter text rendered by table.LanceFilter (LanceFilter.sql())") {
        @Override
        public void check(JavaCodeUnit unit, ConditionEvents events) {
          List<JavaMethodCall> sinks = unit.getMethodCallsFromSelf().stream().filter(LANCE_FILTER_TEXT).toList();
          if (sinks.isEmpty()) {
            return;
          }
          boolean rendered = unit.getMethodCallsFromSelf().stream().anyMatch(c ->
              c.getTargetOwner().isEquivalentTo(LanceFilter.class) && c.getName().equals("sql"));
          if (!rendered) {
            for (JavaMethodCall sink : sinks) {
              events.add(SimpleConditionEvent.violated(unit, sink.getDescription()
                  + " with text that LanceFilter.sql() did not produce in " + unit.getFullName()));
            }
          }
        }
      };

  static final ArchRule ONLY_THE_RENDERER_BUILDS_FILTERS = codeUnits().should(HAND_LANCE_ONLY_RENDERED_FILTERS)
      .because("one renderer (table.LanceFilter) quotes every Unicode scalar value; hand-built filters broke "
          + "non-BMP keys before there was one");

  static final ArchRule FILTERS_ARE_MADE_ONLY_BY_RENDERING = com.tngtech.archunit.lang.syntax.ArchRuleDefinition
      .constructors().that().areDeclaredIn(LanceFilter.class).should().bePrivate()
      .because("a LanceFilter value is only made by rendering (LanceFilter.of / LanceFilter.in)");

  // ---------------------------------------------------------------- production classes

  private static JavaClasses production;

  /** The engine's main classes, imported from their own output location (scanning every jar is slow). */
  static synchronized JavaClasses production() {
    if (production == null) {
      try {
        Path classes = Path.of(TableStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(classes);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return production;
  }

  static String topLevel(JavaClass c) {
    String name = c.getName();
    int dollar = name.indexOf('$');
    return dollar < 0 ? name : name.substring(0, dollar);
  }

  static String topLevelName(JavaClass c) {
    String top = topLevel(c);
    return top.substring(top.lastIndexOf('.') + 1);
  }

  static List<Path> javaFiles(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path mainSources() {
    return Path.of("src", "main", "java");
  }

  // ---------------------------------------------------------------- tests: (a)

  @Test
  void theGqAndPgFrontEndsImportNoIoPackage() {
    JavaClasses classes = production();
    List<String> frontEnd = classes.stream().filter(FRONT_END).map(JavaClass::getSimpleName).toList();
    // Not vacuous: both front ends are matched.
    assertThat(frontEnd).contains("PgParser", "PgLexer", "GqParser", "GqLexer");
    FRONT_ENDS_DO_NO_IO.check(classes);
  }

  @Test
  void theFrontEndRuleFiresForAFrontEndClassDoingIo() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueGqIncludeReader.class, PgRogueRemoteImport.class);
    assertThatThrownBy(() -> FRONT_ENDS_DO_NO_IO.check(rogue)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueGqIncludeReader.class.getName()).hasMessageContaining("java.nio.file.Files")
        .hasMessageContaining(PgRogueRemoteImport.class.getName()).hasMessageContaining("java.net.URI");
  }

  @Test
  void theGqFrontEndDoesNotDependOnThePlanLayerOrItsConsumers() {
    JavaClasses classes = production();
    // Not vacuous: gq/ is imported and plan/ does use it (the dependency runs plan -> gq).
    assertThat(classes.stream().filter(c -> c.getPackageName().equals(ENGINE + ".gq"))).isNotEmpty();
    assertThat(classes.stream().filter(c -> c.getPackageName().equals(ENGINE + ".plan"))
        .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
        .filter(d -> d.getTargetClass().getPackageName().equals(ENGINE + ".gq"))).isNotEmpty();
    GQ_DOES_NOT_DEPEND_ON_ITS_CONSUMERS.check(classes);
  }

  @Test
  void theGqLayeringRuleFiresForAFrontEndClassUsingAPlan() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueGqPlanBinder.class);
    assertThatThrownBy(() -> GQ_DOES_NOT_DEPEND_ON_ITS_CONSUMERS.check(rogue)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueGqPlanBinder.class.getName()).hasMessageContaining(ENGINE + ".plan.MutationPlan");
  }

  // ---------------------------------------------------------------- tests: (b)

  @Test
  void loadAndMutateDoNotImportEachOther() {
    JavaClasses classes = production();
    // Not vacuous: at least the load and mutate slices exist.
    assertThat(classes.stream().map(c -> CAPABILITY.getIdentifierOf(c)).distinct())
        .contains(SliceIdentifier.of("load"), SliceIdentifier.of("mutate"));
    capabilitiesStayApart(KNOWN_CROSSINGS).check(classes);
  }

  @Test
  void theCapabilityRuleFiresForLoadReachingIntoMutate() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueLoadShortcut.class, RogueMutateStep.class);
    assertThatThrownBy(() -> capabilitiesStayApart(KNOWN_CROSSINGS).check(rogue)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueLoadShortcut.class.getName()).hasMessageContaining(RogueMutateStep.class.getName());
  }

  @Test
  void theSnapshotCoreImportsNoCapability() {
    JavaClasses classes = production();
    // Not vacuous: snapshot/ is imported, and capabilities do depend on it.
    assertThat(classes.stream().filter(c -> c.getPackageName().equals(ENGINE + ".snapshot"))).isNotEmpty();
    assertThat(classes.stream().filter(c -> c.getPackageName().equals(ENGINE + ".mutate"))
        .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
        .filter(d -> d.getTargetClass().getPackageName().equals(ENGINE + ".snapshot"))).isNotEmpty();
    SNAPSHOT_IMPORTS_NO_CAPABILITY.check(classes);
  }

  @Test
  void theSnapshotRuleFiresForASnapshotClassUsingLoadOrMutate() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueSnapshotShortcut.class);
    assertThatThrownBy(() -> SNAPSHOT_IMPORTS_NO_CAPABILITY.check(rogue)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueSnapshotShortcut.class.getName())
        .hasMessageContaining(RogueMutateStep.class.getName()).hasMessageContaining(RogueLoadShortcut.class.getName());
  }

  // ---------------------------------------------------------------- tests: (c)

  @Test
  void onlyValidateBuildsConstraintViolations() {
    onlyValidateBuildsConstraintViolations(CONSTRAINT_CODE_HOLDERS).check(production());
    assertThat(constraintCodeLiterals(mainSources(), CODE_LITERAL_HOLDERS)).isEmpty();
  }

  @Test
  void theConstraintRuleFiresForACodeReadOrSpelledOutsideValidate() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueConstraintBuilder.class);
    assertThatThrownBy(() -> onlyValidateBuildsConstraintViolations(CONSTRAINT_CODE_HOLDERS).check(rogue))
        .isInstanceOf(AssertionError.class).hasMessageContaining(RogueConstraintBuilder.class.getName())
        .hasMessageContaining("LoadRule.UNIQUE_VIOLATION").hasMessageContaining("ConstraintRule.DANGLING_EDGE");
    Path fixtures = Path.of("src", "test", "java", "io", "omnigraph", "engine", "archfixture");
    assertThat(constraintCodeLiterals(fixtures, Set.of()))
        .containsEntry("RogueConstraintBuilder.java", List.of("cardinality_violation"));
  }

  // ---------------------------------------------------------------- tests: (d)

  @Test
  void onlyTheRendererBuildsLanceFilters() {
    JavaClasses classes = production();
    // Not vacuous: the engine does hand Lance filters (scans, deletes), and each comes from the renderer.
    assertThat(classes.stream().flatMap(c -> c.getMethodCallsFromSelf().stream()).filter(LANCE_FILTER_TEXT))
        .isNotEmpty();
    ONLY_THE_RENDERER_BUILDS_FILTERS.check(classes);
    FILTERS_ARE_MADE_ONLY_BY_RENDERING.check(classes);
  }

  @Test
  void theFilterRuleFiresForAHandBuiltFilter() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueFilterScan.class);
    assertThatThrownBy(() -> ONLY_THE_RENDERER_BUILDS_FILTERS.check(rogue)).isInstanceOf(AssertionError.class)
        .hasMessageContaining(RogueFilterScan.class.getName()).hasMessageContaining("ScanOptions$Builder.filter");
  }

  // ---------------------------------------------------------------- class size

  static final int MAX_LINES = 800;

  /** @return each .java file under {@code root} longer than {@link #MAX_LINES}, with its line count */
  static Map<String, Long> oversized(Path root) {
    Map<String, Long> out = new java.util.TreeMap<>();
    for (Path p : javaFiles(root)) {
      long lines = read(p).lines().count();
      if (lines > MAX_LINES) {
        out.put(root.relativize(p).toString().replace('\\', '/'), lines);
      }
    }
    return out;
  }

  @Test
  void noEngineMainClassExceeds800Lines() {
    assertThat(javaFiles(mainSources())).hasSizeGreaterThan(50);
    assertThat(oversized(mainSources())).isEmpty();
  }

  @Test
  void theSizeCheckReportsAFileOneLineOverTheLimit(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("x"));
    Files.writeString(dir.resolve("x/AtLimit.java"), "//\n".repeat(MAX_LINES));
    Files.writeString(dir.resolve("x/OverLimit.java"), "//\n".repeat(MAX_LINES + 1));
    assertThat(oversized(dir)).isEqualTo(Map.of("x/OverLimit.java", (long) MAX_LINES + 1));
  }
}
