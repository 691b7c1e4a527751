package io.omnigraph.adapter.gcs;

import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validated options of a {@code gs://} root. Every key is documented in
 * docs/storage-adapters.md ("Google Cloud Storage"); an unknown key or a bad value is a {@code CONFIGURATION} error.
 *
 * @param endpoint the JSON/XML API base URL ({@code http(s)://host[:port]}), or {@code null} for Google's
 * @param projectId the project id, or {@code null} to let the client find one
 * @param credentials how requests are authenticated
 * @param listPageSize entries per listing request, 1..1000
 * @param maxAttempts attempts per request including the first, at least 1
 */
record GcsOptions(URI endpoint, String projectId, Credentials credentials, int listPageSize, int maxAttempts) {

  static final String ENDPOINT = "endpoint";
  static final String PROJECT_ID = "project-id";
  static final String CREDENTIALS = "credentials";
  static final String LIST_PAGE_SIZE = "list-page-size";
  static final String MAX_ATTEMPTS = "max-attempts";
  static final Set<String> KEYS = Set.of(ENDPOINT, PROJECT_ID, CREDENTIALS, LIST_PAGE_SIZE, MAX_ATTEMPTS);

  static final int DEFAULT_LIST_PAGE_SIZE = 1000;
  static final int DEFAULT_MAX_ATTEMPTS = 6;

  /** How the adapter (and Lance) authenticate. A closed set. */
  sealed interface Credentials {
    /** Application Default Credentials (environment, gcloud, metadata server). */
    record Default() implements Credentials {}

    /** No {@code Authorization} header at all: for emulators and public buckets. */
    record NoAuth() implements Credentials {}

    /** A service-account (or other credentials) JSON file. */
    record JsonFile(Path file) implements Credentials {}

    /** The same JSON, given inline. Never printed. */
    record InlineJson(String json) implements Credentials {
      @Override
      public String toString() {
        return "InlineJson[<redacted>]";
      }
    }
  }

  static GcsOptions parse(Map<String, String> options) throws StorageException {
    Set<String> unknown = new TreeSet<>(options.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw config("unknown gs:// option(s) " + unknown + "; known options: " + new TreeSet<>(KEYS));
    }
    URI endpoint = null;
    String e = options.get(ENDPOINT);
    if (e != null) {
      endpoint = endpoint(e);
    }
    String project = options.get(PROJECT_ID);
    if (project != null && project.isBlank()) {
      throw config("option project-id is blank");
    }
    return new GcsOptions(endpoint, project, credentials(options.get(CREDENTIALS)),
        intOption(options, LIST_PAGE_SIZE, DEFAULT_LIST_PAGE_SIZE, 1, 1000),
        intOption(options, MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS, 1, 100));
  }

  private static URI endpoint(String value) throws StorageException {
    try {
      URI u = new URI(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
        throw config("option endpoint must be an http:// or https:// URL with a host, got '" + value + "'");
      }
      if (u.getRawQuery() != null || u.getRawFragment() != null || (u.getRawPath() != null && !u.getRawPath().isEmpty())) {
        throw config("option endpoint must not have a path, query or fragment: '" + value + "'");
      }
      return u;
    } catch (URISyntaxException ex) {
      throw config("option endpoint is not a URL: '" + value + "' (" + ex.getMessage() + ")");
    }
  }

  private static Credentials credentials(String value) throws StorageException {
    if (value == null || value.equals("default")) {
      return new Credentials.Default();
    }
    if (value.equals("no-auth")) {
      return new Credentials.NoAuth();
    }
    if (value.stripLeading().startsWith("{")) {
      return new Credentials.InlineJson(value);
    }
    Path file = Path.of(value);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw config("option credentials: '" + value + "' is not 'default', 'no-auth', inline JSON, or a readable file");
    }
    return new Credentials.JsonFile(file.toAbsolutePath());
  }

  private static int intOption(Map<String, String> options, String key, int def, int min, int max)
      throws StorageException {
    String v = options.get(key);
    if (v == null) {
      return def;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw config("option " + key + " must be between " + min + " and " + max + ", got " + v);
      }
      return n;
    } catch (NumberFormatException ex) {
      throw config("option " + key + " must be an integer, got '" + v + "'");
    }
  }

  static StorageException config(String message) {
    return new StorageException(StorageException.Kind.CONFIGURATION, null, message);
  }
}
