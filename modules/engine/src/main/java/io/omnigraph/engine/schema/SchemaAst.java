package io.omnigraph.engine.schema;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/** Syntax tree of a {@code .pg} file as parsed, before any semantic checks. */
final class SchemaAst {
  private SchemaAst() {}

  record File(List<Decl> declarations) {}

  sealed interface Decl permits InterfaceDecl, NodeDecl, EdgeDecl {
    String name();

    SourcePos pos();
  }

  record NameRef(String name, SourcePos pos) {}

  record InterfaceDecl(String name, SourcePos pos, List<PropDecl> properties) implements Decl {}

  record NodeDecl(
      String name,
      SourcePos pos,
      List<Annotation> annotations,
      List<NameRef> implementsList,
      List<PropDecl> properties,
      List<BodyConstraint> constraints)
      implements Decl {}

  record EdgeDecl(
      String name,
      SourcePos pos,
      NameRef from,
      NameRef to,
      Optional<CardinalityDecl> cardinality,
      List<Annotation> annotations,
      List<PropDecl> properties,
      List<BodyConstraint> constraints)
      implements Decl {}

  record CardinalityDecl(long min, Optional<Long> max, SourcePos pos) {}

  record TypeRef(PropertyType type, boolean nullable, SourcePos pos) {}

  record PropDecl(String name, SourcePos pos, TypeRef type, List<Annotation> annotations) {}

  record BodyConstraint(String name, SourcePos pos, List<ConstraintArg> args) {}

  sealed interface ConstraintArg permits LiteralArg, RangeArg {
    SourcePos pos();
  }

  record LiteralArg(Literal literal, SourcePos pos) implements ConstraintArg {}

  record RangeArg(Optional<BigDecimal> min, Optional<BigDecimal> max, SourcePos pos)
      implements ConstraintArg {}
}
