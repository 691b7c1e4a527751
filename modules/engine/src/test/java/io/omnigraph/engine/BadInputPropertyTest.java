package io.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.ErrorKind;
import io.omnigraph.api.Graph;
import io.omnigraph.api.LoadMode;
import io.omnigraph.api.LoadOptions;
import io.omnigraph.api.MutationOptions;
import io.omnigraph.api.Omnigraph;
import io.omnigraph.api.OmnigraphException;
import io.omnigraph.api.PreparedMutation;
import io.omnigraph.api.QueryParams;
import io.omnigraph.engine.schema.SchemaCompiler;
import io.omnigraph.engine.schema.SchemaException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Bad input never escapes as a crash: mutated valid {@code .pg}, {@code .gq}, NDJSON and parameter
 * JSON (truncations, byte flips, inserted and deleted spans, deep nesting, huge numbers, invalid
 * UTF-8) and random bytes go to the schema compiler, the mutation front end, the parameter binder
 * and the loader. Every case either succeeds or ends in a typed error that carries a source
 * position (schema and query errors, NDJSON lines); never an untyped exception, a hang (each case
 * has a time limit) or a partial write (a refused load or mutation leaves the export unchanged).
 *
 * <p>10,150 cases in all; the parsers are fast, the loader cases run on a real graph and are
 * budgeted low. jqwik prints each property's seed; rerun one with {@code @Property(seed = "...")}.
 */
class BadInputPropertyTest {
  static final String PG = """
      node Person {
        name: String @key
        age: I32?
        score: F64
        born: Date?
        tags: [String]?
        @range(score, 0..100)
      }
      node Company {
        code: String @key
        founded: I64
      }
      edge WorksAt: Person -> Company @card(0..1) {
        since: Date?
        role: String
      }
      edge Knows: Person -> Person
      edge Likes: Person -> Company {
        how: String
        stars: I32
        @key(src, dst, how)
      }
      """;

  static final String GQ = """
      query hire($name: String, $age: I32, $code: String, $role: String) {
        insert Person { name: $name, age: $age, score: 50.5 }
        insert WorksAt { from: $name, to: $code, role: $role }
        insert Likes { from: $name, to: $code, how: $role, stars: 3 }
      }
      query rescore($name: String, $score: F64) {
        update Person set { score: $score } where name = $name
      }
      query fire($name: String) {
        delete Person where name = $name
      }
      """;

  static final String PARAMS = """
      {"name": "nobody-\\u00e9", "score": 12.5e0}
      """;

  static final String NDJSON = """
      {"type":"Person","data":{"name":"ada","age":36,"score":99.5,"born":"1815-12-10","tags":["math","engines"]}}
      {"type":"Person","data":{"name":"bob","score":0}}
      {"type":"Company","data":{"code":"ae","founded":1834}}
      {"edge":"WorksAt","from":"ada","to":"ae","data":{"since":"1843-01-01","role":"analyst"}}
      {"edge":"Knows","from":"ada","to":"bob","data":{}}
      {"edge":"Likes","from":"bob","to":"ae","data":{"how":"a lot","stars":5}}
      {"edge":"Likes","from":"ada","to":"ae","data":{"id":"[\\"ada\\",\\"ae\\",\\"well\\"]","how":"well","stars":4}}
      """;

  static final int CASE_SECONDS = 20;

  static Path dir;
  static Graph graph;
  static PreparedMutation rescore;
  static ExecutorService worker;

  @BeforeContainer
  static void openGraph() throws IOException {
    dir = Files.createTempDirectory("bad-input");
    graph = Omnigraph.init(dir.resolve("g").toString(), PG);
    graph.load(LoadMode.OVERWRITE, new ByteArrayInputStream(NDJSON.getBytes(StandardCharsets.UTF_8)),
        LoadOptions.defaults());
    rescore = graph.prepareMutation(GQ, "rescore");
    worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "bad-input-case");
      t.setDaemon(true);
      return t;
    });
  }

  @AfterContainer
  static void closeGraph() throws IOException {
    if (worker != null) {
      worker.shutdownNow();
    }
    if (graph != null) {
      graph.close();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  // ---- .pg ----

  @Property(tries = 4000)
  void mutatedSchemasCompileOrFailWithAPosition(@ForAll long seed) {
    String text = Mutations.text(PG, new Random(seed));
    within(() -> {
      try {
        SchemaCompiler.compile(text);
      } catch (SchemaException e) {
        assertPositioned(e, text);
      }
      return null;
    }, text);
  }

  @Property(tries = 1500)
  void randomBytesAsSchemaFailWithAPosition(@ForAll long seed) {
    String text = new String(Mutations.randomBytes(new Random(seed)), StandardCharsets.UTF_8);
    within(() -> {
      try {
        SchemaCompiler.compile(text);
      } catch (SchemaException e) {
        assertPositioned(e, text);
      }
      return null;
    }, text);
  }

  private static void assertPositioned(SchemaException e, String text) {
    assertThat(e.line()).as("line of %s for input %s", e.getMessage(), Mutations.show(text)).isPositive();
    assertThat(e.column()).as("column of %s", e.getMessage()).isPositive();
  }

  // ---- .gq ----

  @Property(tries = 3000)
  void mutatedQueriesPrepareOrFailWithAPosition(@ForAll long seed) {
    Random random = new Random(seed);
    String text = random.nextInt(8) == 0
        ? new String(Mutations.randomBytes(random), StandardCharsets.UTF_8)
        : Mutations.text(GQ, random);
    String name = new String[] {"hire", "rescore", "fire", "nope"}[random.nextInt(4)];
    within(() -> {
      try {
        graph.prepareMutation(text, name);
      } catch (OmnigraphException e) {
        assertTypedInputError(e, text);
        assertPositionedValidation(e, text);
      }
      return null;
    }, text);
  }

  // ---- parameter JSON ----

  @Property(tries = 1500)
  void mutatedParameterJsonBindsOrFailsTypedAndWritesNothing(@ForAll long seed) {
    Random random = new Random(seed);
    String text = random.nextInt(6) == 0
        ? new String(Mutations.randomBytes(random), StandardCharsets.UTF_8)
        : Mutations.text(PARAMS, random);
    String before = export();
    within(() -> {
      try {
        graph.mutate(rescore, QueryParams.json(text), new MutationOptions(null, null, null));
        return null; // bound: rescoring a person that does not exist changes nothing
      } catch (OmnigraphException e) {
        assertTypedInputError(e, text);
      }
      return null;
    }, text);
    if (random.nextInt(50) == 0) {
      assertThat(export()).as("nothing written").isEqualTo(before);
    }
  }

  // ---- NDJSON through the loader ----

  @Property(tries = 150)
  void mutatedNdjsonLoadsWholeOrFailsAtALineAndWritesNothing(@ForAll long seed) {
    Random random = new Random(seed);
    byte[] input = random.nextInt(10) == 0
        ? Mutations.randomBytes(random)
        : Mutations.bytes(NDJSON.getBytes(StandardCharsets.UTF_8), random);
    String before = export();
    String head = graph.commits().get(0).id();
    boolean loaded = within(() -> {
      try {
        graph.load(LoadMode.MERGE, new ByteArrayInputStream(input), LoadOptions.defaults());
        return true;
      } catch (OmnigraphException e) {
        assertThat(e.kind()).as("kind of %s", e.getMessage())
            .isIn(ErrorKind.INVALID_INPUT, ErrorKind.RESOURCE_LIMIT, ErrorKind.CONFLICT);
        if (e.kind() == ErrorKind.INVALID_INPUT) {
          assertThat(e.detail()).as("detail of %s", e.getMessage()).isPresent();
          if (e.detail().get() instanceof ErrorDetail.Validation v && v.line() != null) {
            assertThat(v.line()).isPositive();
          }
        }
        return false;
      }
    }, new String(input, StandardCharsets.ISO_8859_1));
    if (!loaded) {
      assertThat(graph.commits().get(0).id()).as("no commit").isEqualTo(head);
      assertThat(export()).as("nothing written").isEqualTo(before);
    }
  }

  // ---- helpers ----

  private static void assertTypedInputError(OmnigraphException e, String text) {
    assertThat(e.kind()).as("kind of '%s' for input %s", e.getMessage(), Mutations.show(text))
        .isIn(ErrorKind.INVALID_INPUT, ErrorKind.RESOURCE_LIMIT, ErrorKind.NOT_FOUND);
  }

  private static void assertPositionedValidation(OmnigraphException e, String text) {
    if (e.kind() != ErrorKind.INVALID_INPUT) {
      return;
    }
    assertThat(e.detail()).as("detail of '%s' for input %s", e.getMessage(), Mutations.show(text)).isPresent();
    if (e.detail().get() instanceof ErrorDetail.Validation v && v.line() != null) {
      assertThat(v.line()).isPositive();
    }
  }

  private static String export() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    graph.export(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Runs one case with a time limit; an exception that is not an assertion fails with the input. */
  private static <T> T within(Callable<T> body, String input) {
    Future<T> result = worker.submit(body);
    try {
      return result.get(CASE_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      return fail("no answer within " + CASE_SECONDS + " s for input " + Mutations.show(input));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AssertionError a) {
        throw a;
      }
      throw new AssertionError("untyped " + e.getCause() + " for input " + Mutations.show(input), e.getCause());
    }
  }

  /** Deterministic mutations of valid input, from one seed. */
  static final class Mutations {
    private static final byte[] TOKENS = "(){}[]:,\"\\@$.\n-0\u0000".getBytes(StandardCharsets.UTF_8);

    private Mutations() {}

    static String text(String valid, Random random) {
      byte[] mutated = bytes(valid.getBytes(StandardCharsets.UTF_8), random);
      return new String(mutated, StandardCharsets.UTF_8);
    }

    static byte[] bytes(byte[] valid, Random random) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(valid);
      byte[] b = out.toByteArray();
      int edits = 1 + random.nextInt(3);
      for (int i = 0; i < edits; i++) {
        b = edit(b, random);
      }
      return b;
    }

    private static byte[] edit(byte[] b, Random random) {
      int at = b.length == 0 ? 0 : random.nextInt(b.length + 1);
      return switch (random.nextInt(9)) {
        case 0 -> java.util.Arrays.copyOf(b, at); // truncation
        case 1 -> { // byte flip
          byte[] c = b.clone();
          if (c.length > 0) {
            c[Math.min(at, c.length - 1)] ^= (byte) (1 << random.nextInt(8));
          }
          yield c;
        }
        case 2 -> splice(b, at, Math.min(b.length, at + random.nextInt(12)), new byte[0]); // deletion
        case 3 -> splice(b, at, at, repeat(random.nextBoolean() ? "[" : "{", 2000 + random.nextInt(3000))); // deep nesting
        case 4 -> splice(b, at, at, ("9".repeat(20 + random.nextInt(400)) + (random.nextBoolean() ? ".5e99999" : ""))
            .getBytes(StandardCharsets.US_ASCII)); // huge number
        case 5 -> splice(b, at, at, new byte[] {(byte) 0xC3}); // invalid UTF-8: a lone lead byte
        case 6 -> splice(b, at, at, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // a UTF-8-encoded surrogate
        case 7 -> { // duplicate a span
          int end = Math.min(b.length, at + random.nextInt(40));
          yield splice(b, at, at, java.util.Arrays.copyOfRange(b, at, end));
        }
        default -> splice(b, at, at, new byte[] {TOKENS[random.nextInt(TOKENS.length)]}); // a stray token character
      };
    }

    static byte[] randomBytes(Random random) {
      byte[] b = new byte[random.nextInt(300)];
      random.nextBytes(b);
      return b;
    }

    private static byte[] repeat(String s, int times) {
      return s.repeat(times).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] splice(byte[] b, int from, int to, byte[] insert) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(b, 0, from);
      out.writeBytes(insert);
      out.write(b, to, b.length - to);
      return out.toByteArray();
    }

    /** The input for a failure message, shortened. */
    static String show(String input) {
      String s = input.length() > 400 ? input.substring(0, 400) + "...(" + input.length() + " chars)" : input;
      return "<<" + s.replace("\n", "\\n") + ">>";
    }
  }
}
