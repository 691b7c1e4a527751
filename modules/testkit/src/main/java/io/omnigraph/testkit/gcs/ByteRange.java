package io.omnigraph.testkit.gcs;

/** A satisfiable byte range of an object, {@code [start, end]} inclusive. */
record ByteRange(long start, long end) {

  /**
   * Parses a {@code Range} header ({@code bytes=a-b}, {@code bytes=a-}, {@code bytes=-n}).
   *
   * @return the range, or {@code null} when there is no header or it covers the whole object
   *     in a way that makes a plain 200 the right answer (empty object)
   * @throws GcsError 416 when the range starts at or beyond the end of a non-empty object
   */
  static ByteRange parse(String header, long size) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String h = header.trim();
    if (!h.startsWith("bytes=") || h.contains(",")) {
      throw GcsError.badRequest("unsupported Range header: " + header);
    }
    String spec = h.substring("bytes=".length());
    int dash = spec.indexOf('-');
    if (dash < 0) {
      throw GcsError.badRequest("malformed Range header: " + header);
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    long start;
    long end;
    try {
      if (a.isEmpty()) {
        long suffix = Long.parseLong(b);
        start = Math.max(0, size - suffix);
        end = size - 1;
      } else {
        start = Long.parseLong(a);
        end = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
      }
    } catch (NumberFormatException e) {
      throw GcsError.badRequest("malformed Range header: " + header);
    }
    if (size == 0) {
      return null;
    }
    if (start >= size || end < start) {
      throw new GcsError(416, "requestedRangeNotSatisfiable", "InvalidRange",
          "The requested range cannot be satisfied: " + header + " of " + size + " bytes");
    }
    return new ByteRange(start, end);
  }

  long length() {
    return end - start + 1;
  }

  String contentRange(long size) {
    return "bytes " + start + "-" + end + "/" + size;
  }
}
