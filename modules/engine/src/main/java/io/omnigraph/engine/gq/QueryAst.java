package io.omnigraph.engine.gq;

import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.SourcePos;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The syntax tree of a {@code .gq} file as written, before type
 * checking. Every
 * node carries the {@link SourcePos} of its first token so later phases can report line:column.
 * All records are immutable.
 */
public final class QueryAst {
  private QueryAst() {}

  /**
   * A parsed file.
   *
   * @param queries the query declarations in source order (names are unique)
   */
  public record File(List<QueryDecl> queries) {
    public File {
      queries = List.copyOf(queries);
    }

    /**
     * @param name a query name
     * @return the declaration of that exact name
     */
    public Optional<QueryDecl> query(String name) {
      return queries.stream().filter(q -> q.name().equals(name)).findFirst();
    }
  }

  /**
   * One named query.
   *
   * @param name the query name
   * @param pos where the name was written
   * @param params declared parameters in source order
   * @param description the {@code @description} text, if any
   * @param instruction the {@code @instruction} text, if any
   * @param body what the query does
   */
  public record QueryDecl(
      String name,
      SourcePos pos,
      List<ParamDecl> params,
      Optional<String> description,
      Optional<String> instruction,
      Body body) {
    public QueryDecl {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pos, "pos");
      params = List.copyOf(params);
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(instruction, "instruction");
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * A declared parameter {@code $name: Type[?]}.
   *
   * @param name the name without {@code $}
   * @param type a scalar, list-of-scalar or vector type (never an enum)
   * @param nullable whether the parameter may be omitted or null
   * @param pos where the variable was written
   */
  public record ParamDecl(String name, PropertyType type, boolean nullable, SourcePos pos) {
    public ParamDecl {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(pos, "pos");
      if (type instanceof PropertyType.EnumOf) {
        throw new IllegalArgumentException("parameters cannot have enum types");
      }
    }

    /** @return the declared type as written, e.g. {@code [String]?} */
    public String typeSpelling() {
      return type.spelling() + (nullable ? "?" : "");
    }
  }

  /** The body of a query: a read or a list of mutation statements. */
  public sealed interface Body permits ReadBody, MutationBody {}

  /**
   * {@code match { ... } return { ... } [order { ... }] [limit n]}.
   *
   * @param match the match clauses (at least one)
   * @param projections the return projections (at least one)
   * @param orderings the orderings, empty when there is no order clause
   * @param limit the limit, if given
   * @param pos where {@code match} was written
   */
  public record ReadBody(
      List<Clause> match, List<Projection> projections, List<Ordering> orderings, Optional<Limit> limit, SourcePos pos)
      implements Body {
    public ReadBody {
      match = List.copyOf(match);
      projections = List.copyOf(projections);
      orderings = List.copyOf(orderings);
      Objects.requireNonNull(limit, "limit");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * One or more mutation statements, executed in order and committed once.
   *
   * @param statements the statements (at least one); by the D₂ rule either all are inserts/updates
   *     or all are deletes
   */
  public record MutationBody(List<Mutation> statements) implements Body {
    public MutationBody {
      statements = List.copyOf(statements);
      if (statements.isEmpty()) {
        throw new IllegalArgumentException("a mutation body has at least one statement");
      }
    }
  }

  /**
   * {@code limit n}.
   *
   * @param value the limit
   * @param pos where the number was written
   */
  public record Limit(BigInteger value, SourcePos pos) {
    public Limit {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(pos, "pos");
    }
  }

  // ---- mutations ------------------------------------------------------------------------

  /** A mutation statement. */
  public sealed interface Mutation permits Insert, Update, Delete {
    /** @return the target type as written */
    String typeName();

    /** @return where the statement keyword was written */
    SourcePos pos();

    /** @return where the type name was written */
    SourcePos typePos();
  }

  /**
   * {@code insert Type { p: v, ... }}.
   *
   * @param typeName the node or edge type
   * @param pos where {@code insert} was written
   * @param typePos where the type name was written
   * @param assignments the assignments as written (may be empty; the checker rejects that with T10)
   */
  public record Insert(String typeName, SourcePos pos, SourcePos typePos, List<Assignment> assignments)
      implements Mutation {
    public Insert {
      Objects.requireNonNull(typeName, "typeName");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(typePos, "typePos");
      assignments = List.copyOf(assignments);
    }
  }

  /**
   * {@code update Type set { p: v, ... } where prop op value}.
   *
   * @param typeName the node type
   * @param pos where {@code update} was written
   * @param typePos where the type name was written
   * @param assignments the assignments as written (may be empty; the checker rejects that with T10)
   * @param where the one predicate
   */
  public record Update(
      String typeName, SourcePos pos, SourcePos typePos, List<Assignment> assignments, Predicate where)
      implements Mutation {
    public Update {
      Objects.requireNonNull(typeName, "typeName");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(typePos, "typePos");
      assignments = List.copyOf(assignments);
      Objects.requireNonNull(where, "where");
    }
  }

  /**
   * {@code delete Type where prop op value}.
   *
   * @param typeName the node or edge type
   * @param pos where {@code delete} was written
   * @param typePos where the type name was written
   * @param where the one predicate
   */
  public record Delete(String typeName, SourcePos pos, SourcePos typePos, Predicate where) implements Mutation {
    public Delete {
      Objects.requireNonNull(typeName, "typeName");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(typePos, "typePos");
      Objects.requireNonNull(where, "where");
    }
  }

  /**
   * {@code property: value} in an insert or update.
   *
   * @param property the property name ({@code from}/{@code to} for edge endpoints)
   * @param pos where the property name was written
   * @param value the value
   */
  public record Assignment(String property, SourcePos pos, Value value) {
    public Assignment {
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * The one comparison of a {@code where}: {@code property op value}.
   *
   * @param property the property name ({@code from}/{@code to} on edges)
   * @param pos where the property name was written
   * @param op the comparison
   * @param value the value compared against
   */
  public record Predicate(String property, SourcePos pos, CompOp op, Value value) {
    public Predicate {
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(value, "value");
    }
  }

  /** A comparison operator of a {@code where} predicate or match filter. */
  public enum CompOp {
    EQ("="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    CompOp(String symbol) {
      this.symbol = symbol;
    }

    /** @return the operator as written, e.g. {@code >=} */
    public String symbol() {
      return symbol;
    }
  }

  /** A value position: a literal, a {@code $parameter}, or {@code now()}. */
  public sealed interface Value permits LiteralValue, ParamRef, Now {
    /** @return where the value was written */
    SourcePos pos();
  }

  /**
   * A literal value.
   *
   * @param literal the literal
   */
  public record LiteralValue(Literal literal) implements Value {
    public LiteralValue {
      Objects.requireNonNull(literal, "literal");
    }

    @Override
    public SourcePos pos() {
      return literal.pos();
    }
  }

  /**
   * A {@code $name} in a value position (in a mutation always a parameter; in a read query either a
   * parameter or a bound variable).
   *
   * @param name the name without {@code $}
   * @param pos where it was written
   */
  public record ParamRef(String name, SourcePos pos) implements Value {
    public ParamRef {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code now()}: the mutation's timestamp (a UTC DateTime fixed once per execution).
   *
   * @param pos where it was written
   */
  public record Now(SourcePos pos) implements Value {
    public Now {
      Objects.requireNonNull(pos, "pos");
    }
  }

  /** A literal as written (no minus sign and no null literal: both come in as parameters). */
  public sealed interface Literal permits StringLit, IntLit, FloatLit, BoolLit, DateLit, DateTimeLit, ListLit {
    /** @return where the literal was written */
    SourcePos pos();
  }

  /**
   * @param value the decoded string
   * @param pos where it was written
   */
  public record StringLit(String value, SourcePos pos) implements Literal {
    public StringLit {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * @param value an unsigned integer
   * @param pos where it was written
   */
  public record IntLit(BigInteger value, SourcePos pos) implements Literal {
    public IntLit {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * @param value a decimal with digits on both sides of the point
   * @param pos where it was written
   */
  public record FloatLit(BigDecimal value, SourcePos pos) implements Literal {
    public FloatLit {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * @param value true or false
   * @param pos where it was written
   */
  public record BoolLit(boolean value, SourcePos pos) implements Literal {
    public BoolLit {
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code date("YYYY-MM-DD")}; the text is validated by the type checker.
   *
   * @param text the string argument
   * @param pos where {@code date} was written
   */
  public record DateLit(String text, SourcePos pos) implements Literal {
    public DateLit {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code datetime("...")}; the text is validated by the type checker.
   *
   * @param text the string argument
   * @param pos where {@code datetime} was written
   */
  public record DateTimeLit(String text, SourcePos pos) implements Literal {
    public DateTimeLit {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code [a, b, ...]}.
   *
   * @param items the items in order (may be empty)
   * @param pos where {@code [} was written
   */
  public record ListLit(List<Literal> items, SourcePos pos) implements Literal {
    public ListLit {
      items = List.copyOf(items);
      Objects.requireNonNull(pos, "pos");
    }
  }

  // ---- read queries ---------------------------------------------------------------------

  /** A clause of a {@code match} block. */
  public sealed interface Clause permits Binding, Traversal, Filter, Negation, TextSearch {
    /** @return where the clause starts */
    SourcePos pos();
  }

  /**
   * {@code $v: Type [{ p: value, ... }]}.
   *
   * @param variable the variable name without {@code $}
   * @param typeName the node type as written
   * @param typePos where the type name was written
   * @param matches property equalities (may be empty)
   * @param pos where the variable was written
   */
  public record Binding(String variable, String typeName, SourcePos typePos, List<PropMatch> matches, SourcePos pos)
      implements Clause {
    public Binding {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(typeName, "typeName");
      Objects.requireNonNull(typePos, "typePos");
      matches = List.copyOf(matches);
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code prop: value} inside a binding's braces.
   *
   * @param property the property name
   * @param pos where it was written
   * @param value the value
   */
  public record PropMatch(String property, SourcePos pos, Value value) {
    public PropMatch {
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(pos, "pos");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * {@code $src [$e:] edge [{min,max}] $dst} or the undirected {@code $src <edge> $dst}.
   *
   * @param source the source variable
   * @param edgeVariable the edge binding variable, if written
   * @param edgeName the edge name as written (lowercase-initial)
   * @param edgePos where the edge name was written
   * @param undirected whether written {@code <edge>}
   * @param minHops the minimum hop count (default 1)
   * @param maxHops the maximum hop count (default 1; empty when written unbounded {@code {1,}})
   * @param target the target variable
   * @param pos where the source variable was written
   */
  public record Traversal(
      String source,
      Optional<String> edgeVariable,
      String edgeName,
      SourcePos edgePos,
      boolean undirected,
      BigInteger minHops,
      Optional<BigInteger> maxHops,
      String target,
      SourcePos pos)
      implements Clause {
    public Traversal {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(edgeVariable, "edgeVariable");
      Objects.requireNonNull(edgeName, "edgeName");
      Objects.requireNonNull(edgePos, "edgePos");
      Objects.requireNonNull(minHops, "minHops");
      Objects.requireNonNull(maxHops, "maxHops");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /** The operator of a match filter. */
  public enum FilterOp {
    EQ("="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    CONTAINS("contains"),
    STARTS_WITH("starts_with");

    private final String symbol;

    FilterOp(String symbol) {
      this.symbol = symbol;
    }

    /** @return the operator as written */
    public String symbol() {
      return symbol;
    }
  }

  /**
   * {@code expr op expr}.
   *
   * @param left the left operand
   * @param op the operator
   * @param right the right operand
   * @param pos where the left operand starts
   */
  public record Filter(Expr left, FilterOp op, Expr right, SourcePos pos) implements Clause {
    public Filter {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(right, "right");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code not { clauses }}.
   *
   * @param clauses the inner clauses (at least one)
   * @param pos where {@code not} was written
   */
  public record Negation(List<Clause> clauses, SourcePos pos) implements Clause {
    public Negation {
      clauses = List.copyOf(clauses);
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * A {@code search(...)}, {@code fuzzy(...)} or {@code match_text(...)} call written as a clause.
   *
   * @param call the call
   */
  public record TextSearch(Call call) implements Clause {
    public TextSearch {
      Objects.requireNonNull(call, "call");
    }

    @Override
    public SourcePos pos() {
      return call.pos();
    }
  }

  /** An expression of a filter, projection or ordering. */
  public sealed interface Expr permits PropAccess, VarRef, AliasRef, LiteralExpr, NowExpr, Call {
    /** @return where the expression starts */
    SourcePos pos();
  }

  /**
   * {@code $v.prop}.
   *
   * @param variable the variable without {@code $}
   * @param property the property
   * @param pos where the variable was written
   */
  public record PropAccess(String variable, String property, SourcePos pos) implements Expr {
    public PropAccess {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(property, "property");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * {@code $v}: a bound variable or a parameter.
   *
   * @param name the name without {@code $}
   * @param pos where it was written
   */
  public record VarRef(String name, SourcePos pos) implements Expr {
    public VarRef {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * A bare identifier: a reference to a projection alias.
   *
   * @param name the alias
   * @param pos where it was written
   */
  public record AliasRef(String name, SourcePos pos) implements Expr {
    public AliasRef {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * A literal in an expression.
   *
   * @param literal the literal
   */
  public record LiteralExpr(Literal literal) implements Expr {
    public LiteralExpr {
      Objects.requireNonNull(literal, "literal");
    }

    @Override
    public SourcePos pos() {
      return literal.pos();
    }
  }

  /**
   * {@code now()} in an expression.
   *
   * @param pos where it was written
   */
  public record NowExpr(SourcePos pos) implements Expr {
    public NowExpr {
      Objects.requireNonNull(pos, "pos");
    }
  }

  /** The functions an expression can call. */
  public enum Function {
    NEAREST("nearest"),
    SEARCH("search"),
    FUZZY("fuzzy"),
    MATCH_TEXT("match_text"),
    BM25("bm25"),
    RRF("rrf"),
    COUNT("count"),
    SUM("sum"),
    AVG("avg"),
    MIN("min"),
    MAX("max");

    private final String spelling;

    Function(String spelling) {
      this.spelling = spelling;
    }

    /** @return the name as written */
    public String spelling() {
      return spelling;
    }

    /** @return true for count, sum, avg, min, max */
    public boolean isAggregate() {
      return ordinal() >= COUNT.ordinal();
    }

    /**
     * @param name a word
     * @return the function of that exact name
     */
    public static Optional<Function> of(String name) {
      for (Function f : values()) {
        if (f.spelling.equals(name)) {
          return Optional.of(f);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * A function call (search, ranking or aggregate).
   *
   * @param function the function
   * @param args the arguments in order
   * @param pos where the function name was written
   */
  public record Call(Function function, List<Expr> args, SourcePos pos) implements Expr {
    public Call {
      Objects.requireNonNull(function, "function");
      args = List.copyOf(args);
      Objects.requireNonNull(pos, "pos");
    }
  }

  /**
   * A return projection {@code expr [as alias]}.
   *
   * @param expr the expression
   * @param alias the alias, if written
   */
  public record Projection(Expr expr, Optional<String> alias) {
    public Projection {
      Objects.requireNonNull(expr, "expr");
      Objects.requireNonNull(alias, "alias");
    }
  }

  /**
   * An ordering {@code expr [asc|desc]}.
   *
   * @param expr the sort expression
   * @param descending whether {@code desc} was written
   * @param pos where the expression starts
   */
  public record Ordering(Expr expr, boolean descending, SourcePos pos) {
    public Ordering {
      Objects.requireNonNull(expr, "expr");
      Objects.requireNonNull(pos, "pos");
    }
  }
}
