package io.omnigraph.engine.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/** A literal argument of an annotation or constraint, as written in source. */
public sealed interface Literal
    permits Literal.Str, Literal.Int, Literal.Decimal, Literal.Bool, Literal.Ident {

  /** @return the value as it would be written in {@code .pg} source */
  String spelling();

  /** @param value the decoded string */
  record Str(String value) implements Literal {
    public Str {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String spelling() {
      StringBuilder b = new StringBuilder("\"");
      for (char c : value.toCharArray()) {
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          case '\t' -> b.append("\\t");
          case '\r' -> b.append("\\r");
          default -> b.append(c);
        }
      }
      return b.append('"').toString();
    }
  }

  /** @param value an (unsigned in source) integer */
  record Int(BigInteger value) implements Literal {
    public Int {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String spelling() {
      return value.toString();
    }
  }

  /** @param value a decimal written with digits on both sides of the point */
  record Decimal(BigDecimal value) implements Literal {
    public Decimal {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String spelling() {
      return value.toPlainString();
    }
  }

  /** @param value {@code true} or {@code false} */
  record Bool(boolean value) implements Literal {
    @Override
    public String spelling() {
      return Boolean.toString(value);
    }
  }

  /** @param name a bare lowercase identifier (e.g. a property name) */
  record Ident(String name) implements Literal {
    public Ident {
      Objects.requireNonNull(name, "name");
    }

    @Override
    public String spelling() {
      return name;
    }
  }
}
