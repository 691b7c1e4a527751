package io.omnigraph.api.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A checked iterator over the result of {@link StorageAdapter#list}. Backends fetch pages lazily;
 * a page that fails to load makes {@link #hasNext()} or {@link #next()} throw. A listing is
 * therefore either complete or an error — it is never silently cut short.
 *
 * <p>Close it when you stop early, so a backend can release a pending page request.
 */
public interface ObjectListing extends AutoCloseable {

  /**
   * @return whether another entry follows
   * @throws StorageException when the next page could not be fetched
   */
  boolean hasNext() throws StorageException;

  /**
   * @return the next entry: a root-relative path usable with every other adapter method
   * @throws StorageException when the next page could not be fetched
   * @throws NoSuchElementException when the listing is exhausted
   */
  String next() throws StorageException;

  @Override
  default void close() throws StorageException {}

  /**
   * Drains the listing into a list, then closes it.
   *
   * @throws StorageException when any page fails; no partial result is returned
   */
  default List<String> toList() throws StorageException {
    try (this) {
      List<String> out = new ArrayList<>();
      while (hasNext()) {
        out.add(next());
      }
      return out;
    }
  }

  /** @return a listing over a fixed, already-complete list of paths */
  static ObjectListing of(List<String> paths) {
    List<String> copy = List.copyOf(paths);
    return new ObjectListing() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < copy.size();
      }

      @Override
      public String next() {
        if (i >= copy.size()) {
          throw new NoSuchElementException();
        }
        return copy.get(i++);
      }
    };
  }
}
