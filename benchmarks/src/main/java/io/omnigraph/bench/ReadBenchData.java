package io.omnigraph.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * The read benchmark's data, identical for every system: {@code persons} Person nodes ({@code
 * pid} "p&lt;i&gt;", {@code name} "person-&lt;i&gt;", {@code age} 18..80), {@code persons / 100}
 * (at least 10) Company nodes, a WorksAt edge for nine persons in ten (the tenth has no
 * employer), and {@value #KNOWS_PER_PERSON} Knows edges out of every person to other persons
 * (no self-loops; duplicates possible, as in any random graph). Fully determined by the size.
 */
public final class ReadBenchData {
  static final int KNOWS_PER_PERSON = 5;

  public static final String SCHEMA = """
      node Person {
        pid: String @key
        name: String
        age: I64
      }
      node Company {
        cid: String @key
        name: String
      }
      edge WorksAt: Person -> Company
      edge Knows: Person -> Person
      """;

  final int persons;
  final int companies;

  ReadBenchData(int persons) {
    this.persons = persons;
    this.companies = Math.max(10, persons / 100);
  }

  static int age(int i) {
    return 18 + (int) ((i * 2654435761L) % 63);
  }

  /** @return the company person i works at, or -1 (every tenth person has none) */
  int employer(int i) {
    if (i % 10 == 9) {
      return -1;
    }
    // Skewed: low company numbers employ more people, so the top-10 aggregate is not a tie.
    long h = (i * 0x9E3779B97F4A7C15L) >>> 33;
    double u = (h % 1_000_003) / 1_000_003.0;
    return (int) (companies * u * u);
  }

  /** Calls {@code each} with the target of every Knows edge of person i. */
  void knows(int i, IntConsumer each) {
    SplittableRandom r = new SplittableRandom(i * 31L + 7);
    for (int k = 0; k < KNOWS_PER_PERSON; k++) {
      int t = r.nextInt(persons - 1);
      each.accept(t >= i ? t + 1 : t);
    }
  }

  /** The engine's input: one NDJSON file (nodes, then edges). */
  void writeNdjson(Path file) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < persons; i++) {
        w.write("{\"type\":\"Person\",\"data\":{\"pid\":\"p" + i + "\",\"name\":\"person-" + i + "\",\"age\":" + age(i)
            + "}}\n");
      }
      for (int c = 0; c < companies; c++) {
        w.write("{\"type\":\"Company\",\"data\":{\"cid\":\"c" + c + "\",\"name\":\"company-" + c + "\"}}\n");
      }
      for (int i = 0; i < persons; i++) {
        int c = employer(i);
        if (c >= 0) {
          w.write("{\"edge\":\"WorksAt\",\"from\":\"p" + i + "\",\"to\":\"c" + c + "\",\"data\":{}}\n");
        }
      }
      for (int i = 0; i < persons; i++) {
        int from = i;
        IOException[] failure = new IOException[1];
        knows(i, t -> {
          try {
            w.write("{\"edge\":\"Knows\",\"from\":\"p" + from + "\",\"to\":\"p" + t + "\",\"data\":{}}\n");
          } catch (IOException e) {
            failure[0] = e;
          }
        });
        if (failure[0] != null) {
          throw failure[0];
        }
      }
    }
  }

  /** Kùzu's input: four CSV files with headers in {@code dir}. */
  void writeCsv(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("person.csv"))) {
      w.write("pid,name,age\n");
      for (int i = 0; i < persons; i++) {
        w.write("p" + i + ",person-" + i + "," + age(i) + "\n");
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("company.csv"))) {
      w.write("cid,name\n");
      for (int c = 0; c < companies; c++) {
        w.write("c" + c + ",company-" + c + "\n");
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("worksat.csv"))) {
      w.write("from,to\n");
      for (int i = 0; i < persons; i++) {
        int c = employer(i);
        if (c >= 0) {
          w.write("p" + i + ",c" + c + "\n");
        }
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("knows.csv"))) {
      w.write("from,to\n");
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < persons; i++) {
        int from = i;
        knows(i, t -> sb.append('p').append(from).append(",p").append(t).append('\n'));
        w.write(sb.toString());
        sb.setLength(0);
      }
    }
  }

  /** @return the key of the person the n-th execution of a keyed query asks about */
  String key(int n) {
    return "p" + (int) ((n * 40503L + 11) % persons);
  }
}
