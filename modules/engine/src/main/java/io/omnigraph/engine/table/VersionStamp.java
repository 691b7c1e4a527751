package io.omnigraph.engine.table;

/**
 * The identity of one committed version of a dataset: its number and the time Lance recorded for
 * its commit. A version's content never changes, so two handles with equal stamps see the same
 * rows; the commit time tells a dataset that was deleted and re-created at the same location (whose
 * version numbers start again) from the one a cache saw before.
 *
 * @param version the Lance version number
 * @param committedAtNanos the version's commit time, nanoseconds since the epoch
 */
public record VersionStamp(long version, long committedAtNanos) {}
