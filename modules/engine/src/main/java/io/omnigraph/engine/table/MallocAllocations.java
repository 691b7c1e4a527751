package io.omnigraph.engine.table;

import org.apache.arrow.memory.AllocationManager;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ReferenceManager;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The engine's Arrow memory: every buffer is one {@code malloc} and is freed when its last
 * reference is released, like Arrow's own "unsafe" allocation manager (docs/architecture.md,
 * "Arrow memory").
 *
 * <p>Arrow's default picks Netty's pooled allocator when it is on the class path (it is, through
 * Lance's dependencies). The engine's batches are few and large (a load's column buffers, an
 * index's staging), so the pool buys nothing here, and its chunks (several MiB per arena, one arena
 * per allocating thread) stay resident after the batch is gone: 15-30 MiB of a 10,000-person load's
 * peak RSS (docs/benchmarks.md, "Bulk load: the cold path"). Accounting, limits and leak checks
 * are the {@link RootAllocator}'s, unchanged: only where the bytes come from differs. (Arrow still
 * initializes its default manager once per process, when its allocator class loads.)
 */
public final class MallocAllocations {
  private MallocAllocations() {}

  /** Arrow's zero-length buffer for this manager (never freed; no memory behind it). */
  private static final ArrowBuf EMPTY = new ArrowBuf(ReferenceManager.NO_OP, null, 0, MemoryUtil.allocateMemory(0));

  /** Creates one {@link Manager} per buffer. */
  static final AllocationManager.Factory FACTORY = new AllocationManager.Factory() {
    @Override
    public AllocationManager create(BufferAllocator accountingAllocator, long size) {
      return new Manager(accountingAllocator, size);
    }

    @Override
    public ArrowBuf empty() {
      return EMPTY;
    }
  };

  /** @return a root allocator (no limit) whose buffers are plain native allocations */
  public static RootAllocator newRoot() {
    return new RootAllocator(RootAllocator.configBuilder().allocationManagerFactory(FACTORY).build());
  }

  private static final class Manager extends AllocationManager {
    private final long address;
    private final long size;

    Manager(BufferAllocator accountingAllocator, long size) {
      super(accountingAllocator);
      this.address = MemoryUtil.allocateMemory(size);
      this.size = size;
    }

    @Override
    public long getSize() {
      return size;
    }

    @Override
    protected long memoryAddress() {
      return address;
    }

    @Override
    protected void release0() {
      MemoryUtil.freeMemory(address);
    }
  }
}
