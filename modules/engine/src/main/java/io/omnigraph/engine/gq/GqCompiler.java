package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import io.omnigraph.engine.schema.Catalog;
import io.omnigraph.engine.schema.SourcePos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Entry point of the {@code .gq} query language: parse and type-check against a {@link Catalog}.
 * Binding parameters into an executable plan is the plan layer's job ({@code plan.MutationBinder}).
 *
 * <p>All methods are pure and thread-safe; none performs I/O. Every failure is a {@link
 * QueryException} with a {@link QueryException.Code} and, where it has one, the line:column of the
 * offending token.
 */
public final class GqCompiler {
  private GqCompiler() {}

  /**
   * Parses a {@code .gq} file. Enforces the grammar, unique query and parameter names, and the D₂
   * rule (a mutation is constructive or destructive, never both).
   *
   * @param gqText the file's text
   * @return the syntax tree
   * @throws QueryException SYNTAX, QUERY_NAME, PARAM_DECL or MIXED_MUTATION
   */
  public static QueryAst.File parse(String gqText) throws QueryException {
    Objects.requireNonNull(gqText, "gqText");
    return GqParser.parse(gqText);
  }

  /**
   * Type-checks one parsed query.
   *
   * @param catalog the graph's schema
   * @param query a declaration from {@link #parse}
   * @return a {@link CheckedMutation} or a {@link CheckedRead}
   * @throws QueryException with a T-code of docs/errors.md (or IMMUTABLE_PROPERTY / BINDING)
   */
  public static CheckedQuery check(Catalog catalog, QueryDecl query) throws QueryException {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(query, "query");
    if (query.body() instanceof QueryAst.MutationBody) {
      return MutationChecker.check(catalog, query);
    }
    return ReadChecker.check(catalog, query);
  }

  /**
   * Parses a file, selects a query by name and type-checks it.
   *
   * @param catalog the graph's schema
   * @param gqText the file's text
   * @param name the query to run
   * @return the checked query
   * @throws QueryException any parse or check error of the file or that query, or QUERY_NAME when
   *     no query has that name
   */
  public static CheckedQuery compile(Catalog catalog, String gqText, String name) throws QueryException {
    QueryAst.File file = parse(gqText);
    QueryDecl decl = file.query(name).orElseThrow(() -> new QueryException(QueryException.Code.QUERY_NAME, SourcePos.NONE,
        "no query named '" + name + "' in the file"
            + (file.queries().isEmpty() ? " (it declares none)" : " (queries: " + String.join(", ", file.queries().stream().map(QueryDecl::name).toList()) + ")")));
    return check(catalog, decl);
  }

  /**
   * Parses and type-checks every query of a file (what {@code lint} does).
   *
   * @param catalog the graph's schema
   * @param gqText the file's text
   * @return the checked queries in source order
   * @throws QueryException the first error
   */
  public static List<CheckedQuery> checkAll(Catalog catalog, String gqText) throws QueryException {
    List<CheckedQuery> out = new ArrayList<>();
    for (QueryDecl d : parse(gqText).queries()) {
      out.add(check(catalog, d));
    }
    return out;
  }
}
