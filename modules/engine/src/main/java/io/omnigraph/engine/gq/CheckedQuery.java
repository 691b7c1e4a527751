package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.QueryDecl;
import java.util.List;

/**
 * A query that parsed and type-checked against a catalog; parameters are declared but not yet
 * bound. Immutable; can be bound many times.
 */
public sealed interface CheckedQuery permits CheckedMutation, CheckedRead {
  /** @return the declaration as parsed */
  QueryDecl decl();

  /** @return the query's name */
  default String name() {
    return decl().name();
  }

  /** @return the declared parameters in source order */
  default List<ParamDecl> params() {
    return decl().params();
  }
}
