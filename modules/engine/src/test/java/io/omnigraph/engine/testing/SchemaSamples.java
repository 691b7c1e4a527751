package io.omnigraph.engine.testing;

/** Schemas the schema tests compile, and the schema identity domain they initialize with. */
public final class SchemaSamples {
  private SchemaSamples() {}

  /** A library: an interface, two node types and two edge types using every constraint and annotation. */
  public static final String LIBRARY =
      """
      // library.pg
      interface Titled {
        title: String @description("display title")
      }

      node Author {
        handle: String @key
        full_name: String
        born: Date?
        tags: [String]?
      }

      /* books: the main entity */
      node Book implements Titled @description("a published work") {
        isbn: String @key
        year: I32
        rating: F64?
        status: enum(draft, in_print, out_of_print)
        blurb: String? @index
        blurb_vec: Vector(8)? @embed("blurb", model="mock-8") @index
        @range(year, 1400..2100)
        @check(isbn, "^[0-9-]{10,17}$")
        @index(status)
      }

      edge Wrote: Author -> Book {
        role: String?
        @unique(src, dst)
      }

      edge Cites: Book -> Book @card(0..50)
      """;

  /** A fixed schema identity domain (a ULID). */
  public static final String DOMAIN = "01JABCDEFGHJKMNPQRSTVWXYZ0";
}
