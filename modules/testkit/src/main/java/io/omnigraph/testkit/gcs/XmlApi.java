package io.omnigraph.testkit.gcs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The subset of the GCS XML API that the Rust {@code object_store} crate (used by Lance for
 * {@code gs://}) sends: object PUT / GET / HEAD / DELETE with {@code x-goog-if-generation-match},
 * server-side copy ({@code x-goog-copy-source}), multipart uploads ({@code ?uploads},
 * {@code ?partNumber&uploadId}, complete, abort) and ListObjectsV2-style listing
 * ({@code list-type=2}). Paths are {@code /{bucket}/{object}}.
 */
final class XmlApi {
  private static final String XML_TYPE = "application/xml; charset=UTF-8";
  private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
      .withZone(java.time.ZoneOffset.UTC);

  private final GcsStore store;

  XmlApi(GcsStore store) {
    this.store = store;
  }

  void handle(Exchange ex) throws IOException {
    String raw = ex.rawPath.startsWith("/") ? ex.rawPath.substring(1) : ex.rawPath;
    int slash = raw.indexOf('/');
    String bucket = Exchange.percentDecode(slash < 0 ? raw : raw.substring(0, slash));
    String object = slash < 0 || slash == raw.length() - 1 ? null : Exchange.percentDecode(raw.substring(slash + 1));
    if (bucket.isEmpty()) {
      throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
    store.checkAccess(bucket);
    if (object == null) {
      switch (ex.method) {
        case "GET" -> list(ex, bucket);
        case "HEAD" -> {
          if (!store.bucketExists(bucket)) {
            throw GcsError.noSuchBucket(bucket);
          }
          ex.reply(200, null, new byte[0]);
        }
        default -> throw GcsError.unsupported(ex.method + " " + ex.rawPath);
      }
      return;
    }
    switch (ex.method) {
      case "GET", "HEAD" -> get(ex, bucket, object);
      case "PUT" -> {
        if (ex.param("uploadId") != null) {
          putPart(ex);
        } else if (ex.header("x-goog-copy-source") != null) {
          copy(ex, bucket, object);
        } else {
          GcsStore.Blob b = store.put(bucket, object, ex.body(), ex.header("Content-Type"), userMetadata(ex),
              preconditions(ex));
          writeHeaders(ex, b);
          ex.reply(200, null, new byte[0]);
        }
      }
      case "POST" -> {
        if (ex.query.containsKey("uploads")) {
          initiate(ex, bucket, object);
        } else if (ex.param("uploadId") != null) {
          complete(ex, bucket, object);
        } else {
          throw GcsError.unsupported(ex.method + " " + ex.rawPath);
        }
      }
      case "DELETE" -> {
        if (ex.param("uploadId") != null) {
          store.endUpload(ex.param("uploadId"));
        } else {
          store.delete(bucket, object, ex.longParam("generation"), preconditions(ex));
        }
        ex.reply(204, null, new byte[0]);
      }
      default -> throw GcsError.unsupported(ex.method + " " + ex.rawPath);
    }
  }

  private void get(Exchange ex, String bucket, String object) throws IOException {
    GcsStore.Blob b = store.require(bucket, object, ex.longParam("generation"));
    preconditions(ex).check(b, true);
    String etag = "\"" + b.md5Hex() + "\"";
    String ifMatch = ex.header("If-Match");
    if (ifMatch != null && !etagMatches(ifMatch, etag)) {
      throw GcsError.preconditionFailed("If-Match " + ifMatch);
    }
    String ifNoneMatch = ex.header("If-None-Match");
    if (ifNoneMatch != null && etagMatches(ifNoneMatch, etag)) {
      JsonApi.mediaHeaders(ex, b);
      throw GcsError.notModified();
    }
    Instant modified = b.updated().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    String ims = ex.header("If-Modified-Since");
    if (ims != null && !modified.isAfter(parseDate(ims))) {
      JsonApi.mediaHeaders(ex, b);
      throw GcsError.notModified();
    }
    String ius = ex.header("If-Unmodified-Since");
    if (ius != null && modified.isAfter(parseDate(ius))) {
      throw GcsError.preconditionFailed("If-Unmodified-Since " + ius);
    }
    JsonApi.mediaHeaders(ex, b);
    ex.setHeader("Content-Type", b.contentType());
    ByteRange range = ByteRange.parse(ex.header("Range"), b.data().length);
    int status = range == null ? 200 : 206;
    if (range != null) {
      ex.setHeader("Content-Range", range.contentRange(b.data().length));
    }
    byte[] payload = range == null ? b.data()
        : Arrays.copyOfRange(b.data(), (int) range.start(), (int) range.end() + 1);
    if (ex.method.equals("HEAD")) {
      ex.replyHead(status, payload.length);
    } else {
      ex.reply(status, b.contentType(), payload);
    }
  }

  private void copy(Exchange ex, String bucket, String object) throws IOException {
    String source = ex.header("x-goog-copy-source");
    String s = source.startsWith("/") ? source.substring(1) : source;
    int slash = s.indexOf('/');
    if (slash <= 0) {
      throw GcsError.badRequest("malformed x-goog-copy-source: " + source);
    }
    String srcBucket = Exchange.percentDecode(s.substring(0, slash));
    String src = Exchange.percentDecode(s.substring(slash + 1));
    store.checkAccess(srcBucket);
    Preconditions srcPre = new Preconditions(ex.longHeader("x-goog-copy-source-if-generation-match"), null,
        ex.longHeader("x-goog-copy-source-if-metageneration-match"), null);
    GcsStore.Blob b = store.copy(srcBucket, src, ex.longHeader("x-goog-copy-source-generation"), srcPre,
        bucket, object, preconditions(ex));
    writeHeaders(ex, b);
    ex.replyText(200, XML_TYPE, "<?xml version='1.0' encoding='UTF-8'?><CopyObjectResult><LastModified>"
        + ISO_MILLIS.format(b.updated()) + "</LastModified><ETag>\"" + b.md5Hex() + "\"</ETag></CopyObjectResult>");
  }

  private void initiate(Exchange ex, String bucket, String object) throws IOException {
    if (!store.bucketExists(bucket)) {
      throw GcsError.noSuchBucket(bucket);
    }
    String id = "mpu-" + UUID.randomUUID().toString().replace("-", "");
    store.startUpload(id, new GcsStore.Upload(bucket, object, ex.header("Content-Type"), userMetadata(ex),
        preconditions(ex)));
    ex.replyText(200, XML_TYPE, "<?xml version='1.0' encoding='UTF-8'?><InitiateMultipartUploadResult>"
        + "<Bucket>" + esc(bucket) + "</Bucket><Key>" + esc(object) + "</Key><UploadId>" + id
        + "</UploadId></InitiateMultipartUploadResult>");
  }

  private void putPart(Exchange ex) throws IOException {
    GcsStore.Upload up = store.upload(ex.param("uploadId"));
    Long number = ex.longParam("partNumber");
    if (number == null || number < 1 || number > 10000) {
      throw GcsError.badRequest("partNumber must be 1..10000");
    }
    byte[] data = ex.body();
    synchronized (up) {
      up.parts.put(number.intValue(), data);
    }
    ex.setHeader("ETag", "\"" + md5Hex(data) + "\"");
    ex.reply(200, null, new byte[0]);
  }

  private void complete(Exchange ex, String bucket, String object) throws IOException {
    String id = ex.param("uploadId");
    GcsStore.Upload up = store.upload(id);
    List<int[]> order = new ArrayList<>();
    List<String> etags = new ArrayList<>();
    Document doc = parseXml(ex.body());
    NodeList parts = doc.getElementsByTagName("Part");
    for (int i = 0; i < parts.getLength(); i++) {
      Element p = (Element) parts.item(i);
      order.add(new int[] {Integer.parseInt(text(p, "PartNumber"))});
      etags.add(text(p, "ETag"));
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    synchronized (up) {
      for (int i = 0; i < order.size(); i++) {
        int n = order.get(i)[0];
        byte[] data = up.parts.get(n);
        if (data == null || !etagMatches(etags.get(i), "\"" + md5Hex(data) + "\"")) {
          throw new GcsError(400, "invalid", "InvalidPart", "part " + n + " was not uploaded with that ETag");
        }
        all.write(data);
      }
    }
    GcsStore.Blob b = store.put(bucket, object, all.toByteArray(), up.contentType, up.metadata, up.preconditions);
    store.endUpload(id);
    writeHeaders(ex, b);
    ex.replyText(200, XML_TYPE, "<?xml version='1.0' encoding='UTF-8'?><CompleteMultipartUploadResult>"
        + "<Location>/" + esc(bucket) + "/" + esc(object) + "</Location><Bucket>" + esc(bucket) + "</Bucket><Key>"
        + esc(object) + "</Key><ETag>\"" + b.md5Hex() + "\"</ETag></CompleteMultipartUploadResult>");
  }

  private void list(Exchange ex, String bucket) throws IOException {
    int max = 1000;
    Long requested = ex.longParam("max-keys");
    if (requested != null && requested > 0) {
      max = (int) Math.min(requested, 1000);
    }
    String token = ex.param("continuation-token");
    String after = token == null || token.isEmpty() ? null : JsonApi.decodeToken(token);
    String prefix = ex.param("prefix");
    String delimiter = ex.param("delimiter");
    GcsStore.Page page = store.list(bucket, prefix, delimiter, after, max, ex.param("start-after"), null, null);
    StringBuilder sb = new StringBuilder("<?xml version='1.0' encoding='UTF-8'?>");
    sb.append("<ListBucketResult xmlns=\"http://doc.s3.amazonaws.com/2006-03-01\">");
    sb.append("<Name>").append(esc(bucket)).append("</Name>");
    sb.append("<Prefix>").append(esc(prefix == null ? "" : prefix)).append("</Prefix>");
    sb.append("<KeyCount>").append(page.items().size() + page.prefixes().size()).append("</KeyCount>");
    sb.append("<MaxKeys>").append(max).append("</MaxKeys>");
    if (delimiter != null) {
      sb.append("<Delimiter>").append(esc(delimiter)).append("</Delimiter>");
    }
    sb.append("<IsTruncated>").append(page.more()).append("</IsTruncated>");
    for (GcsStore.Blob b : page.items()) {
      sb.append("<Contents><Key>").append(esc(b.name())).append("</Key>")
          .append("<Generation>").append(b.generation()).append("</Generation>")
          .append("<MetaGeneration>").append(b.metageneration()).append("</MetaGeneration>")
          .append("<LastModified>").append(ISO_MILLIS.format(b.updated())).append("</LastModified>")
          .append("<ETag>\"").append(b.md5Hex()).append("\"</ETag>")
          .append("<Size>").append(b.data().length).append("</Size></Contents>");
    }
    for (String p : page.prefixes()) {
      sb.append("<CommonPrefixes><Prefix>").append(esc(p)).append("</Prefix></CommonPrefixes>");
    }
    if (page.more()) {
      sb.append("<NextContinuationToken>").append(JsonApi.encodeToken(page.lastKey()))
          .append("</NextContinuationToken>");
    }
    sb.append("</ListBucketResult>");
    ex.replyText(200, XML_TYPE, sb.toString());
  }

  /** Renders an error as the XML API does; HEAD and 304 answers carry no body. */
  static String errorBody(GcsError e) {
    return "<?xml version='1.0' encoding='UTF-8'?><Error><Code>" + e.xmlCode + "</Code><Message>"
        + esc(e.getMessage()) + "</Message></Error>";
  }

  private static void writeHeaders(Exchange ex, GcsStore.Blob b) {
    ex.setHeader("ETag", "\"" + b.md5Hex() + "\"");
    ex.setHeader("x-goog-generation", Long.toString(b.generation()));
    ex.setHeader("x-goog-metageneration", Long.toString(b.metageneration()));
    ex.setHeader("x-goog-hash", "crc32c=" + b.crc32cBase64() + ",md5=" + b.md5Base64());
    ex.setHeader("x-goog-stored-content-length", Integer.toString(b.data().length));
    ex.setHeader("Last-Modified", Exchange.rfc1123(b.updated()));
  }

  private static Preconditions preconditions(Exchange ex) {
    return new Preconditions(ex.longHeader("x-goog-if-generation-match"), null,
        ex.longHeader("x-goog-if-metageneration-match"), null);
  }

  private static Map<String, String> userMetadata(Exchange ex) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> h : ex.http.getRequestHeaders().entrySet()) {
      String k = h.getKey().toLowerCase(Locale.ROOT);
      if (k.startsWith("x-goog-meta-") && !h.getValue().isEmpty()) {
        m.put(k.substring("x-goog-meta-".length()), h.getValue().get(0));
      }
    }
    return m;
  }

  private static boolean etagMatches(String header, String etag) {
    for (String candidate : header.split(",")) {
      String c = candidate.trim();
      if (c.startsWith("W/")) {
        c = c.substring(2);
      }
      if (c.equals("*") || c.equals(etag) || ("\"" + c + "\"").equals(etag)) {
        return true;
      }
    }
    return false;
  }

  private static Instant parseDate(String h) {
    try {
      return java.time.ZonedDateTime.parse(h.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      throw GcsError.badRequest("malformed date header: " + h);
    }
  }

  private static Document parseXml(byte[] body) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return f.newDocumentBuilder().parse(new ByteArrayInputStream(body));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw GcsError.badRequest("malformed XML body: " + e.getMessage());
    }
  }

  private static String text(Element parent, String tag) {
    NodeList l = parent.getElementsByTagName(tag);
    if (l.getLength() == 0) {
      throw GcsError.badRequest("missing <" + tag + ">");
    }
    return l.item(0).getTextContent().trim();
  }

  private static String md5Hex(byte[] data) {
    return new GcsStore.Blob("", "", data, 0, 0, null, Map.of(), Instant.EPOCH, Instant.EPOCH).md5Hex();
  }

  static String esc(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '&' -> sb.append("&amp;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&apos;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
