package io.omnigraph.engine.gq;

import io.omnigraph.engine.gq.GqLexer.Kind;
import io.omnigraph.engine.gq.GqLexer.Token;
import io.omnigraph.engine.gq.QueryAst.Assignment;
import io.omnigraph.engine.gq.QueryAst.Binding;
import io.omnigraph.engine.gq.QueryAst.BoolLit;
import io.omnigraph.engine.gq.QueryAst.Call;
import io.omnigraph.engine.gq.QueryAst.Clause;
import io.omnigraph.engine.gq.QueryAst.CompOp;
import io.omnigraph.engine.gq.QueryAst.DateLit;
import io.omnigraph.engine.gq.QueryAst.DateTimeLit;
import io.omnigraph.engine.gq.QueryAst.Expr;
import io.omnigraph.engine.gq.QueryAst.FilterOp;
import io.omnigraph.engine.gq.QueryAst.FloatLit;
import io.omnigraph.engine.gq.QueryAst.Function;
import io.omnigraph.engine.gq.QueryAst.IntLit;
import io.omnigraph.engine.gq.QueryAst.ListLit;
import io.omnigraph.engine.gq.QueryAst.Literal;
import io.omnigraph.engine.gq.QueryAst.Mutation;
import io.omnigraph.engine.gq.QueryAst.ParamDecl;
import io.omnigraph.engine.gq.QueryAst.Predicate;
import io.omnigraph.engine.gq.QueryAst.PropMatch;
import io.omnigraph.engine.gq.QueryAst.StringLit;
import io.omnigraph.engine.gq.QueryAst.Value;
import io.omnigraph.engine.schema.PropertyType;
import io.omnigraph.engine.schema.ScalarKind;
import io.omnigraph.engine.schema.SourcePos;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Recursive-descent parser for the {@code .gq} grammar, in the style of the
 * schema parser: hand-written so that the context-sensitive spots (a {@code $x :} followed by an
 * uppercase word is a binding, by a lowercase word a traversal; {@code $x < 5} is a filter but
 * {@code $x <cites> $y} a traversal) are decided with a few tokens of lookahead, and every error
 * says what was expected and what was found, at line:column.
 *
 * <p>The D₂ rule is enforced here, at parse time: a mutation body whose statements mix {@code
 * delete} with {@code insert}/{@code update} is rejected before any type checking.
 */
final class GqParser {
  private static final int MAX_HOPS_LITERAL = 1_000_000;

  private final GqLexer lexer;
  private final List<Token> buffer = new ArrayList<>();

  private GqParser(String text) {
    this.lexer = new GqLexer(text);
  }

  static QueryAst.File parse(String text) throws QueryException {
    return new GqParser(text).file();
  }

  // ---- token plumbing -------------------------------------------------------------------

  private Token peek(int ahead) throws QueryException {
    while (buffer.size() <= ahead) {
      Token t = buffer.isEmpty() || buffer.get(buffer.size() - 1).kind() != Kind.EOF
          ? lexer.next()
          : buffer.get(buffer.size() - 1);
      buffer.add(t);
    }
    return buffer.get(ahead);
  }

  private Token peek() throws QueryException {
    return peek(0);
  }

  private Token take() throws QueryException {
    Token t = peek();
    buffer.remove(0);
    return t;
  }

  private boolean at(Kind kind) throws QueryException {
    return peek().kind() == kind;
  }

  private boolean atWord(String word) throws QueryException {
    return peek().isWord(word);
  }

  private Token expect(Kind kind, String what) throws QueryException {
    Token t = peek();
    if (t.kind() != kind) {
      throw unexpected(t, what);
    }
    return take();
  }

  private Token expectWord(String word) throws QueryException {
    if (!atWord(word)) {
      throw unexpected(peek(), "'" + word + "'");
    }
    return take();
  }

  private static QueryException unexpected(Token found, String expected) {
    return QueryException.syntax(found.pos(), "expected " + expected + ", found " + found.describe());
  }

  private Token ident(String what) throws QueryException {
    Token t = peek();
    if (t.kind() == Kind.TYPE_NAME) {
      throw QueryException.syntax(
          t.pos(), "expected " + what + " (starting with a lowercase letter or '_'), found " + t.describe());
    }
    return expect(Kind.IDENT, what);
  }

  private Token typeName(String what) throws QueryException {
    Token t = peek();
    if (t.kind() == Kind.IDENT) {
      throw QueryException.syntax(
          t.pos(), "expected " + what + " (starting with an uppercase letter), found " + t.describe());
    }
    return expect(Kind.TYPE_NAME, what);
  }

  // ---- file and declarations --------------------------------------------------------------

  private QueryAst.File file() throws QueryException {
    List<QueryAst.QueryDecl> queries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    while (!at(Kind.EOF)) {
      if (!atWord("query")) {
        throw unexpected(peek(), "'query'");
      }
      QueryAst.QueryDecl q = queryDecl();
      if (!names.add(q.name())) {
        throw new QueryException(QueryException.Code.QUERY_NAME, q.pos(), "query '" + q.name() + "' is declared more than once");
      }
      queries.add(q);
    }
    return new QueryAst.File(queries);
  }

  private QueryAst.QueryDecl queryDecl() throws QueryException {
    take(); // query
    Token name = ident("query name");
    expect(Kind.LPAREN, "'('");
    List<ParamDecl> params = new ArrayList<>();
    Set<String> paramNames = new HashSet<>();
    if (!at(Kind.RPAREN)) {
      while (true) {
        ParamDecl p = param();
        if (!paramNames.add(p.name())) {
          throw new QueryException(QueryException.Code.PARAM_DECL, p.pos(), "parameter '$" + p.name() + "' is declared more than once");
        }
        params.add(p);
        if (at(Kind.COMMA)) {
          take();
          continue;
        }
        break;
      }
    }
    expect(Kind.RPAREN, "',' or ')'");
    Optional<String> description = Optional.empty();
    Optional<String> instruction = Optional.empty();
    while (at(Kind.AT)) {
      take();
      Token annot = peek();
      if (annot.isWord("description") || annot.isWord("instruction")) {
        take();
        expect(Kind.LPAREN, "'('");
        String text = expect(Kind.STRING, "a string").text();
        expect(Kind.RPAREN, "')'");
        if (annot.text().equals("description")) {
          if (description.isPresent()) {
            throw QueryException.syntax(annot.pos(), "query '" + name.text() + "' has more than one @description");
          }
          description = Optional.of(text);
        } else {
          if (instruction.isPresent()) {
            throw QueryException.syntax(annot.pos(), "query '" + name.text() + "' has more than one @instruction");
          }
          instruction = Optional.of(text);
        }
      } else {
        throw unexpected(annot, "'description' or 'instruction' (the only query annotations)");
      }
    }
    expect(Kind.LBRACE, "'{'");
    QueryAst.Body body;
    if (atWord("match")) {
      body = readBody();
    } else if (atWord("insert") || atWord("update") || atWord("delete")) {
      body = mutationBody(name.text());
    } else {
      throw unexpected(peek(), "'match', 'insert', 'update' or 'delete'");
    }
    expect(Kind.RBRACE, "'}' closing query '" + name.text() + "'");
    return new QueryAst.QueryDecl(name.text(), name.pos(), params, description, instruction, body);
  }

  private ParamDecl param() throws QueryException {
    Token var = peek();
    if (var.kind() != Kind.VARIABLE) {
      throw unexpected(var, "a parameter ('$name: Type')");
    }
    take();
    expect(Kind.COLON, "':' and a type after '$" + var.text() + "'");
    Token t = peek();
    PropertyType type;
    if (t.kind() == Kind.LBRACKET) {
      take();
      Token item = peek();
      ScalarKind k = baseType(item, var.text());
      take();
      expect(Kind.RBRACKET, "']'");
      type = new PropertyType.ListOf(k);
    } else if (t.isWord("Vector")) {
      take();
      expect(Kind.LPAREN, "'('");
      Token dim = expect(Kind.INTEGER, "the vector dimension");
      BigInteger d = new BigInteger(dim.text());
      if (d.signum() == 0 || d.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
        throw QueryException.syntax(dim.pos(), "Vector dimension must be between 1 and " + Integer.MAX_VALUE + ", found " + dim.text());
      }
      expect(Kind.RPAREN, "')'");
      type = new PropertyType.VectorOf(d.intValue());
    } else if (t.isWord("enum")) {
      throw new QueryException(QueryException.Code.PARAM_DECL, t.pos(),
          "enum parameter types are not supported for '$" + var.text() + "'; declare it as String (values are checked against the enum when bound)");
    } else {
      type = new PropertyType.Scalar(baseType(t, var.text()));
      take();
    }
    boolean nullable = false;
    if (at(Kind.QUESTION)) {
      take();
      nullable = true;
    }
    if (var.text().equals("__nanograph_now")) {
      throw new QueryException(QueryException.Code.PARAM_DECL, var.pos(), "parameter name '$__nanograph_now' is reserved (it carries now())");
    }
    return new ParamDecl(var.text(), type, nullable, var.pos());
  }

  private static ScalarKind baseType(Token t, String param) throws QueryException {
    if (t.kind() == Kind.TYPE_NAME || t.kind() == Kind.IDENT) {
      Optional<ScalarKind> k = ScalarKind.fromSpelling(t.text());
      if (k.isPresent()) {
        return k.get();
      }
      throw new QueryException(QueryException.Code.PARAM_DECL, t.pos(),
          "unknown parameter type `" + t.text() + "` for `$" + param + "` (expected String, Bool, I32, I64, U32, U64, F32, F64, Date, DateTime, Blob, [T] or Vector(n))");
    }
    throw unexpected(t, "a parameter type");
  }

  // ---- mutations ---------------------------------------------------------------------------

  private QueryAst.MutationBody mutationBody(String queryName) throws QueryException {
    List<Mutation> statements = new ArrayList<>();
    while (atWord("insert") || atWord("update") || atWord("delete")) {
      statements.add(mutation());
    }
    if (atWord("match")) {
      throw QueryException.syntax(peek().pos(), "a query is either a read (match ... return) or a mutation, not both");
    }
    rejectMixed(queryName, statements);
    return new QueryAst.MutationBody(statements);
  }

  /**
   * D₂: constructive (insert/update) XOR destructive (delete). Reported at the first statement
   * whose kind differs from the first statement's kind.
   */
  private static void rejectMixed(String queryName, List<Mutation> statements) throws QueryException {
    boolean destructive = statements.get(0) instanceof QueryAst.Delete;
    for (Mutation m : statements) {
      if ((m instanceof QueryAst.Delete) != destructive) {
        throw new QueryException(QueryException.Code.MIXED_MUTATION, m.pos(),
            "mutation '" + queryName + "' mixes inserts/updates and deletes; split it into separate mutations:"
                + " (1) inserts and updates, then (2) deletes. Each query is committed atomically on its own;"
                + " run them in that order (or on a branch and merge) to combine them.");
      }
    }
  }

  private Mutation mutation() throws QueryException {
    Token kw = take();
    Token type = typeName("a node or edge type name");
    switch (kw.text()) {
      case "insert" -> {
        List<Assignment> assignments = assignments();
        return new QueryAst.Insert(type.text(), kw.pos(), type.pos(), assignments);
      }
      case "update" -> {
        expectWord("set");
        List<Assignment> assignments = assignments();
        expectWord("where");
        Predicate where = predicate();
        return new QueryAst.Update(type.text(), kw.pos(), type.pos(), assignments, where);
      }
      default -> {
        expectWord("where");
        Predicate where = predicate();
        return new QueryAst.Delete(type.text(), kw.pos(), type.pos(), where);
      }
    }
  }

  private List<Assignment> assignments() throws QueryException {
    expect(Kind.LBRACE, "'{'");
    List<Assignment> out = new ArrayList<>();
    while (!at(Kind.RBRACE)) {
      Token prop = ident("a property name or '}'");
      expect(Kind.COLON, "':' after '" + prop.text() + "'");
      Value v = value();
      out.add(new Assignment(prop.text(), prop.pos(), v));
      if (at(Kind.COMMA)) {
        take();
      } else if (!at(Kind.RBRACE) && peek().kind() != Kind.IDENT) {
        throw unexpected(peek(), "',' or '}'");
      }
    }
    take();
    return out;
  }

  private Predicate predicate() throws QueryException {
    Token prop = ident("a property name");
    Token opTok = peek();
    CompOp op = compOp(opTok);
    if (op == null) {
      if (opTok.isWord("contains") || opTok.isWord("starts_with")) {
        throw QueryException.syntax(opTok.pos(),
            "'" + opTok.text() + "' is not allowed in a mutation's where; expected one of = != < <= > >=");
      }
      throw unexpected(opTok, "a comparison (= != < <= > >=)");
    }
    take();
    Value v = value();
    if (atWord("and") || atWord("or")) {
      throw QueryException.syntax(peek().pos(),
          "a mutation's where takes exactly one comparison; '" + peek().text() + "' is not supported (split the statement)");
    }
    return new Predicate(prop.text(), prop.pos(), op, v);
  }

  private static CompOp compOp(Token t) {
    return switch (t.kind()) {
      case EQ -> CompOp.EQ;
      case NE -> CompOp.NE;
      case LT -> CompOp.LT;
      case LE -> CompOp.LE;
      case GT -> CompOp.GT;
      case GE -> CompOp.GE;
      default -> null;
    };
  }

  private Value value() throws QueryException {
    Token t = peek();
    if (t.kind() == Kind.VARIABLE) {
      take();
      return new QueryAst.ParamRef(t.text(), t.pos());
    }
    if (t.isWord("now") && peek(1).kind() == Kind.LPAREN) {
      take();
      take();
      expect(Kind.RPAREN, "')' (now() takes no arguments)");
      return new QueryAst.Now(t.pos());
    }
    return new QueryAst.LiteralValue(literal("a value (literal, $parameter or now())"));
  }

  private boolean atLiteral() throws QueryException {
    Token t = peek();
    return switch (t.kind()) {
      case STRING, INTEGER, FLOAT, LBRACKET -> true;
      case IDENT -> t.text().equals("true") || t.text().equals("false")
          || ((t.text().equals("date") || t.text().equals("datetime")) && peek(1).kind() == Kind.LPAREN);
      default -> false;
    };
  }

  /** Deeper list literals are refused with a position instead of exhausting the parser's stack. */
  static final int MAX_LIST_NESTING = 64;

  private int listNesting;

  private ListLit listLiteral(Token open) throws QueryException {
    take();
    List<Literal> items = new ArrayList<>();
    if (!at(Kind.RBRACKET)) {
      while (true) {
        items.add(literal("a list item (literal)"));
        if (at(Kind.COMMA)) {
          take();
          continue;
        }
        break;
      }
    }
    expect(Kind.RBRACKET, "',' or ']'");
    return new ListLit(items, open.pos());
  }

  private Literal literal(String what) throws QueryException {
    Token t = peek();
    switch (t.kind()) {
      case STRING -> {
        take();
        return new StringLit(t.text(), t.pos());
      }
      case INTEGER -> {
        take();
        return new IntLit(new BigInteger(t.text()), t.pos());
      }
      case FLOAT -> {
        take();
        try {
          return new FloatLit(new BigDecimal(t.text()), t.pos());
        } catch (NumberFormatException e) {
          throw QueryException.syntax(t.pos(), "number out of range: " + t.text());
        }
      }
      case LBRACKET -> {
        if (listNesting >= MAX_LIST_NESTING) {
          throw QueryException.syntax(t.pos(), "list literals nested deeper than " + MAX_LIST_NESTING);
        }
        listNesting++;
        try {
          return listLiteral(t);
        } finally {
          listNesting--;
        }
      }
      case IDENT -> {
        if (t.text().equals("true") || t.text().equals("false")) {
          take();
          return new BoolLit(t.text().equals("true"), t.pos());
        }
        if ((t.text().equals("date") || t.text().equals("datetime")) && peek(1).kind() == Kind.LPAREN) {
          take();
          take();
          String text = expect(Kind.STRING, "a string").text();
          expect(Kind.RPAREN, "')'");
          return t.text().equals("date") ? new DateLit(text, t.pos()) : new DateTimeLit(text, t.pos());
        }
        if (t.text().equals("null")) {
          throw QueryException.syntax(t.pos(), "there is no null literal in .gq; pass null through a nullable parameter ('$p: T?')");
        }
        throw unexpected(t, what);
      }
      default -> throw unexpected(t, what);
    }
  }

  // ---- read queries ------------------------------------------------------------------------

  private QueryAst.ReadBody readBody() throws QueryException {
    Token match = take();
    expect(Kind.LBRACE, "'{' after 'match'");
    List<Clause> clauses = clauses();
    if (!atWord("return")) {
      throw unexpected(peek(), "'return'");
    }
    take();
    expect(Kind.LBRACE, "'{' after 'return'");
    List<QueryAst.Projection> projections = new ArrayList<>();
    while (!at(Kind.RBRACE)) {
      Expr e = expr();
      Optional<String> alias = Optional.empty();
      if (atWord("as")) {
        take();
        alias = Optional.of(ident("an alias").text());
      }
      projections.add(new QueryAst.Projection(e, alias));
      if (at(Kind.COMMA)) {
        take();
      }
    }
    Token close = take();
    if (projections.isEmpty()) {
      throw QueryException.syntax(close.pos(), "expected at least one projection in 'return { ... }'");
    }
    List<QueryAst.Ordering> orderings = new ArrayList<>();
    if (atWord("order")) {
      take();
      expect(Kind.LBRACE, "'{' after 'order'");
      while (true) {
        Expr e = expr();
        boolean desc = false;
        if (atWord("asc") || atWord("desc")) {
          Token dir = take();
          if (e instanceof Call c && c.function() == Function.NEAREST) {
            throw QueryException.syntax(dir.pos(), "nearest(...) ordering cannot take '" + dir.text() + "' (results come back in distance order)");
          }
          desc = dir.text().equals("desc");
        }
        orderings.add(new QueryAst.Ordering(e, desc, e.pos()));
        if (at(Kind.COMMA)) {
          take();
          continue;
        }
        break;
      }
      expect(Kind.RBRACE, "',' or '}'");
    }
    Optional<QueryAst.Limit> limit = Optional.empty();
    if (atWord("limit")) {
      take();
      Token n = expect(Kind.INTEGER, "an integer after 'limit'");
      limit = Optional.of(new QueryAst.Limit(new BigInteger(n.text()), n.pos()));
    }
    return new QueryAst.ReadBody(clauses, projections, orderings, limit, match.pos());
  }

  private List<Clause> clauses() throws QueryException {
    List<Clause> clauses = new ArrayList<>();
    while (!at(Kind.RBRACE)) {
      clauses.add(clause());
    }
    Token close = take();
    if (clauses.isEmpty()) {
      throw QueryException.syntax(close.pos(), "expected at least one clause inside '{ ... }'");
    }
    return clauses;
  }

  private Clause clause() throws QueryException {
    Token t = peek();
    if (t.isWord("not") && peek(1).kind() == Kind.LBRACE) {
      take();
      take();
      return new QueryAst.Negation(clauses(), t.pos());
    }
    if (t.kind() == Kind.VARIABLE) {
      Token next = peek(1);
      if (next.kind() == Kind.COLON) {
        Token after = peek(2);
        if (after.kind() == Kind.TYPE_NAME) {
          return binding();
        }
        throw QueryException.syntax(after.pos(),
            "expected a node type name (starting with an uppercase letter) after '$" + t.text() + ":', found " + after.describe());
      }
      if (next.kind() == Kind.VARIABLE
          || (next.kind() == Kind.IDENT && !next.text().equals("starts_with"))
          || next.kind() == Kind.TYPE_NAME
          || (next.kind() == Kind.LT && peek(2).kind() == Kind.IDENT && peek(3).kind() == Kind.GT)) {
        return traversal();
      }
    }
    if (t.kind() == Kind.IDENT && peek(1).kind() == Kind.LPAREN) {
      Optional<Function> f = Function.of(t.text());
      if (f.isPresent() && (f.get() == Function.SEARCH || f.get() == Function.FUZZY || f.get() == Function.MATCH_TEXT)) {
        Call call = (Call) expr();
        FilterOp op = filterOp(peek());
        if (op == null) {
          return new QueryAst.TextSearch(call);
        }
        take();
        return new QueryAst.Filter(call, op, expr(), call.pos());
      }
    }
    Expr left = expr();
    FilterOp op = filterOp(peek());
    if (op == null) {
      throw unexpected(peek(), "a filter operator (= != < <= > >= contains starts_with)");
    }
    take();
    Expr right = expr();
    return new QueryAst.Filter(left, op, right, left.pos());
  }

  private static FilterOp filterOp(Token t) {
    return switch (t.kind()) {
      case EQ -> FilterOp.EQ;
      case NE -> FilterOp.NE;
      case LT -> FilterOp.LT;
      case LE -> FilterOp.LE;
      case GT -> FilterOp.GT;
      case GE -> FilterOp.GE;
      case IDENT -> t.text().equals("contains") ? FilterOp.CONTAINS
          : t.text().equals("starts_with") ? FilterOp.STARTS_WITH : null;
      default -> null;
    };
  }

  private Binding binding() throws QueryException {
    Token var = take();
    take(); // :
    Token type = take();
    List<PropMatch> matches = new ArrayList<>();
    if (at(Kind.LBRACE)) {
      Token open = take();
      while (!at(Kind.RBRACE)) {
        Token prop = ident("a property name");
        expect(Kind.COLON, "':' after '" + prop.text() + "'");
        matches.add(new PropMatch(prop.text(), prop.pos(), value()));
        if (at(Kind.COMMA)) {
          take();
        } else if (!at(Kind.RBRACE)) {
          throw unexpected(peek(), "',' or '}'");
        }
      }
      take();
      if (matches.isEmpty()) {
        throw QueryException.syntax(open.pos(), "empty '{ }' after '$" + var.text() + ": " + type.text() + "'; omit the braces or add a property match");
      }
    }
    return new Binding(var.text(), type.text(), type.pos(), matches, var.pos());
  }

  private QueryAst.Traversal traversal() throws QueryException {
    Token src = take();
    Optional<String> edgeVar = Optional.empty();
    if (at(Kind.VARIABLE)) {
      Token ev = take();
      expect(Kind.COLON, "':' after the edge variable '$" + ev.text() + "'");
      edgeVar = Optional.of(ev.text());
    }
    boolean undirected = false;
    Token edge;
    if (at(Kind.LT)) {
      take();
      edge = edgeIdent();
      expect(Kind.GT, "'>' closing the undirected edge");
      undirected = true;
    } else {
      edge = edgeIdent();
    }
    BigInteger min = BigInteger.ONE;
    Optional<BigInteger> max = Optional.of(BigInteger.ONE);
    if (at(Kind.LBRACE)) {
      take();
      min = new BigInteger(expect(Kind.INTEGER, "the minimum hop count").text());
      expect(Kind.COMMA, "','");
      if (at(Kind.INTEGER)) {
        Token m = take();
        max = Optional.of(new BigInteger(m.text()));
      } else {
        max = Optional.empty();
      }
      expect(Kind.RBRACE, "'}'");
      if (min.compareTo(BigInteger.valueOf(MAX_HOPS_LITERAL)) > 0
          || max.map(m -> m.compareTo(BigInteger.valueOf(MAX_HOPS_LITERAL)) > 0).orElse(false)) {
        throw new QueryException(QueryException.Code.T15, edge.pos(), "hop bounds above " + MAX_HOPS_LITERAL + " are not supported");
      }
    }
    Token dst = peek();
    if (dst.kind() != Kind.VARIABLE) {
      throw unexpected(dst, "the traversal's target variable");
    }
    take();
    return new QueryAst.Traversal(src.text(), edgeVar, edge.text(), edge.pos(), undirected, min, max, dst.text(), src.pos());
  }

  private Token edgeIdent() throws QueryException {
    Token t = peek();
    if (t.kind() == Kind.TYPE_NAME) {
      throw QueryException.syntax(t.pos(),
          "edge names are written lowercase-initial in queries (e.g. '" + Character.toLowerCase(t.text().charAt(0)) + t.text().substring(1)
              + "'), found " + t.describe());
    }
    if (t.isWord("not")) {
      throw unexpected(t, "an edge name ('not' is a keyword)");
    }
    return expect(Kind.IDENT, "an edge name");
  }

  private Expr expr() throws QueryException {
    Token t = peek();
    if (t.kind() == Kind.VARIABLE) {
      take();
      if (at(Kind.DOT)) {
        take();
        Token prop = ident("a property name after '.'");
        return new QueryAst.PropAccess(t.text(), prop.text(), t.pos());
      }
      return new QueryAst.VarRef(t.text(), t.pos());
    }
    if (t.kind() == Kind.IDENT && peek(1).kind() == Kind.LPAREN) {
      if (t.text().equals("now")) {
        take();
        take();
        expect(Kind.RPAREN, "')' (now() takes no arguments)");
        return new QueryAst.NowExpr(t.pos());
      }
      Optional<Function> f = Function.of(t.text());
      if (f.isPresent()) {
        take();
        take();
        List<Expr> args = new ArrayList<>();
        if (!at(Kind.RPAREN)) {
          while (true) {
            args.add(expr());
            if (at(Kind.COMMA)) {
              take();
              continue;
            }
            break;
          }
        }
        expect(Kind.RPAREN, "',' or ')'");
        return new Call(f.get(), args, t.pos());
      }
    }
    if (atLiteral()) {
      return new QueryAst.LiteralExpr(literal("an expression"));
    }
    if (t.kind() == Kind.IDENT && !t.text().equals("null")) {
      take();
      return new QueryAst.AliasRef(t.text(), t.pos());
    }
    if (t.isWord("null")) {
      throw QueryException.syntax(t.pos(), "there is no null literal in .gq; pass null through a nullable parameter ('$p: T?')");
    }
    throw unexpected(t, "an expression");
  }
}
