package io.omnigraph.engine.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.InternalErrorException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * The byte-level interner of the CSR build (docs/queries.md, "Traversal strategies"): the same id
 * always gets the same dense index, different ids different ones (prefixes, equal lengths,
 * multi-byte UTF-8, the empty id), across batches and table growth, and {@code find}/{@code id}
 * answer exactly what was interned.
 */
class IdInternerTest {
  @Test
  void equalBytesShareOneDenseIdAndDifferentBytesNever() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      ids.add("p" + i);
    }
    ids.addAll(List.of("", "p", "p1 ", "Café", "Cafe", "café", "日本", "日本語", "\uD83D\uDE00", "p10", "p01"));
    IdInterner in = new IdInterner();
    Map<String, Integer> expected = new HashMap<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      // three batches: every id, every id again in reverse, then a mix; the table grows meanwhile
      List<List<String>> batches = List.of(ids, reversed(ids), ids.subList(100, 2_000));
      for (List<String> batch : batches) {
        int[] out = new int[batch.size() + 3];
        try (VarCharVector v = vector(alloc, batch)) {
          in.internAll(v, batch.size(), out, 3);
        }
        for (int i = 0; i < batch.size(); i++) {
          Integer before = expected.putIfAbsent(batch.get(i), out[3 + i]);
          assertThat(before == null ? out[3 + i] : before).as(batch.get(i)).isEqualTo(out[3 + i]);
        }
      }
    }
    in.freeze();
    assertThat(in.size()).isEqualTo(expected.size()).isEqualTo(new java.util.HashSet<>(ids).size());
    assertThat(new java.util.HashSet<>(expected.values())).hasSize(expected.size());
    expected.forEach((id, d) -> {
      assertThat(in.find(id)).as(id).isEqualTo(d);
      assertThat(in.id(d)).isEqualTo(id);
    });
    assertThat(in.find("p5000")).isEqualTo(-1);
    assertThat(in.find("p1  ")).isEqualTo(-1);
    assertThat(in.find("CAFÉ")).isEqualTo(-1);
  }

  @Test
  void idsWhoseHashesCollideStayDistinct() {
    byte[] a = "p2039599".getBytes(StandardCharsets.UTF_8);
    byte[] b = "p2222382".getBytes(StandardCharsets.UTF_8);
    assertThat(IdInterner.hash(a, 0, a.length)).isEqualTo(IdInterner.hash(b, 0, b.length)); // same length, same hash
    IdInterner in = new IdInterner();
    int da = in.intern(a, 0, a.length);
    int db = in.intern(b, 0, b.length);
    assertThat(da).isNotEqualTo(db);
    assertThat(in.intern(b, 0, b.length)).isEqualTo(db);
    assertThat(in.intern(a, 0, a.length)).isEqualTo(da);
    in.freeze();
    assertThat(in.find("p2222382")).isEqualTo(db);
    assertThat(in.id(da)).isEqualTo("p2039599");
  }

  @Test
  void aNullEndpointIsAnInternalError() {
    IdInterner in = new IdInterner();
    try (BufferAllocator alloc = new RootAllocator(); VarCharVector v = new VarCharVector("src", alloc)) {
      v.allocateNew(2);
      v.setSafe(0, "a".getBytes(StandardCharsets.UTF_8));
      v.setNull(1);
      v.setValueCount(2);
      assertThatThrownBy(() -> in.internAll(v, 2, new int[2], 0)).isInstanceOf(InternalErrorException.class)
          .hasMessageContaining("null endpoint");
    }
  }

  @Test
  void theCostRuleBuildsAfterTheIndexedExpansionsWorthOneBuild() {
    assertThat(Adjacency.usesToBuild(0)).isEqualTo(2);
    assertThat(Adjacency.usesToBuild(19_999)).isEqualTo(2);
    assertThat(Adjacency.usesToBuild(500_000)).isEqualTo(27);
  }

  private static List<String> reversed(List<String> l) {
    List<String> r = new ArrayList<>(l);
    java.util.Collections.reverse(r);
    return r;
  }

  private static VarCharVector vector(BufferAllocator alloc, List<String> values) {
    VarCharVector v = new VarCharVector("src", alloc);
    v.allocateNew(values.size());
    for (int i = 0; i < values.size(); i++) {
      v.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
    }
    v.setValueCount(values.size());
    return v;
  }
}
