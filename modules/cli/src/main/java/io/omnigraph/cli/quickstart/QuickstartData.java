package io.omnigraph.cli.quickstart;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.omnigraph.cli.Json;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The quickstart's built-in demo: a small library graph (authors, books, readers; who wrote,
 * read and cited what) of exactly {@value #TOTAL_ROWS} rows, generated deterministically so every
 * run, on every machine, loads the same bytes.
 */
public final class QuickstartData {

  /** The demo schema (.pg). */
  public static final String SCHEMA = """
      // The quickstart's demo schema: a small library.
      node Author {
        handle: String @key
        full_name: String
        born: Date?
      }

      node Book {
        isbn: String @key
        title: String
        year: I32
        rating: F64?
        status: enum(draft, in_print, out_of_print)
        @range(year, 1900..2100)
      }

      node Reader {
        name: String @key
        joined: Date
      }

      edge Wrote: Author -> Book {
        role: String?
      }

      edge Read: Reader -> Book {
        stars: I32?
      }

      edge Cites: Book -> Book @card(0..3)
      """;

  static final int AUTHORS = 40;
  static final int BOOKS = 200;
  static final int READERS = 125;
  static final int READS_PER_READER = 3;
  static final int CITING_BOOKS = 60;
  /** Every row of the demo: nodes, then edges. */
  public static final int TOTAL_ROWS =
      AUTHORS + BOOKS + READERS + BOOKS + READERS * READS_PER_READER + CITING_BOOKS;

  private static final String[] FIRST = {"Ada", "Bo", "Chidi", "Dana", "Emeka", "Farah", "Goran", "Hana"};
  private static final String[] LAST = {"Okafor", "Lind", "Moreau", "Sato", "Ivanova", "Costa", "Nakamura", "Berg"};
  private static final String[] WORDS = {
    "Delta", "Salt", "Quiet", "Iron", "Paper", "River", "Glass", "Winter", "Amber", "Signal",
    "Tides", "Roads", "Orchard", "Lanterns", "Engines", "Maps", "Harbors", "Echoes", "Gardens"
  };
  private static final String[] STATUS = {"in_print", "in_print", "out_of_print", "draft"};
  private static final LocalDate EPOCH = LocalDate.of(2020, 1, 1);

  private QuickstartData() {}

  /** @return the demo rows as NDJSON (one envelope per line, nodes first), UTF-8 */
  public static byte[] ndjson() {
    StringBuilder sb = new StringBuilder();
    for (ObjectNode line : lines()) {
      sb.append(Json.write(line)).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A small follow-up change for the quickstart's second commit: re-rates a few books and adds
   * one reader, as NDJSON for a {@code merge} load.
   */
  public static byte[] mergeUpdate() {
    StringBuilder sb = new StringBuilder();
    for (int b = 0; b < 5; b++) {
      ObjectNode book = book(b);
      ((ObjectNode) book.get("data")).put("rating", 5.0);
      sb.append(Json.write(book)).append('\n');
    }
    ObjectNode reader = node("Reader");
    data(reader).put("name", "newcomer").put("joined", EPOCH.plusDays(1000).toString());
    sb.append(Json.write(reader)).append('\n');
    ObjectNode read = edge("Read", "newcomer", isbn(0));
    data(read).put("stars", 5);
    sb.append(Json.write(read)).append('\n');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Rows of {@link #mergeUpdate()}: 5 books updated, 1 reader and 1 edge added. */
  public static final int MERGE_ROWS = 7;

  static List<ObjectNode> lines() {
    List<ObjectNode> out = new ArrayList<>(TOTAL_ROWS);
    for (int a = 0; a < AUTHORS; a++) {
      ObjectNode n = node("Author");
      data(n).put("handle", handle(a))
          .put("full_name", FIRST[a % FIRST.length] + " " + LAST[(a / FIRST.length + a) % LAST.length]);
      if (a % 5 != 0) { // some authors have no known birth date: shows an optional property
        data(n).put("born", LocalDate.of(1940 + (a * 7) % 50, 1 + a % 12, 1 + (a * 3) % 28).toString());
      }
      out.add(n);
    }
    for (int b = 0; b < BOOKS; b++) {
      out.add(book(b));
    }
    for (int r = 0; r < READERS; r++) {
      ObjectNode n = node("Reader");
      data(n).put("name", "reader-" + r).put("joined", EPOCH.plusDays((r * 37L) % 1500).toString());
      out.add(n);
    }
    for (int b = 0; b < BOOKS; b++) {
      ObjectNode e = edge("Wrote", handle(author(b)), isbn(b));
      if (b % 4 == 0) {
        data(e).put("role", b % 8 == 0 ? "lead" : "co-author");
      }
      out.add(e);
    }
    for (int r = 0; r < READERS; r++) {
      for (int k = 0; k < READS_PER_READER; k++) {
        int b = (r * 7 + k * 53) % BOOKS;
        ObjectNode e = edge("Read", "reader-" + r, isbn(b));
        if ((r + k) % 3 != 0) {
          data(e).put("stars", 1 + (r * 5 + k) % 5);
        }
        out.add(e);
      }
    }
    for (int c = 0; c < CITING_BOOKS; c++) {
      int from = BOOKS - 1 - c; // later books cite earlier ones
      out.add(edge("Cites", isbn(from), isbn((from * 13) % (BOOKS / 2))));
    }
    return out;
  }

  private static ObjectNode book(int b) {
    ObjectNode n = node("Book");
    data(n).put("isbn", isbn(b))
        .put("title", WORDS[b % WORDS.length] + " " + WORDS[(b * 7 + 3) % WORDS.length])
        .put("year", 1950 + (b * 11) % 75)
        .put("status", STATUS[b % STATUS.length]);
    if (b % 3 != 0) {
      data(n).put("rating", ((b * 17) % 41) / 10.0 + 1.0);
    }
    return n;
  }

  private static int author(int book) {
    return (book * 3) % AUTHORS;
  }

  private static String handle(int a) {
    return LAST[(a / FIRST.length + a) % LAST.length].toLowerCase(java.util.Locale.ROOT) + "-" + a;
  }

  private static String isbn(int b) {
    return String.format(java.util.Locale.ROOT, "978-0-%02d-%06d-%d", b % 100, 100000 + b, b % 10);
  }

  private static ObjectNode node(String type) {
    ObjectNode n = Json.object();
    n.put("type", type);
    n.putObject("data");
    return n;
  }

  private static ObjectNode edge(String type, String from, String to) {
    ObjectNode e = Json.object();
    e.put("edge", type).put("from", from).put("to", to);
    e.putObject("data");
    return e;
  }

  private static ObjectNode data(ObjectNode line) {
    return (ObjectNode) line.get("data");
  }
}
