package io.omnigraph.conformance.runner;

import io.omnigraph.conformance.StorageAdapterContract;
import io.omnigraph.conformance.StorageTckBinding;

/**
 * The contract bound to whatever root the standalone runner was given. Public and opened to JUnit,
 * which instantiates it; not meant to be run directly (it has no root until {@link TckRunner} sets one).
 */
public class RunnerContract extends StorageAdapterContract {
  static volatile StorageTckBinding binding;

  @Override
  protected StorageTckBinding binding() {
    StorageTckBinding b = binding;
    if (b == null) {
      throw new IllegalStateException("RunnerContract runs only under TckRunner (java -jar ...-runner.jar --uri ...)");
    }
    return b;
  }
}
