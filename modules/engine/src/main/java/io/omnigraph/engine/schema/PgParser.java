package io.omnigraph.engine.schema;

import io.omnigraph.engine.schema.PgLexer.Kind;
import io.omnigraph.engine.schema.PgLexer.Token;
import io.omnigraph.engine.schema.SchemaAst.BodyConstraint;
import io.omnigraph.engine.schema.SchemaAst.CardinalityDecl;
import io.omnigraph.engine.schema.SchemaAst.ConstraintArg;
import io.omnigraph.engine.schema.SchemaAst.Decl;
import io.omnigraph.engine.schema.SchemaAst.EdgeDecl;
import io.omnigraph.engine.schema.SchemaAst.InterfaceDecl;
import io.omnigraph.engine.schema.SchemaAst.LiteralArg;
import io.omnigraph.engine.schema.SchemaAst.NameRef;
import io.omnigraph.engine.schema.SchemaAst.NodeDecl;
import io.omnigraph.engine.schema.SchemaAst.PropDecl;
import io.omnigraph.engine.schema.SchemaAst.RangeArg;
import io.omnigraph.engine.schema.SchemaAst.TypeRef;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Recursive-descent parser for the {@code .pg} schema grammar. Hand-written rather
 * than generated: the grammar is small, and two of its rules are context-sensitive (enum values
 * follow their own token rule; {@code @key} is an annotation without parentheses but a body
 * constraint with them), which a hand-written parser handles directly while producing precise
 * "expected X, found Y" messages with line:column.
 */
final class PgParser {
  static final Set<String> CONSTRAINT_NAMES = Set.of("key", "unique", "index", "range", "check");

  private final PgLexer lexer;
  private Token lookahead;

  private PgParser(String text) {
    this.lexer = new PgLexer(text);
  }

  static SchemaAst.File parse(String text) throws SchemaException {
    return new PgParser(text).file();
  }

  // ---- token plumbing -------------------------------------------------------------------

  private Token peek() throws SchemaException {
    if (lookahead == null) {
      lookahead = lexer.next();
    }
    return lookahead;
  }

  private Token take() throws SchemaException {
    Token t = peek();
    lookahead = null;
    return t;
  }

  private boolean at(Kind kind) throws SchemaException {
    return peek().kind() == kind;
  }

  private boolean atWord(String word) throws SchemaException {
    Token t = peek();
    return (t.kind() == Kind.IDENT || t.kind() == Kind.TYPE_NAME) && t.text().equals(word);
  }

  private Token expect(Kind kind, String what) throws SchemaException {
    Token t = peek();
    if (t.kind() != kind) {
      throw unexpected(t, what);
    }
    return take();
  }

  private static SchemaException unexpected(Token found, String expected) {
    return SchemaException.syntax(found.pos(), "expected " + expected + ", found " + found.describe());
  }

  // ---- grammar ----------------------------------------------------------------------------

  private SchemaAst.File file() throws SchemaException {
    List<Decl> decls = new ArrayList<>();
    while (!at(Kind.EOF)) {
      Token t = peek();
      if (atWord("interface")) {
        decls.add(interfaceDecl());
      } else if (atWord("node")) {
        decls.add(nodeDecl());
      } else if (atWord("edge")) {
        decls.add(edgeDecl());
      } else {
        throw unexpected(t, "'interface', 'node' or 'edge'");
      }
    }
    return new SchemaAst.File(decls);
  }

  private NameRef typeName(String what) throws SchemaException {
    Token t = peek();
    if (t.kind() == Kind.IDENT) {
      throw SchemaException.syntax(
          t.pos(), "expected " + what + " (starting with an uppercase letter), found " + t.describe());
    }
    Token name = expect(Kind.TYPE_NAME, what);
    return new NameRef(name.text(), name.pos());
  }

  private InterfaceDecl interfaceDecl() throws SchemaException {
    take(); // interface
    NameRef name = typeName("interface name");
    if (at(Kind.AT)) {
      throw SchemaException.syntax(peek().pos(), "interfaces take no annotations; expected '{'");
    }
    expect(Kind.LBRACE, "'{'");
    List<PropDecl> props = new ArrayList<>();
    while (!at(Kind.RBRACE)) {
      Token t = peek();
      if (t.kind() == Kind.IDENT) {
        props.add(property());
        rejectPendingConstraint("interfaces cannot declare body constraints");
      } else if (t.kind() == Kind.AT) {
        throw SchemaException.syntax(t.pos(), "interfaces cannot declare body constraints; expected a property or '}'");
      } else {
        throw unexpected(t, "a property or '}'");
      }
    }
    take();
    return new InterfaceDecl(name.name(), name.pos(), props);
  }

  private NodeDecl nodeDecl() throws SchemaException {
    take(); // node
    NameRef name = typeName("node type name");
    List<Annotation> annotations = annotations();
    rejectPendingConstraint("it must be written inside the node body");
    List<NameRef> impls = new ArrayList<>();
    if (atWord("implements")) {
      take();
      impls.add(typeName("interface name"));
      while (at(Kind.COMMA)) {
        take();
        impls.add(typeName("interface name"));
      }
      // Node annotations may stand before or after the interface list: both orders are the same node.
      List<Annotation> more = annotations();
      rejectPendingConstraint("it must be written inside the node body");
      if (!more.isEmpty()) {
        annotations = new ArrayList<>(annotations);
        annotations.addAll(more);
      }
    }
    List<PropDecl> props = new ArrayList<>();
    List<BodyConstraint> constraints = new ArrayList<>();
    body(props, constraints, impls.isEmpty() ? "'implements', an annotation or '{'" : "',' or '{'");
    return new NodeDecl(name.name(), name.pos(), annotations, impls, props, constraints);
  }

  private EdgeDecl edgeDecl() throws SchemaException {
    take(); // edge
    NameRef name = typeName("edge type name");
    expect(Kind.COLON, "':' after the edge name");
    NameRef from = typeName("source node type");
    expect(Kind.ARROW, "'->'");
    NameRef to = typeName("target node type");
    Optional<CardinalityDecl> card = Optional.empty();
    if (at(Kind.AT)) {
      Token at = take();
      Token name2 = peek();
      if (name2.kind() == Kind.IDENT && name2.text().equals("card")) {
        take();
        card = Optional.of(cardinality(at.pos()));
        List<Annotation> annotations = annotations();
        return edgeRest(name, from, to, card, annotations);
      }
      lookaheadAnnotationAfterAt = at;
    }
    List<Annotation> annotations = annotations();
    return edgeRest(name, from, to, card, annotations);
  }

  // When the edge header starts with '@' that turned out not to be '@card', the '@' was already
  // consumed; annotations() picks it up from here.
  private Token lookaheadAnnotationAfterAt;

  private EdgeDecl edgeRest(
      NameRef name, NameRef from, NameRef to, Optional<CardinalityDecl> card, List<Annotation> annotations)
      throws SchemaException {
    rejectPendingConstraint("it must be written inside the edge body");
    List<PropDecl> props = new ArrayList<>();
    List<BodyConstraint> constraints = new ArrayList<>();
    if (at(Kind.LBRACE)) {
      body(props, constraints, "'{'");
    }
    return new EdgeDecl(name.name(), name.pos(), from, to, card, annotations, props, constraints);
  }

  private CardinalityDecl cardinality(SourcePos pos) throws SchemaException {
    expect(Kind.LPAREN, "'(' after @card");
    Token minTok = expect(Kind.INTEGER, "an integer minimum in @card(min..max)");
    long min = parseCount(minTok);
    expect(Kind.DOTDOT, "'..' in @card(min..max)");
    Optional<Long> max = Optional.empty();
    Token maxTok = null;
    if (at(Kind.INTEGER)) {
      maxTok = take();
      max = Optional.of(parseCount(maxTok));
    }
    expect(Kind.RPAREN, max.isPresent() ? "')'" : "an integer maximum or ')'");
    if (max.isPresent() && max.get() < min) {
      throw SchemaException.syntax(
          maxTok.pos(), "@card minimum " + min + " is greater than maximum " + max.get());
    }
    return new CardinalityDecl(min, max, pos);
  }

  private static long parseCount(Token t) throws SchemaException {
    try {
      return Long.parseLong(t.text());
    } catch (NumberFormatException e) {
      throw SchemaException.syntax(t.pos(), "cardinality bound " + t.text() + " is too large");
    }
  }

  private void body(List<PropDecl> props, List<BodyConstraint> constraints, String expectedOpen)
      throws SchemaException {
    expect(Kind.LBRACE, expectedOpen);
    while (pendingConstraint != null || !at(Kind.RBRACE)) {
      if (pendingConstraint != null) {
        constraints.add(bodyConstraint());
        continue;
      }
      Token t = peek();
      if (t.kind() == Kind.IDENT) {
        props.add(property());
      } else if (t.kind() == Kind.AT) {
        constraints.add(bodyConstraint());
      } else if (t.kind() == Kind.TYPE_NAME) {
        throw SchemaException.syntax(
            t.pos(), "expected a property name (starting with a lowercase letter or '_'), found " + t.describe());
      } else {
        throw unexpected(t, "a property, a body constraint or '}'");
      }
    }
    take();
  }

  private PropDecl property() throws SchemaException {
    Token name = take();
    expect(Kind.COLON, "':' after property name '" + name.text() + "'");
    TypeRef type = typeRef();
    List<Annotation> annotations = annotations();
    return new PropDecl(name.text(), name.pos(), type, annotations);
  }

  private TypeRef typeRef() throws SchemaException {
    Token t = peek();
    SourcePos pos = t.pos();
    PropertyType type;
    if (t.kind() == Kind.LBRACKET) {
      take();
      Token item = peek();
      if (item.kind() == Kind.LBRACKET || (item.kind() == Kind.IDENT && item.text().equals("enum"))
          || (item.kind() == Kind.TYPE_NAME && item.text().equals("Vector"))) {
        throw SchemaException.syntax(
            item.pos(), "list items must be a base type (lists of lists, enums or vectors are not supported), found " + item.describe());
      }
      type = new PropertyType.ListOf(baseType());
      expect(Kind.RBRACKET, "']'");
    } else if (t.kind() == Kind.IDENT && t.text().equals("enum")) {
      take();
      type = enumType();
    } else if (t.kind() == Kind.TYPE_NAME && t.text().equals("Vector")) {
      take();
      expect(Kind.LPAREN, "'(' after Vector");
      Token dim = expect(Kind.INTEGER, "the vector dimension (an integer)");
      BigInteger n = new BigInteger(dim.text());
      if (n.signum() == 0) {
        throw SchemaException.syntax(dim.pos(), "Vector dimension must be greater than zero");
      }
      if (n.compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
        throw SchemaException.syntax(dim.pos(), "Vector dimension " + n + " exceeds the maximum 2147483647");
      }
      expect(Kind.RPAREN, "')'");
      type = new PropertyType.VectorOf(n.intValue());
    } else {
      type = new PropertyType.Scalar(baseType());
    }
    boolean nullable = false;
    if (at(Kind.QUESTION)) {
      take();
      nullable = true;
    }
    return new TypeRef(type, nullable, pos);
  }

  private ScalarKind baseType() throws SchemaException {
    Token t = peek();
    if (t.kind() == Kind.TYPE_NAME || t.kind() == Kind.IDENT) {
      Optional<ScalarKind> k = ScalarKind.fromSpelling(t.text());
      if (k.isPresent()) {
        take();
        return k.get();
      }
      throw SchemaException.syntax(
          t.pos(),
          "unknown type '" + t.text() + "'; expected one of String, Blob, Bool, I32, I64, U32, U64, F32, F64, Date, DateTime, Vector(n), enum(...) or [T]");
    }
    throw unexpected(t, "a type");
  }

  private PropertyType enumType() throws SchemaException {
    expect(Kind.LPAREN, "'(' after enum");
    List<String> values = new ArrayList<>();
    while (true) {
      if (lookahead != null) {
        throw new IllegalStateException("enum values must be scanned without lookahead");
      }
      Token v = lexer.nextEnumValue();
      if (v.kind() != Kind.ENUM_VALUE) {
        throw unexpected(v, "an enum value ([A-Za-z0-9_-]+)");
      }
      if (values.contains(v.text())) {
        throw SchemaException.syntax(v.pos(), "enum type cannot include duplicate values ('" + v.text() + "')");
      }
      values.add(v.text());
      Token sep = take();
      if (sep.kind() == Kind.RPAREN) {
        return new PropertyType.EnumOf(values);
      }
      if (sep.kind() != Kind.COMMA) {
        throw unexpected(sep, "',' or ')' in enum(...)");
      }
    }
  }

  /** Annotations in annotation position: stops before a body constraint such as {@code @index(p)}. */
  private List<Annotation> annotations() throws SchemaException {
    List<Annotation> out = new ArrayList<>();
    while (true) {
      Token at;
      if (lookaheadAnnotationAfterAt != null) {
        at = lookaheadAnnotationAfterAt;
        lookaheadAnnotationAfterAt = null;
      } else if (at(Kind.AT)) {
        // '@' name '(' needs three tokens of lookahead; instead the '@' and name are consumed and,
        // if they turn out to start a body constraint, parked in pendingConstraint for body().
        at = take();
      } else {
        return out;
      }
      Token name = peek();
      if (name.kind() != Kind.IDENT) {
        throw SchemaException.syntax(
            name.pos(), "expected an annotation name (lowercase identifier) after '@', found " + name.describe());
      }
      take();
      if (CONSTRAINT_NAMES.contains(name.text()) && at(Kind.LPAREN)) {
        // '@key(' etc. in annotation position: it is a body constraint. Hand it back to the body.
        pendingConstraint = new BodyConstraintStart(at, name);
        return out;
      }
      if (name.text().equals("card")) {
        throw SchemaException.syntax(
            at.pos(), "@card is only allowed once per edge, directly after its endpoints");
      }
      out.add(annotationArgs(at, name));
    }
  }

  private void rejectPendingConstraint(String why) throws SchemaException {
    if (pendingConstraint != null) {
      BodyConstraintStart c = pendingConstraint;
      throw SchemaException.syntax(
          c.at().pos(), "@" + c.name().text() + "(...) is a body constraint; " + why);
    }
  }

  private record BodyConstraintStart(Token at, Token name) {}

  // A body constraint whose '@' and name were consumed while scanning annotations.
  private BodyConstraintStart pendingConstraint;

  private Annotation annotationArgs(Token at, Token name) throws SchemaException {
    Optional<Literal> value = Optional.empty();
    Map<String, Literal> kwargs = new LinkedHashMap<>();
    if (at(Kind.LPAREN)) {
      take();
      Token first = peek();
      if (first.kind() == Kind.RPAREN) {
        throw SchemaException.syntax(first.pos(), "expected an argument for @" + name.text() + ", found ')'");
      }
      value = Optional.of(annotationArg());
      while (at(Kind.COMMA)) {
        take();
        Token key = expect(Kind.IDENT, "a keyword argument name (name=value)");
        expect(Kind.EQUALS, "'=' after keyword argument '" + key.text() + "'");
        if (kwargs.containsKey(key.text())) {
          throw SchemaException.syntax(key.pos(), "duplicate keyword argument '" + key.text() + "' in @" + name.text());
        }
        Literal v = literalOnly("a literal value for '" + key.text() + "'");
        kwargs.put(key.text(), v);
      }
      expect(Kind.RPAREN, "',' or ')'");
    }
    return new Annotation(name.text(), value, kwargs, at.pos());
  }

  private Literal annotationArg() throws SchemaException {
    Token t = peek();
    if (t.kind() == Kind.IDENT && !t.text().equals("true") && !t.text().equals("false")) {
      take();
      return new Literal.Ident(t.text());
    }
    return literalOnly("an argument (string, number, boolean or identifier)");
  }

  private Literal literalOnly(String what) throws SchemaException {
    Token t = peek();
    switch (t.kind()) {
      case STRING -> {
        take();
        return new Literal.Str(t.text());
      }
      case INTEGER -> {
        take();
        return new Literal.Int(new BigInteger(t.text()));
      }
      case FLOAT -> {
        take();
        return new Literal.Decimal(new BigDecimal(t.text()));
      }
      case IDENT -> {
        if (t.text().equals("true") || t.text().equals("false")) {
          take();
          return new Literal.Bool(t.text().equals("true"));
        }
        throw unexpected(t, what);
      }
      default -> throw unexpected(t, what);
    }
  }

  private BodyConstraint bodyConstraint() throws SchemaException {
    Token at;
    Token name;
    if (pendingConstraint != null) {
      at = pendingConstraint.at();
      name = pendingConstraint.name();
      pendingConstraint = null;
    } else {
      at = take();
      name = peek();
      if (name.kind() != Kind.IDENT) {
        throw SchemaException.syntax(
            name.pos(), "expected a constraint name after '@', found " + name.describe());
      }
      take();
    }
    if (!CONSTRAINT_NAMES.contains(name.text())) {
      throw SchemaException.syntax(
          name.pos(),
          "expected a body constraint (@key, @unique, @index, @range or @check) or a property, found '@" + name.text() + "'");
    }
    expect(Kind.LPAREN, "'(' after @" + name.text());
    List<ConstraintArg> args = new ArrayList<>();
    args.add(constraintArg(name.text()));
    while (at(Kind.COMMA)) {
      take();
      args.add(constraintArg(name.text()));
    }
    expect(Kind.RPAREN, "',' or ')'");
    return new BodyConstraint(name.text(), at.pos(), args);
  }

  private ConstraintArg constraintArg(String constraint) throws SchemaException {
    Token t = peek();
    SourcePos pos = t.pos();
    if (t.kind() == Kind.DOTDOT) {
      take();
      BigDecimal hi = signedNumber("a number after '..'");
      return new RangeArg(Optional.empty(), Optional.of(hi), pos);
    }
    if (t.kind() == Kind.MINUS || t.kind() == Kind.INTEGER || t.kind() == Kind.FLOAT) {
      boolean negative = t.kind() == Kind.MINUS;
      BigDecimal lo = signedNumber("a number");
      if (at(Kind.DOTDOT)) {
        take();
        Optional<BigDecimal> hi = Optional.empty();
        if (at(Kind.MINUS) || at(Kind.INTEGER) || at(Kind.FLOAT)) {
          hi = Optional.of(signedNumber("a number"));
        }
        return new RangeArg(Optional.of(lo), hi, pos);
      }
      if (negative) {
        throw SchemaException.syntax(pos, "negative numbers are only allowed as @range bounds");
      }
      Literal lit = t.kind() == Kind.INTEGER ? new Literal.Int(lo.toBigIntegerExact()) : new Literal.Decimal(lo);
      return new LiteralArg(lit, pos);
    }
    if (t.kind() == Kind.IDENT && !t.text().equals("true") && !t.text().equals("false")) {
      take();
      return new LiteralArg(new Literal.Ident(t.text()), pos);
    }
    return new LiteralArg(literalOnly("an argument of @" + constraint), pos);
  }

  private BigDecimal signedNumber(String what) throws SchemaException {
    boolean negative = false;
    if (at(Kind.MINUS)) {
      take();
      negative = true;
    }
    Token t = peek();
    if (t.kind() != Kind.INTEGER && t.kind() != Kind.FLOAT) {
      throw unexpected(t, what);
    }
    take();
    BigDecimal v = new BigDecimal(t.text());
    return negative ? v.negate() : v;
  }
}
