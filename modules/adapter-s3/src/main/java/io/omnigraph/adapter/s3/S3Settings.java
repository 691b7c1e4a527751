package io.omnigraph.adapter.s3;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The S3 adapter's options, parsed and checked. Every key is documented in
 * docs/storage-adapters.md ("S3"); an unknown key or a bad value is a {@code CONFIGURATION} error,
 * so a typo never silently falls back to a default.
 *
 * @param endpoint endpoint override ({@code http(s)://host[:port]}), or empty for AWS
 * @param region the signing region, or empty for the SDK's default region chain
 * @param pathStyle path-style addressing ({@code endpoint/bucket/key}) instead of virtual hosts
 * @param allowHttp whether a plain-HTTP endpoint is accepted
 * @param accessKeyId static access key id, or empty for the SDK's default credentials chain
 * @param secretAccessKey static secret key (with {@code accessKeyId})
 * @param sessionToken optional session token (with static keys)
 * @param listPageSize max-keys per listing request (1-1000)
 * @param maxAttempts attempts per request, including the first (SDK standard retries)
 * @param checkBucket whether {@code open} verifies the bucket with one HeadBucket request
 * @param requestChecksums whether the SDK sends request checksums always ({@code when_supported},
 *     the SDK default) or only where S3 requires them ({@code when_required})
 */
record S3Settings(Optional<URI> endpoint, Optional<String> region, boolean pathStyle, boolean allowHttp,
    Optional<String> accessKeyId, Optional<String> secretAccessKey, Optional<String> sessionToken,
    int listPageSize, int maxAttempts, boolean checkBucket, String requestChecksums) {

  static final String ENDPOINT = "endpoint";
  static final String REGION = "region";
  static final String PATH_STYLE = "path-style";
  static final String ALLOW_HTTP = "allow-http";
  static final String ACCESS_KEY_ID = "access-key-id";
  static final String SECRET_ACCESS_KEY = "secret-access-key";
  static final String SESSION_TOKEN = "session-token";
  static final String LIST_PAGE_SIZE = "list-page-size";
  static final String MAX_ATTEMPTS = "max-attempts";
  static final String CHECK_BUCKET = "check-bucket";
  static final String REQUEST_CHECKSUMS = "request-checksums";

  static final Set<String> KEYS = Set.of(ENDPOINT, REGION, PATH_STYLE, ALLOW_HTTP, ACCESS_KEY_ID, SECRET_ACCESS_KEY,
      SESSION_TOKEN, LIST_PAGE_SIZE, MAX_ATTEMPTS, CHECK_BUCKET, REQUEST_CHECKSUMS);

  static S3Settings parse(Map<String, String> options) throws StorageException {
    Set<String> unknown = new TreeSet<>(options.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw config("unknown S3 option(s) " + unknown + "; known: " + new TreeSet<>(KEYS));
    }
    boolean allowHttp = bool(options, ALLOW_HTTP, false);
    Optional<String> endpointText = text(options, ENDPOINT);
    Optional<URI> endpoint = Optional.empty();
    if (endpointText.isPresent()) {
      URI e;
      try {
        e = new URI(endpointText.get());
      } catch (URISyntaxException bad) {
        throw config("option endpoint is not a URI: " + bad.getMessage());
      }
      endpoint = Optional.of(e);
      String scheme = e.getScheme() == null ? "" : e.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw config("option endpoint must be an http:// or https:// URI: " + e);
      }
      if (e.getHost() == null) {
        throw config("option endpoint has no host: " + e);
      }
      if (scheme.equals("http") && !allowHttp) {
        throw config("option endpoint is plain HTTP (" + e + "); set allow-http=true to accept that (local emulators)");
      }
    }
    Optional<String> key = text(options, ACCESS_KEY_ID);
    Optional<String> secret = text(options, SECRET_ACCESS_KEY);
    Optional<String> token = text(options, SESSION_TOKEN);
    if (key.isPresent() != secret.isPresent()) {
      throw config("options access-key-id and secret-access-key must be given together");
    }
    if (token.isPresent() && key.isEmpty()) {
      throw config("option session-token needs access-key-id and secret-access-key");
    }
    String checksums = text(options, REQUEST_CHECKSUMS).orElse("when_supported").toLowerCase(Locale.ROOT);
    if (!checksums.equals("when_supported") && !checksums.equals("when_required")) {
      throw config("option request-checksums must be when_supported or when_required: " + checksums);
    }
    return new S3Settings(endpoint, text(options, REGION), bool(options, PATH_STYLE, false), allowHttp, key, secret, token,
        integer(options, LIST_PAGE_SIZE, 1000, 1, 1000), integer(options, MAX_ATTEMPTS, 3, 1, 20),
        bool(options, CHECK_BUCKET, true), checksums);
  }

  private static Optional<String> text(Map<String, String> options, String key) throws StorageException {
    String v = options.get(key);
    if (v == null) {
      return Optional.empty();
    }
    if (v.isBlank()) {
      throw config("option " + key + " is empty");
    }
    return Optional.of(v.trim());
  }

  private static boolean bool(Map<String, String> options, String key, boolean dflt) throws StorageException {
    Optional<String> v = text(options, key);
    if (v.isEmpty()) {
      return dflt;
    }
    return switch (v.get().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw config("option " + key + " must be true or false: " + v.get());
    };
  }

  private static int integer(Map<String, String> options, String key, int dflt, int min, int max)
      throws StorageException {
    Optional<String> v = text(options, key);
    if (v.isEmpty()) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v.get());
      if (n < min || n > max) {
        throw config("option " + key + " must be between " + min + " and " + max + ": " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw config("option " + key + " must be an integer: " + v.get());
    }
  }

  private static StorageException config(String message) {
    return new StorageException(Kind.CONFIGURATION, null, message);
  }
}
