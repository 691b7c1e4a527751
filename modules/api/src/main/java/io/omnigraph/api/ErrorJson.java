package io.omnigraph.api;

import java.util.List;

/** Renders {@link OmnigraphException#toJson()}; the API module has no JSON library on purpose. */
final class ErrorJson {
  private ErrorJson() {}

  static String render(OmnigraphException e) {
    StringBuilder b = new StringBuilder("{");
    field(b, "error", e.getMessage());
    b.append(',');
    field(b, "code", e.code());
    e.detail().ifPresent(d -> {
      b.append(',');
      string(b, d.jsonField());
      b.append(':');
      if (d instanceof ErrorDetail.MergeConflicts m) {
        mergeConflicts(b, m);
      } else {
        detail(b, d);
      }
    });
    return b.append('}').toString();
  }

  private static void detail(StringBuilder b, ErrorDetail d) {
    Obj o = new Obj(b);
    // Java 17 has no pattern switch; the chain covers every permitted ErrorDetail (ErrorJsonTest checks each).
    if (d instanceof ErrorDetail.KeyConflict k) {
      o.str("entity_kind", k.entityKind()).str("type_name", k.typeName()).str("entity_id", k.entityIds().get(0));
      o.strings("entity_ids", k.entityIds());
    } else if (d instanceof ErrorDetail.ReadSetConflict r) {
      o.str("member", r.member()).str("expected", r.expected()).str("actual", r.actual());
    } else if (d instanceof ErrorDetail.PublishedVersionConflict p) {
      o.str("entity_kind", p.entityKind()).str("type_name", p.typeName())
          .num("expected_published_dataset_version", p.expected()).num("actual_published_dataset_version", p.actual());
    } else if (d instanceof ErrorDetail.ResourceLimit r) {
      o.str("resource", r.resource()).num("limit", r.limit()).num("actual", r.actual());
    } else if (d instanceof ErrorDetail.RecoveryRequired r) {
      o.str("operation_id", r.operationId());
    } else if (d instanceof ErrorDetail.PreconditionFailure p) {
      o.str("branch", p.branch()).str("expected", p.expected()).str("actual", p.actual());
    } else if (d instanceof ErrorDetail.Validation v) {
      o.num("line", v.line()).num("column", v.column()).str("field", v.field()).str("rule", v.rule());
    } else if (d instanceof ErrorDetail.Storage s) {
      o.str("kind", s.storageKind()).str("path", s.path());
    } else if (d instanceof ErrorDetail.UnsupportedStamp s) {
      o.str("found", s.found()).num("expected", (long) s.expected());
    } else {
      throw new IllegalStateException("unrendered error detail " + d.getClass().getName());
    }
    o.close();
  }

  /** {@code merge_conflicts} is an array; the row values are embedded as the JSON they already are. */
  private static void mergeConflicts(StringBuilder b, ErrorDetail.MergeConflicts m) {
    b.append('[');
    for (int i = 0; i < m.conflicts().size(); i++) {
      ErrorDetail.MergeConflict c = m.conflicts().get(i);
      if (i > 0) {
        b.append(',');
      }
      Obj o = new Obj(b);
      o.str("kind", c.kind()).str("entity_kind", c.entityKind()).str("type_name", c.typeName())
          .str("entity_id", c.entityId()).raw("base", c.base()).raw("source", c.source()).raw("target", c.target())
          .str("message", c.message());
      o.close();
    }
    b.append(']');
  }

  private static final class Obj {
    private final StringBuilder b;
    private boolean first = true;

    Obj(StringBuilder b) {
      this.b = b;
      b.append('{');
    }

    private void sep() {
      if (!first) {
        b.append(',');
      }
      first = false;
    }

    Obj str(String name, String value) {
      if (value != null) {
        sep();
        field(b, name, value);
      }
      return this;
    }

    Obj raw(String name, String json) {
      if (json != null) {
        sep();
        string(b, name);
        b.append(':').append(json);
      }
      return this;
    }

    Obj num(String name, Long value) {
      if (value != null) {
        sep();
        string(b, name);
        b.append(':').append(value.longValue());
      }
      return this;
    }

    Obj strings(String name, List<String> values) {
      sep();
      string(b, name);
      b.append(":[");
      for (int i = 0; i < values.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        string(b, values.get(i));
      }
      b.append(']');
      return this;
    }

    void close() {
      b.append('}');
    }
  }

  private static void field(StringBuilder b, String name, String value) {
    string(b, name);
    b.append(':');
    string(b, value);
  }

  static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '\b' -> b.append("\\b");
        case '\f' -> b.append("\\f");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
