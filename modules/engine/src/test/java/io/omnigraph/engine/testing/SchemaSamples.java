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

  /** Books and authors: every scalar type, a composite key, and each kind of constraint the loader checks. */
  public static final String BOOKS =
      """
      node Author {
        handle: String @key
        full_name: String
        born: Date?
        tags: [String]?
      }
      node Book {
        isbn: String @key
        title: String
        year: I32
        pages: U32?
        copies: U64?
        rating: F32?
        score: F64?
        status: enum(draft, in_print)
        published: DateTime?
        vec: Vector(3)?
        cover: Blob?
        in_stock: Bool?
        code: String?
        @range(year, 1400..2100)
        @check(isbn, "^[0-9-]+$")
        @unique(code)
      }
      node Note { text: String }
      node Edition { author: String year: I32 @key(author, year) }
      edge Wrote: Author -> Book { role: String? }
      edge Cites: Book -> Book @card(0..2)
      edge Likes: Author -> Author @card(2..) { @unique(src, dst) }
      """;

  /** A fixed schema identity domain (a ULID). */
  public static final String DOMAIN = "01JABCDEFGHJKMNPQRSTVWXYZ0";
}
