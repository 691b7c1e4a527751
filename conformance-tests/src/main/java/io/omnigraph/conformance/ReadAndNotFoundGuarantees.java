package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reads return exactly what was written, and absence is an answer, not an error.
 *
 * <p>The tests of the contract group {@code ReadAndNotFound}, bound by {@link StorageAdapterContract.ReadAndNotFound}.
 */
abstract class ReadAndNotFoundGuarantees extends ContractGroup {

  /** Delete/re-create cycles the writer makes at least while readers call readTextIfExists. */
  static final int FLICKER_CYCLES = 300;
  /** Reads the readers make at least, in total, while the writer deletes and re-creates. */
  static final int FLICKER_READS = 1_000;

  ReadAndNotFoundGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void readTextIfExistsOfAMissingObjectIsEmpty() throws Exception {
    assertThat(adapter.readTextIfExists("dir/missing.json")).isEmpty();
    assertThat(adapter.readIfExists("dir/missing.json")).isEmpty();
  }

  @Test
  void readTextOfAMissingObjectThrowsNotFoundNamingThePath() {
    StorageException e = storageFailure(() -> adapter.readText("dir/missing.json"));
    assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
    assertThat(e.path()).isEqualTo("dir/missing.json");
  }

  @Test
  void readReturnsTheBytesAndTheVersionTokenThatPutReturned() throws Exception {
    String version = adapter.put("dir/x.json", utf8("{\"a\":1}"), WriteCondition.overwrite());
    StoredObject read = adapter.readIfExists("dir/x.json").orElseThrow();
    assertThat(read.text()).isEqualTo("{\"a\":1}");
    assertThat(read.version()).isEqualTo(version);
  }

  @Test
  void nonAsciiTextRoundTripsAsUtf8() throws Exception {
    String text = "grüße · 图 · \uD83D\uDE00 · \u0000 end";
    put("dir/text.txt", text);
    assertThat(adapter.readText("dir/text.txt")).isEqualTo(text);
  }

  @Test
  void everyByteValueRoundTripsExactly() throws Exception {
    byte[] all = new byte[512];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    adapter.put("dir/bytes.bin", all, WriteCondition.overwrite());
    assertThat(adapter.readIfExists("dir/bytes.bin").orElseThrow().bytes()).isEqualTo(all);
  }

  @Test
  void anEmptyObjectExistsAndReadsAsEmptyText() throws Exception {
    adapter.put("dir/empty", new byte[0], WriteCondition.overwrite());
    assertThat(adapter.exists("dir/empty")).isTrue();
    assertThat(adapter.readTextIfExists("dir/empty")).contains("");
  }

  @Test
  void existsIsTrueForAnObjectAndFalseForAMissingOne() throws Exception {
    put("dir/present", "x");
    assertThat(adapter.exists("dir/present")).isTrue();
    assertThat(adapter.exists("dir/absent")).isFalse();
    assertThat(adapter.exists("nowhere/at/all")).isFalse();
  }

  @Test
  void aPrefixWithObjectsBelowItIsNotAnObject() throws Exception {
    put("a/b/c.json", "x");
    assertThat(adapter.exists("a")).isFalse();
    assertThat(adapter.exists("a/b")).isFalse();
    assertThat(adapter.readTextIfExists("a/b")).isEmpty();
    assertKind(() -> adapter.readText("a/b"), Kind.NOT_FOUND);
  }

  @Test
  void readTextIfExistsAndReadIfExistsMakeExactlyOneRequest() throws Throwable {
    put("dir/x.json", "present");
    // one request each, present or absent: a check followed by a read is two requests and a race
    assertThat(requestsOf(null, () -> adapter.readTextIfExists("dir/x.json"))).as("readTextIfExists, present")
        .isEqualTo(1);
    assertThat(requestsOf(null, () -> adapter.readIfExists("dir/x.json"))).as("readIfExists, present").isEqualTo(1);
    assertThat(requestsOf(null, () -> adapter.readTextIfExists("dir/gone.json"))).as("readTextIfExists, absent")
        .isEqualTo(1);
    assertThat(requestsOf(null, () -> adapter.readIfExists("dir/gone.json"))).as("readIfExists, absent")
        .isEqualTo(1);
  }

  @Test
  void anObjectDeletedAndRecreatedInATightLoopNeverMakesReadTextIfExistsThrow() throws Exception {
    put("race/flicker", "here");
    AtomicBoolean writerDone = new AtomicBoolean();
    AtomicBoolean aReaderFailed = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    int readers = 3;
    // the readers keep reading until the writer has deleted and re-created the object at least
    // FLICKER_CYCLES times and they made at least FLICKER_READS reads: every delete is a chance
    // to fall between a check and a read. A failed reader stops the writer (the reads it waits for
    // would never come).
    List<Outcome<Integer>> outcomes = runConcurrently(readers + 1, readers + 1, i -> {
      if (i == 0) {
        try {
          int cycles = 0;
          while ((cycles < FLICKER_CYCLES || reads.get() < FLICKER_READS) && !aReaderFailed.get()) {
            adapter.delete("race/flicker");
            put("race/flicker", "here");
            cycles++;
          }
          return cycles;
        } finally {
          writerDone.set(true);
        }
      }
      try {
        while (!writerDone.get()) {
          Optional<String> seen = adapter.readTextIfExists("race/flicker");
          reads.incrementAndGet();
          if (seen.isPresent()) {
            assertThat(seen.get()).isEqualTo("here");
          }
        }
        return 0;
      } catch (Exception | AssertionError e) {
        aReaderFailed.set(true);
        throw e;
      }
    });
    for (Outcome<Integer> o : outcomes) {
      assertThat(o.failure()).as("a reader or the deleting writer failed: %s", o.failure()).isNull();
    }
    assertThat(reads.get()).as("reads during the delete/re-create cycles").isGreaterThanOrEqualTo(FLICKER_READS);
  }

  @Test
  void aLargeObjectRoundTrips() throws Exception {
    byte[] big = new byte[3 * 1024 * 1024 + 17];
    new java.util.Random(42).nextBytes(big);
    adapter.put("dir/big.bin", big, WriteCondition.overwrite());
    assertThat(adapter.readIfExists("dir/big.bin").orElseThrow().bytes()).isEqualTo(big);
  }
}
