package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageIoHook;
import io.omnigraph.api.storage.StorageIoHook.Point;
import io.omnigraph.api.storage.StoragePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A paged listing of one directory. The directory is read once (its names must be sorted before
 * any is returned), then each page examines up to {@code pageSize} of those names — an
 * {@code lstat}-like attribute read per name, keeping only regular files. Every page after the
 * first is fetched lazily from {@link #hasNext()}, and a failure there throws: the listing never
 * ends early. A name that vanished between the directory read and its page is skipped: it was
 * deleted, so it is rightly absent.
 */
final class FsListing implements ObjectListing {
  private final String dir;
  private final Path directory;
  private final List<String> names;
  private final int pageSize;
  private final StorageIoHook hook;
  private final ArrayDeque<String> page = new ArrayDeque<>();
  private int nextIndex;

  FsListing(String dir, Path directory, List<String> names, int pageSize, StorageIoHook hook) {
    this.dir = dir;
    this.directory = directory;
    this.names = names;
    this.pageSize = pageSize;
    this.hook = hook;
  }

  /** Loads page 1; the caller has already passed the hook for it (with the directory read). */
  void fetchFirstPage() throws StorageException {
    load();
  }

  @Override
  public boolean hasNext() throws StorageException {
    while (page.isEmpty() && nextIndex < names.size()) {
      try {
        hook.before(Point.LIST_PAGE, dir);
      } catch (IOException e) {
        throw FsErrors.map(e, dir, "list (page starting at entry " + nextIndex + ")");
      }
      load();
    }
    return !page.isEmpty();
  }

  @Override
  public String next() throws StorageException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return page.removeFirst();
  }

  private void load() throws StorageException {
    int end = Math.min(names.size(), nextIndex + pageSize);
    ArrayDeque<String> loaded = new ArrayDeque<>();
    for (int i = nextIndex; i < end; i++) {
      String name = names.get(i);
      try {
        if (Files.readAttributes(directory.resolve(name), BasicFileAttributes.class).isRegularFile()) {
          loaded.add(StoragePaths.join(dir, name));
        }
      } catch (NoSuchFileException e) {
        continue; // deleted since the directory was read
      } catch (IOException e) {
        throw FsErrors.map(e, StoragePaths.join(dir, name), "list");
      }
    }
    // Only a fully examined page advances the cursor, so a caller that retries after a failure
    // resumes at the page that failed instead of skipping it.
    page.addAll(loaded);
    nextIndex = end;
  }
}
