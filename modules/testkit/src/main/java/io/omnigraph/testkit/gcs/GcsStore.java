package io.omnigraph.testkit.gcs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * The emulator's in-memory state: buckets, their live objects and in-flight uploads. Every
 * mutation runs under one lock, so a precondition check and the write it guards are atomic, as
 * on GCS. Only the live generation of an object is kept (no object versioning).
 */
final class GcsStore {

  /** Orders names by their UTF-8 bytes, which is the order GCS lists in. */
  static final Comparator<String> UTF8 = (a, b) -> {
    byte[] x = a.getBytes(StandardCharsets.UTF_8);
    byte[] y = b.getBytes(StandardCharsets.UTF_8);
    return java.util.Arrays.compareUnsigned(x, y);
  };

  /** One live object generation. {@code data} is never mutated after construction. */
  record Blob(String bucket, String name, byte[] data, long generation, long metageneration,
      String contentType, Map<String, String> metadata, Instant created, Instant updated) {

    String md5Base64() {
      return Base64.getEncoder().encodeToString(md5());
    }

    String md5Hex() {
      StringBuilder sb = new StringBuilder();
      for (byte b : md5()) {
        sb.append(String.format("%02x", b & 0xff));
      }
      return sb.toString();
    }

    byte[] md5() {
      try {
        return MessageDigest.getInstance("MD5").digest(data);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("MD5 is a required JDK algorithm", e);
      }
    }

    /** Big-endian 4-byte CRC32C, base64, as GCS reports it. */
    String crc32cBase64() {
      CRC32C c = new CRC32C();
      c.update(data);
      return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
    }
  }

  /** One page of a listing: objects and folded prefixes, plus the key to resume after. */
  record Page(List<Blob> items, List<String> prefixes, String lastKey, boolean more) {}

  /** A resumable (JSON) or multipart (XML) upload in progress. */
  static final class Upload {
    final String bucket;
    final String name;
    final String contentType;
    final Map<String, String> metadata;
    final Preconditions preconditions;
    final java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
    final TreeMap<Integer, byte[]> parts = new TreeMap<>();
    Blob committed;

    Upload(String bucket, String name, String contentType, Map<String, String> metadata, Preconditions preconditions) {
      this.bucket = bucket;
      this.name = name;
      this.contentType = contentType;
      this.metadata = metadata;
      this.preconditions = preconditions;
    }
  }

  private static final class Bucket {
    final String name;
    final Instant created = Instant.now();
    final NavigableMap<String, Blob> objects = new TreeMap<>(UTF8);

    Bucket(String name) {
      this.name = name;
    }
  }

  private final Map<String, Bucket> buckets = new HashMap<>();
  private final Map<String, Upload> uploads = new ConcurrentHashMap<>();
  private final Set<String> deniedBuckets = ConcurrentHashMap.newKeySet();
  private long lastGeneration;

  synchronized boolean createBucket(String name) {
    if (buckets.containsKey(name)) {
      return false;
    }
    buckets.put(name, new Bucket(name));
    return true;
  }

  synchronized Instant bucketCreated(String name) {
    return bucket(name).created;
  }

  synchronized boolean bucketExists(String name) {
    return buckets.containsKey(name);
  }

  synchronized void deleteBucket(String name) {
    Bucket b = bucket(name);
    if (!b.objects.isEmpty()) {
      throw new GcsError(409, "conflict", "BucketNotEmpty", "The bucket you tried to delete is not empty: " + name);
    }
    buckets.remove(name);
  }

  void deny(String bucket, boolean denied) {
    if (denied) {
      deniedBuckets.add(bucket);
    } else {
      deniedBuckets.remove(bucket);
    }
  }

  /** @throws GcsError 403 when access to {@code bucket} is denied by the test */
  void checkAccess(String bucket) {
    if (deniedBuckets.contains(bucket)) {
      throw GcsError.forbidden(bucket);
    }
  }

  /** @return the live object, or {@code null}; throws 404 for a missing bucket */
  synchronized Blob get(String bucket, String name) {
    return bucket(bucket).objects.get(name);
  }

  /** @return the live object; 404 when absent or when {@code generation} is not the live one */
  synchronized Blob require(String bucket, String name, Long generation) {
    Blob b = get(bucket, name);
    if (b == null || (generation != null && generation != b.generation())) {
      throw GcsError.noSuchObject(bucket, name);
    }
    return b;
  }

  synchronized Blob put(String bucket, String name, byte[] data, String contentType, Map<String, String> metadata,
      Preconditions pre) {
    Bucket b = bucket(bucket);
    Blob live = b.objects.get(name);
    pre.check(live, false);
    Instant now = Instant.now();
    Blob blob = new Blob(bucket, name, data, nextGeneration(), 1,
        contentType == null ? "application/octet-stream" : contentType,
        metadata == null ? Map.of() : Map.copyOf(metadata), now, now);
    b.objects.put(name, blob);
    return blob;
  }

  synchronized void delete(String bucket, String name, Long generation, Preconditions pre) {
    Bucket b = bucket(bucket);
    Blob live = require(bucket, name, generation);
    pre.check(live, false);
    b.objects.remove(name);
  }

  synchronized Blob copy(String srcBucket, String src, Long srcGeneration, Preconditions srcPre,
      String dstBucket, String dst, Preconditions dstPre) {
    Blob source = require(srcBucket, src, srcGeneration);
    srcPre.check(source, false);
    return put(dstBucket, dst, source.data(), source.contentType(), source.metadata(), dstPre);
  }

  /**
   * Lists a bucket the way GCS does: names in UTF-8 order starting with {@code prefix}; with a
   * delimiter, names whose remainder contains it fold into one prefix entry; items and prefixes
   * share the {@code max} budget; the page resumes strictly after {@code afterKey}.
   *
   * @param startAfter names at or before this are skipped before folding (XML {@code start-after}); may be null
   * @param startOffset names before this are skipped (JSON {@code startOffset}); may be null
   * @param endOffset names at or after this are skipped (JSON {@code endOffset}); may be null
   */
  synchronized Page list(String bucket, String prefix, String delimiter, String afterKey, int max,
      String startAfter, String startOffset, String endOffset) {
    Bucket b = bucket(bucket);
    String p = prefix == null ? "" : prefix;
    List<Blob> items = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String lastKey = null;
    String lastPrefix = null;
    int emitted = 0;
    for (Blob blob : b.objects.tailMap(p, true).values()) {
      String name = blob.name();
      if (!name.startsWith(p)) {
        break;
      }
      if (startAfter != null && UTF8.compare(name, startAfter) <= 0) {
        continue;
      }
      if (startOffset != null && UTF8.compare(name, startOffset) < 0) {
        continue;
      }
      if (endOffset != null && UTF8.compare(name, endOffset) >= 0) {
        continue;
      }
      String key = name;
      boolean isPrefix = false;
      if (delimiter != null && !delimiter.isEmpty()) {
        int at = name.indexOf(delimiter, p.length());
        if (at >= 0) {
          key = name.substring(0, at + delimiter.length());
          isPrefix = true;
        }
      }
      if (isPrefix && key.equals(lastPrefix)) {
        continue;
      }
      if (afterKey != null && UTF8.compare(key, afterKey) <= 0) {
        if (isPrefix) {
          lastPrefix = key;
        }
        continue;
      }
      if (emitted == max) {
        return new Page(items, prefixes, lastKey, true);
      }
      if (isPrefix) {
        prefixes.add(key);
        lastPrefix = key;
      } else {
        items.add(blob);
      }
      lastKey = key;
      emitted++;
    }
    return new Page(items, prefixes, lastKey, false);
  }

  Upload startUpload(String id, Upload upload) {
    uploads.put(id, upload);
    return upload;
  }

  /** @return the upload, or throws 404 when the id is unknown */
  Upload upload(String id) {
    Upload u = uploads.get(id);
    if (u == null) {
      throw new GcsError(404, "notFound", "NoSuchUpload", "No such upload: " + id);
    }
    return u;
  }

  void endUpload(String id) {
    uploads.remove(id);
  }

  synchronized List<String> names(String bucket) {
    return new ArrayList<>(bucket(bucket).objects.keySet());
  }

  private Bucket bucket(String name) {
    Bucket b = buckets.get(name);
    if (b == null) {
      throw GcsError.noSuchBucket(name);
    }
    return b;
  }

  /** A fresh, strictly increasing generation: microseconds since the epoch, bumped past the last one. */
  private long nextGeneration() {
    Instant now = Instant.now();
    long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    lastGeneration = Math.max(lastGeneration + 1, micros);
    return lastGeneration;
  }
}
