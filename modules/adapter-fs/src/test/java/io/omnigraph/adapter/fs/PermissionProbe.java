package io.omnigraph.adapter.fs;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.WriteCondition;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs each adapter operation against {@code <root>/locked} (a directory the caller made
 * inaccessible) and prints {@code <operation> <outcome>}, the outcome being the StorageException
 * kind or {@code OK}/{@code false}/{@code empty} when the call returned.
 */
public final class PermissionProbe {
  interface Op {
    Object run(StorageAdapter a) throws StorageException;
  }

  public static void main(String[] args) throws Exception {
    try (StorageAdapter a = new FsStorageAdapterProvider().open(Path.of(args[0]).toUri(), Map.of())) {
      probe("list", a, x -> x.list("locked").toList());
      probe("readTextIfExists", a, x -> x.readTextIfExists("locked/x"));
      probe("readText", a, x -> x.readText("locked/x"));
      probe("exists", a, x -> x.exists("locked/x"));
      probe("put", a, x -> x.put("locked/y", new byte[] {1}, WriteCondition.overwrite()));
      probe("putIfAbsent", a, x -> x.put("locked/z", new byte[] {1}, WriteCondition.ifAbsent()));
      probe("delete", a, x -> {
        x.delete("locked/x");
        return "OK";
      });
    }
  }

  private static void probe(String name, StorageAdapter a, Op op) {
    try {
      System.out.println(name + " returned " + op.run(a));
    } catch (StorageException e) {
      System.out.println(name + " " + e.kind());
    }
  }
}
