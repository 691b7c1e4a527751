package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A put replaces a whole object in one step that readers cannot observe half-done.
 *
 * <p>The tests of the contract group {@code AtomicPut}, bound by {@link StorageAdapterContract.AtomicPut}.
 */
abstract class AtomicPutGuarantees extends ContractGroup {

  /** Reads the torn-put race makes, in total over its readers, while the writer keeps overwriting. */
  static final int TORN_READS = 2_000;

  AtomicPutGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void overwriteReplacesTheWholeObjectWithNoTrailingOldBytes() throws Exception {
    put("dir/x", "a much longer first version of the object");
    put("dir/x", "short");
    assertThat(adapter.readText("dir/x")).isEqualTo("short");
  }

  @Test
  void overwriteOfAMissingObjectCreatesIt() throws Exception {
    put("dir/new", "created");
    assertThat(adapter.readText("dir/new")).isEqualTo("created");
  }

  @Test
  void putCreatesMissingParentPrefixes() throws Exception {
    put("deep/er/and/deeper/x.json", "x");
    assertThat(adapter.readText("deep/er/and/deeper/x.json")).isEqualTo("x");
    assertThat(list("deep/er/and/deeper")).containsExactly("deep/er/and/deeper/x.json");
  }

  @Test
  void aNewContentGetsANewVersionToken() throws Exception {
    String v1 = put("dir/x", "one");
    String v2 = put("dir/x", "two");
    assertThat(v1).isNotBlank();
    assertThat(v2).isNotBlank().isNotEqualTo(v1);
    assertThat(adapter.readIfExists("dir/x").orElseThrow().version()).isEqualTo(v2);
  }

  @Test
  void aConcurrentReaderNeverSeesATornObject() throws Exception {
    // large enough that any writer writes them in several pieces; different lengths and contents,
    // so a torn read shows as a length or a byte that neither version has
    byte[] first = new byte[160 * 1024 + 3];
    byte[] second = new byte[96 * 1024 + 1];
    Arrays.fill(first, (byte) 'A');
    Arrays.fill(second, (byte) 'B');
    adapter.put("dir/torn", first, WriteCondition.overwrite());
    AtomicBoolean readersDone = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    List<String> torn = Collections.synchronizedList(new ArrayList<>());
    List<Outcome<Integer>> outcomes = runConcurrently(3, 3, i -> {
      if (i == 0) {
        int writes = 0;
        while (!readersDone.get()) { // the writer keeps going until the readers made all their reads
          adapter.put("dir/torn", writes % 2 == 0 ? second : first, WriteCondition.overwrite());
          writes++;
        }
        return writes;
      }
      try {
        while (reads.incrementAndGet() <= TORN_READS && torn.isEmpty()) {
          byte[] seen = adapter.readIfExists("dir/torn").orElseThrow().bytes();
          if (!Arrays.equals(seen, first) && !Arrays.equals(seen, second)) {
            torn.add(seen.length + " bytes, starting '" + (seen.length == 0 ? "" : (char) seen[0]) + "'");
          }
        }
      } finally {
        readersDone.set(true);
      }
      return 0;
    });
    for (Outcome<Integer> o : outcomes) {
      assertThat(o.failure()).as("reader/writer failure").isNull();
    }
    assertThat(torn).as("torn reads").isEmpty();
    assertThat(outcomes.get(0).value()).as("overwrites while the readers read").isGreaterThan(1);
  }

  @Test
  void aPutThatFailsBeforeTakingEffectLeavesThePreviousObjectIntact() throws Exception {
    put("dir/x", "old");
    faults().failNextPut();
    StorageException e = storageFailure(() -> put("dir/x", "new"));
    assertThat(e.kind()).isIn(Kind.TRANSIENT, Kind.PERMANENT, Kind.OUTCOME_UNKNOWN);
    assertThat(adapter.readText("dir/x")).isEqualTo("old");
    assertThat(list("dir")).containsExactly("dir/x");
  }

  @Test
  void aPutThatFailsOnANewObjectLeavesNothingVisible() throws Exception {
    faults().failNextPut();
    storageFailure(() -> adapter.put("dir/fresh", utf8("x"), WriteCondition.ifAbsent()));
    assertThat(adapter.exists("dir/fresh")).isFalse();
    assertThat(list("dir")).isEmpty();
    adapter.put("dir/fresh", utf8("x"), WriteCondition.ifAbsent());
    assertThat(adapter.readText("dir/fresh")).isEqualTo("x");
  }
}
