package io.omnigraph.testkit.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The subset of the GCS JSON API (v1) that google-cloud-storage 2.x sends: buckets, media /
 * multipart / resumable uploads, metadata and media reads with {@code Range}, listing, delete
 * and rewrite, each with generation and metageneration preconditions.
 */
final class JsonApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JSON_TYPE = "application/json; charset=UTF-8";

  private final GcsStore store;

  JsonApi(GcsStore store) {
    this.store = store;
  }

  static boolean handles(String rawPath) {
    return rawPath.startsWith("/storage/v1/") || rawPath.startsWith("/upload/storage/v1/")
        || rawPath.startsWith("/download/storage/v1/") || rawPath.startsWith("/batch/");
  }

  void handle(Exchange ex) throws IOException {
    String path = ex.rawPath;
    boolean upload = path.startsWith("/upload/");
    boolean download = path.startsWith("/download/");
    if (upload || download) {
      path = path.substring(path.indexOf("/storage/v1/"));
    }
    if (!path.startsWith("/storage/v1/")) {
      throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
    String[] seg = path.substring("/storage/v1/".length()).split("/", -1);
    for (int i = 0; i < seg.length; i++) {
      seg[i] = Exchange.percentDecode(seg[i]);
    }
    // seg: b [bucket [o [object [rewriteTo|copyTo b dstBucket o dstObject]]]]
    if (seg.length == 1 && seg[0].equals("b")) {
      if (ex.method.equals("POST")) {
        createBucket(ex);
        return;
      }
      throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
    if (seg.length < 2 || !seg[0].equals("b")) {
      throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
    String bucket = seg[1];
    store.checkAccess(bucket);
    if (seg.length == 2) {
      switch (ex.method) {
        case "GET" -> sendJson(ex, 200, bucketJson(bucket));
        case "DELETE" -> {
          store.deleteBucket(bucket);
          ex.reply(204, null, new byte[0]);
        }
        default -> throw GcsError.unsupported(ex.method + " " + ex.rawPath);
      }
      return;
    }
    if (!seg[2].equals("o")) {
      throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
    if (seg.length == 3) {
      if (upload && ex.method.equals("POST")) {
        startUpload(ex, bucket);
      } else if (upload && ex.method.equals("PUT")) {
        resumableChunk(ex);
      } else if (upload && ex.method.equals("DELETE")) {
        store.endUpload(requireParam(ex, "upload_id"));
        ex.reply(499, JSON_TYPE, new byte[0]);
      } else if (ex.method.equals("GET")) {
        list(ex, bucket);
      } else {
        throw GcsError.unsupported(ex.method + " " + ex.rawPath);
      }
      return;
    }
    String object = seg[3];
    if (seg.length == 4) {
      switch (ex.method) {
        case "GET" -> {
          if (download || "media".equals(ex.param("alt"))) {
            media(ex, bucket, object);
          } else {
            GcsStore.Blob b = store.require(bucket, object, ex.longParam("generation"));
            preconditions(ex, "").check(b, true);
            sendJson(ex, 200, objectJson(b));
          }
        }
        case "DELETE" -> {
          store.delete(bucket, object, ex.longParam("generation"), preconditions(ex, ""));
          ex.reply(204, null, new byte[0]);
        }
        default -> throw GcsError.unsupported(ex.method + " " + ex.rawPath);
      }
      return;
    }
    if (seg.length == 9 && (seg[4].equals("rewriteTo") || seg[4].equals("copyTo")) && seg[5].equals("b")
        && seg[7].equals("o") && ex.method.equals("POST")) {
      rewrite(ex, bucket, object, seg[6], seg[8], seg[4].equals("rewriteTo"));
      return;
    }
    throw GcsError.unsupported(ex.method + " " + ex.rawPath);
  }

  private void createBucket(Exchange ex) throws IOException {
    JsonNode body = JSON.readTree(ex.body());
    String name = body == null || body.path("name").asText().isEmpty() ? null : body.path("name").asText();
    if (name == null) {
      throw GcsError.badRequest("bucket name is required");
    }
    if (!store.createBucket(name)) {
      throw new GcsError(409, "conflict", "BucketAlreadyOwnedByYou",
          "Your previous request to create the named bucket succeeded and you already own it.");
    }
    sendJson(ex, 200, bucketJson(name));
  }

  private ObjectNode bucketJson(String name) {
    Instant created = store.bucketCreated(name);
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "storage#bucket");
    n.put("id", name);
    n.put("name", name);
    n.put("projectNumber", "0");
    n.put("metageneration", "1");
    n.put("location", "US");
    n.put("storageClass", "STANDARD");
    n.put("etag", "CAE=");
    n.put("timeCreated", created.toString());
    n.put("updated", created.toString());
    return n;
  }

  static Preconditions preconditions(Exchange ex, String prefix) {
    if (prefix.isEmpty()) {
      return new Preconditions(ex.longParam("ifGenerationMatch"), ex.longParam("ifGenerationNotMatch"),
          ex.longParam("ifMetagenerationMatch"), ex.longParam("ifMetagenerationNotMatch"));
    }
    return new Preconditions(ex.longParam(prefix + "GenerationMatch"), ex.longParam(prefix + "GenerationNotMatch"),
        ex.longParam(prefix + "MetagenerationMatch"), ex.longParam(prefix + "MetagenerationNotMatch"));
  }

  private void startUpload(Exchange ex, String bucket) throws IOException {
    String type = ex.param("uploadType");
    Preconditions pre = preconditions(ex, "");
    if ("media".equals(type)) {
      String name = requireParam(ex, "name");
      GcsStore.Blob b = store.put(bucket, name, ex.body(), ex.header("Content-Type"), Map.of(), pre);
      sendJson(ex, 200, objectJson(b));
    } else if ("multipart".equals(type)) {
      List<MultipartRelated.Part> parts =
          MultipartRelated.parse(ex.body(), MultipartRelated.boundary(ex.header("Content-Type")));
      if (parts.size() != 2) {
        throw GcsError.badRequest("multipart upload must have 2 parts, got " + parts.size());
      }
      JsonNode meta = JSON.readTree(parts.get(0).content());
      String name = meta.path("name").asText(ex.param("name"));
      if (name == null || name.isEmpty()) {
        throw GcsError.badRequest("object name is required");
      }
      String contentType = meta.hasNonNull("contentType") ? meta.get("contentType").asText()
          : parts.get(1).headers().get("content-type");
      byte[] media = parts.get(1).content();
      checkHashes(meta, media);
      GcsStore.Blob b = store.put(bucket, name, media, contentType, metadata(meta), pre);
      sendJson(ex, 200, objectJson(b));
    } else if ("resumable".equals(type)) {
      byte[] raw = ex.body();
      JsonNode meta = raw.length == 0 ? JSON.createObjectNode() : JSON.readTree(raw);
      String name = ex.param("name") != null ? ex.param("name") : meta.path("name").asText(null);
      if (name == null || name.isEmpty()) {
        throw GcsError.badRequest("object name is required");
      }
      // Checked at initiation (the client reports this 412) and again at commit.
      pre.check(store.get(bucket, name), false);
      String contentType = meta.hasNonNull("contentType") ? meta.get("contentType").asText()
          : ex.header("X-Upload-Content-Type");
      String id = UUID.randomUUID().toString().replace("-", "");
      store.startUpload(id, new GcsStore.Upload(bucket, name, contentType, metadata(meta), pre));
      ex.setHeader("Location", baseUrl(ex) + "/upload/storage/v1/b/" + pathEscape(bucket)
          + "/o?uploadType=resumable&upload_id=" + id);
      ex.reply(200, JSON_TYPE, new byte[0]);
    } else {
      throw GcsError.unsupported("uploadType=" + type);
    }
  }

  private void resumableChunk(Exchange ex) throws IOException {
    String id = requireParam(ex, "upload_id");
    GcsStore.Upload up = store.upload(id);
    byte[] chunk = ex.body();
    String range = ex.header("Content-Range");
    long total = -1;
    synchronized (up) {
      if (up.committed != null) {
        sendJson(ex, 200, objectJson(up.committed));
        return;
      }
      long have = up.received.size();
      if (range == null) {
        up.received.write(chunk);
        total = up.received.size();
      } else {
        String r = range.trim();
        if (!r.startsWith("bytes ")) {
          throw GcsError.badRequest("malformed Content-Range: " + range);
        }
        String spec = r.substring("bytes ".length());
        int slash = spec.indexOf('/');
        if (slash < 0) {
          throw GcsError.badRequest("malformed Content-Range: " + range);
        }
        String span = spec.substring(0, slash);
        String size = spec.substring(slash + 1);
        total = size.equals("*") ? -1 : Long.parseLong(size);
        if (!span.equals("*")) {
          long start = Long.parseLong(span.substring(0, span.indexOf('-')));
          if (start > have) {
            throw GcsError.badRequest("chunk starts at " + start + " but only " + have + " bytes were received");
          }
          // Bytes already persisted are skipped, as GCS does when a client resends a chunk.
          int skip = (int) Math.min(chunk.length, have - start);
          up.received.write(chunk, skip, chunk.length - skip);
        }
      }
      long now = up.received.size();
      if (total >= 0 && now >= total) {
        if (now != total) {
          throw GcsError.badRequest("received " + now + " bytes but the declared size is " + total);
        }
        up.committed = store.put(up.bucket, up.name, up.received.toByteArray(), up.contentType, up.metadata,
            up.preconditions);
        sendJson(ex, 200, objectJson(up.committed));
        return;
      }
      if (now > 0) {
        ex.setHeader("Range", "bytes=0-" + (now - 1));
      }
      ex.reply(308, null, new byte[0]);
    }
  }

  private void media(Exchange ex, String bucket, String object) throws IOException {
    GcsStore.Blob b = store.require(bucket, object, ex.longParam("generation"));
    preconditions(ex, "").check(b, true);
    mediaHeaders(ex, b);
    ByteRange range = ByteRange.parse(ex.header("Range"), b.data().length);
    if (range == null) {
      ex.reply(200, b.contentType(), b.data());
    } else {
      ex.setHeader("Content-Range", range.contentRange(b.data().length));
      ex.reply(206, b.contentType(),
          Arrays.copyOfRange(b.data(), (int) range.start(), (int) range.end() + 1));
    }
  }

  static void mediaHeaders(Exchange ex, GcsStore.Blob b) {
    ex.setHeader("x-goog-generation", Long.toString(b.generation()));
    ex.setHeader("x-goog-metageneration", Long.toString(b.metageneration()));
    ex.setHeader("x-goog-stored-content-length", Integer.toString(b.data().length));
    ex.setHeader("x-goog-stored-content-encoding", "identity");
    ex.setHeader("x-goog-storage-class", "STANDARD");
    ex.setHeader("x-goog-hash", "crc32c=" + b.crc32cBase64() + ",md5=" + b.md5Base64());
    ex.setHeader("ETag", "\"" + b.md5Hex() + "\"");
    ex.setHeader("Last-Modified", Exchange.rfc1123(b.updated()));
    for (Map.Entry<String, String> m : b.metadata().entrySet()) {
      ex.setHeader("x-goog-meta-" + m.getKey(), m.getValue());
    }
  }

  private void list(Exchange ex, String bucket) throws IOException {
    int max = 1000;
    Long requested = ex.longParam("maxResults");
    if (requested != null && requested > 0) {
      max = (int) Math.min(requested, 1000);
    }
    String token = ex.param("pageToken");
    String after = token == null || token.isEmpty() ? null : decodeToken(token);
    GcsStore.Page page = store.list(bucket, ex.param("prefix"), ex.param("delimiter"), after, max, null,
        ex.param("startOffset"), ex.param("endOffset"));
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "storage#objects");
    if (!page.items().isEmpty()) {
      ArrayNode items = n.putArray("items");
      page.items().forEach(b -> items.add(objectJson(b)));
    }
    if (!page.prefixes().isEmpty()) {
      ArrayNode prefixes = n.putArray("prefixes");
      page.prefixes().forEach(prefixes::add);
    }
    if (page.more()) {
      n.put("nextPageToken", encodeToken(page.lastKey()));
    }
    sendJson(ex, 200, n);
  }

  private void rewrite(Exchange ex, String srcBucket, String src, String dstBucket, String dst, boolean rewrite)
      throws IOException {
    store.checkAccess(dstBucket);
    byte[] raw = ex.body();
    GcsStore.Blob b = store.copy(srcBucket, src, ex.longParam("sourceGeneration"), preconditions(ex, "ifSource"),
        dstBucket, dst, preconditions(ex, ""));
    if (raw.length > 0) {
      JsonNode meta = JSON.readTree(raw);
      if (meta != null && (meta.hasNonNull("contentType") || meta.has("metadata"))) {
        // A rewrite with a metadata body replaces the destination's metadata.
        b = store.put(dstBucket, dst, b.data(),
            meta.hasNonNull("contentType") ? meta.get("contentType").asText() : b.contentType(),
            meta.has("metadata") ? metadata(meta) : b.metadata(), Preconditions.NONE);
      }
    }
    if (!rewrite) {
      sendJson(ex, 200, objectJson(b));
      return;
    }
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "storage#rewriteResponse");
    n.put("totalBytesRewritten", Integer.toString(b.data().length));
    n.put("objectSize", Integer.toString(b.data().length));
    n.put("done", true);
    n.set("resource", objectJson(b));
    sendJson(ex, 200, n);
  }

  static ObjectNode objectJson(GcsStore.Blob b) {
    ObjectNode n = JSON.createObjectNode();
    n.put("kind", "storage#object");
    n.put("id", b.bucket() + "/" + b.name() + "/" + b.generation());
    n.put("name", b.name());
    n.put("bucket", b.bucket());
    n.put("generation", Long.toString(b.generation()));
    n.put("metageneration", Long.toString(b.metageneration()));
    n.put("contentType", b.contentType());
    n.put("storageClass", "STANDARD");
    n.put("size", Integer.toString(b.data().length));
    n.put("md5Hash", b.md5Base64());
    n.put("crc32c", b.crc32cBase64());
    n.put("etag", Base64.getEncoder().encodeToString(
        (b.generation() + "/" + b.metageneration()).getBytes(StandardCharsets.UTF_8)));
    n.put("timeCreated", b.created().toString());
    n.put("updated", b.updated().toString());
    n.put("timeStorageClassUpdated", b.created().toString());
    if (!b.metadata().isEmpty()) {
      ObjectNode m = n.putObject("metadata");
      b.metadata().forEach(m::put);
    }
    return n;
  }

  static void sendJson(Exchange ex, int status, JsonNode node) throws IOException {
    ex.reply(status, JSON_TYPE, JSON.writeValueAsBytes(node));
  }

  /** The error body the Java client parses into {@code StorageException.getCode()/getReason()}. */
  static byte[] errorBody(GcsError e) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode err = root.putObject("error");
    err.put("code", e.status);
    err.put("message", e.getMessage());
    ObjectNode item = err.putArray("errors").addObject();
    item.put("message", e.getMessage());
    item.put("domain", "global");
    item.put("reason", e.reason);
    try {
      return JSON.writeValueAsBytes(root);
    } catch (IOException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  private static void checkHashes(JsonNode meta, byte[] media) {
    if (meta.hasNonNull("crc32c")) {
      java.util.zip.CRC32C c = new java.util.zip.CRC32C();
      c.update(media);
      String actual = Base64.getEncoder().encodeToString(
          java.nio.ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
      if (!actual.equals(meta.get("crc32c").asText())) {
        throw GcsError.badRequest("Provided CRC32C \"" + meta.get("crc32c").asText()
            + "\" doesn't match calculated CRC32C \"" + actual + "\".");
      }
    }
  }

  private static Map<String, String> metadata(JsonNode meta) {
    Map<String, String> m = new LinkedHashMap<>();
    JsonNode md = meta.path("metadata");
    if (md.isObject()) {
      md.properties().forEach(e -> m.put(e.getKey(), e.getValue().asText()));
    }
    return m;
  }

  private static String requireParam(Exchange ex, String name) {
    String v = ex.param(name);
    if (v == null || v.isEmpty()) {
      throw GcsError.badRequest("missing query parameter " + name);
    }
    return v;
  }

  /** The scheme and authority the client used, so an upload URL also goes through any proxy in between. */
  static String baseUrl(Exchange ex) {
    String host = ex.header("Host");
    if (host == null) {
      java.net.InetSocketAddress a = ex.http.getLocalAddress();
      host = a.getAddress().getHostAddress() + ":" + a.getPort();
    }
    return "http://" + host;
  }

  static String pathEscape(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
          || c == '.' || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%').append(String.format("%02X", c));
      }
    }
    return sb.toString();
  }

  static String encodeToken(String key) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }

  static String decodeToken(String token) {
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw GcsError.badRequest("Invalid page token: " + token);
    }
  }
}
