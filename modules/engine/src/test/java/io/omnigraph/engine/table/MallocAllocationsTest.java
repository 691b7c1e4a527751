package io.omnigraph.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.BufferLedger;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.Test;

/** The engine's Arrow buffers are plain native allocations, with the root allocator's accounting. */
class MallocAllocationsTest {
  @Test
  void theTableStoresBuffersComeFromMallocNotFromNettysPool() {
    try (TableStore store = new TableStore(); ArrowBuf buf = store.allocator().buffer(4096)) {
      assertThat(((BufferLedger) buf.getReferenceManager()).getAllocationManager().getClass().getName())
          .isEqualTo(MallocAllocations.class.getName() + "$Manager");
    }
  }

  @Test
  void accountingAndLeakChecksAreTheRootAllocatorsUnchanged() {
    BufferAllocator root = MallocAllocations.newRoot();
    try (BigIntVector v = new BigIntVector("v", root)) {
      v.allocateNew(10_000);
      for (int i = 0; i < 10_000; i++) {
        v.set(i, i * 3L);
      }
      v.setValueCount(10_000);
      assertThat(v.get(9_999)).isEqualTo(29_997L);
      assertThat(v.isNull(5)).isFalse();
      assertThat(root.getAllocatedMemory()).isGreaterThanOrEqualTo(80_000);
    }
    assertThat(root.getAllocatedMemory()).isZero();
    ArrowBuf leaked = root.buffer(64); // stays allocated in this test JVM: the allocator is closed below
    assertThat(root.getAllocatedMemory()).isEqualTo(64);
    assertThatThrownBy(root::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("leak");
    assertThat(leaked.capacity()).isEqualTo(64);
  }
}
