package io.omnigraph.api;

/**
 * Receives progress reports from {@link Graph#load}. Called on the loading thread, at most a few
 * times per second plus once when the load finishes; it must return quickly. An exception thrown
 * by the listener aborts the load before anything is published.
 */
@FunctionalInterface
public interface LoadProgressListener {
  /** A listener that ignores every report. */
  LoadProgressListener NONE = p -> { };

  /** @param progress the current state of the load */
  void onProgress(LoadProgress progress);
}
