package io.omnigraph.adapter.azure;

import io.omnigraph.api.storage.StorageException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The adapter's options, parsed and cross-checked against the root. Every key is documented in the
 * docs/storage-adapters.md ("Azure Blob"). Unknown keys, malformed values and contradictions
 * fail with {@code CONFIGURATION} so a typo never falls back to a default silently.
 *
 * @param account the storage account name
 * @param endpoint the account's blob endpoint, e.g. {@code https://acct.blob.core.windows.net} or
 *     {@code http://127.0.0.1:10000/devstoreaccount1} (Azurite: path-style, account in the path)
 * @param credential how requests are authorized
 * @param listPageSize the page size of listing requests (1-5000)
 * @param maxRetries retries after the first try (the SDK's retry policy; default 3, i.e. 4 tries)
 * @param retryDelayMillis base delay of the SDK's exponential back-off
 * @param tryTimeoutSeconds the SDK's timeout of one try
 */
record AzureOptions(String account, URI endpoint, Credential credential, int listPageSize,
                    int maxRetries, long retryDelayMillis, int tryTimeoutSeconds) {

  static final String ACCOUNT = "account";
  static final String ENDPOINT = "endpoint";
  static final String ALLOW_HTTP = "allow-http";
  static final String CONNECTION_STRING = "connection-string";
  static final String ACCOUNT_KEY = "account-key";
  static final String SAS_TOKEN = "sas-token";
  static final String LIST_PAGE_SIZE = "list-page-size";
  static final String MAX_RETRIES = "max-retries";
  static final String RETRY_DELAY_MS = "retry-delay-ms";
  static final String TRY_TIMEOUT_SECONDS = "try-timeout-seconds";

  static final Set<String> KEYS = Set.of(ACCOUNT, ENDPOINT, ALLOW_HTTP, CONNECTION_STRING, ACCOUNT_KEY,
      SAS_TOKEN, LIST_PAGE_SIZE, MAX_RETRIES, RETRY_DELAY_MS, TRY_TIMEOUT_SECONDS);

  /** Azurite's and the legacy emulator's fixed development account (public, not a secret). */
  static final String DEV_ACCOUNT = "devstoreaccount1";
  static final String DEV_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /** How requests are authorized: a closed set. */
  sealed interface Credential {
    /** Shared key of the account. */
    record SharedKey(String key) implements Credential {
      @Override
      public String toString() {
        return "SharedKey[***]";
      }
    }

    /** A SAS token (query string without the leading {@code ?}). */
    record Sas(String token) implements Credential {
      @Override
      public String toString() {
        return "Sas[***]";
      }
    }

    /** The SDK's default credential chain (azure-identity {@code DefaultAzureCredential}). */
    record DefaultChain() implements Credential {}
  }

  static AzureOptions parse(AzureRoot root, Map<String, String> options) throws StorageException {
    Set<String> unknown = new TreeSet<>(options.keySet());
    unknown.removeAll(KEYS);
    if (!unknown.isEmpty()) {
      throw config("unknown option(s) " + unknown + "; known: " + new TreeSet<>(KEYS));
    }
    Map<String, String> cs = Map.of();
    if (options.containsKey(CONNECTION_STRING)) {
      if (options.containsKey(ACCOUNT_KEY) || options.containsKey(SAS_TOKEN)) {
        throw config(CONNECTION_STRING + " already carries the credential; do not combine it with "
            + ACCOUNT_KEY + " or " + SAS_TOKEN);
      }
      cs = parseConnectionString(options.get(CONNECTION_STRING));
    }
    if (options.containsKey(ACCOUNT_KEY) && options.containsKey(SAS_TOKEN)) {
      throw config("give either " + ACCOUNT_KEY + " or " + SAS_TOKEN + ", not both");
    }

    String account = agree("account",
        root.account(), "the root URI",
        options.get(ACCOUNT), "option " + ACCOUNT,
        cs.get("AccountName"), "the connection string");
    if (account == null) {
      throw config("no storage account: give option " + ACCOUNT + ", a " + CONNECTION_STRING
          + ", or an abfss://container@account.dfs.core.windows.net root");
    }

    String endpointText = options.get(ENDPOINT);
    if (endpointText == null) {
      endpointText = cs.get("BlobEndpoint");
    }
    if (endpointText == null && !cs.isEmpty()) {
      String protocol = cs.getOrDefault("DefaultEndpointsProtocol", "https");
      String suffix = cs.getOrDefault("EndpointSuffix", "core.windows.net");
      endpointText = protocol + "://" + account + ".blob." + suffix;
    }
    if (endpointText == null) {
      endpointText = "https://" + account + ".blob.core.windows.net";
    }
    URI endpoint = endpoint(endpointText);
    boolean allowHttp = bool(options, ALLOW_HTTP, false);
    if (endpoint.getScheme().equals("http") && !allowHttp) {
      throw config("endpoint " + endpoint + " is plain HTTP; set " + ALLOW_HTTP + "=true to allow it (emulators only)");
    }

    Credential credential;
    String key = options.containsKey(ACCOUNT_KEY) ? options.get(ACCOUNT_KEY) : cs.get("AccountKey");
    String sas = options.containsKey(SAS_TOKEN) ? options.get(SAS_TOKEN) : cs.get("SharedAccessSignature");
    if (key != null && sas != null) {
      throw config("the connection string carries both AccountKey and SharedAccessSignature");
    }
    if (key != null) {
      try {
        if (key.isBlank() || Base64.getDecoder().decode(key.trim()).length == 0) {
          throw config("account key is empty");
        }
      } catch (IllegalArgumentException e) {
        throw config("account key is not valid base64");
      }
      credential = new Credential.SharedKey(key.trim());
    } else if (sas != null) {
      String token = sas.trim().startsWith("?") ? sas.trim().substring(1) : sas.trim();
      if (token.isEmpty()) {
        throw config("SAS token is empty");
      }
      credential = new Credential.Sas(token);
    } else {
      if (endpoint.getScheme().equals("http")) {
        throw config("the default credential chain (no " + ACCOUNT_KEY + ", " + SAS_TOKEN + " or " + CONNECTION_STRING
            + ") sends bearer tokens, which the Azure SDK refuses over plain HTTP; give a key or SAS for " + endpoint);
      }
      credential = new Credential.DefaultChain();
    }

    int pageSize = integer(options, LIST_PAGE_SIZE, 5000, 1, 5000);
    int maxRetries = integer(options, MAX_RETRIES, 3, 0, 20);
    long retryDelay = integer(options, RETRY_DELAY_MS, 800, 1, 60_000);
    int tryTimeout = integer(options, TRY_TIMEOUT_SECONDS, 60, 1, 3600);
    return new AzureOptions(account, endpoint, credential, pageSize, maxRetries, retryDelay, tryTimeout);
  }

  /** Parses {@code Key=Value;Key=Value}; values may contain {@code =} (base64 keys, SAS tokens). */
  static Map<String, String> parseConnectionString(String text) throws StorageException {
    if (text == null || text.isBlank()) {
      throw config(CONNECTION_STRING + " is empty");
    }
    Map<String, String> out = new HashMap<>();
    for (String part : text.split(";")) {
      if (part.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw config(CONNECTION_STRING + ": '" + part.split("=", 2)[0] + "' is not a Key=Value pair");
      }
      out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
    }
    if ("true".equalsIgnoreCase(out.get("UseDevelopmentStorage"))) {
      // The emulator's documented defaults; DevelopmentStorageProxyUri is not supported.
      out.putIfAbsent("AccountName", DEV_ACCOUNT);
      out.putIfAbsent("AccountKey", DEV_KEY);
      out.putIfAbsent("BlobEndpoint", "http://127.0.0.1:10000/" + DEV_ACCOUNT);
    }
    return out;
  }

  private static String agree(String what, String a, String aFrom, String b, String bFrom, String c, String cFrom)
      throws StorageException {
    String value = null;
    String from = null;
    String[][] all = {{a, aFrom}, {b, bFrom}, {c, cFrom}};
    for (String[] v : all) {
      if (v[0] == null) {
        continue;
      }
      if (value != null && !value.equals(v[0])) {
        throw config(what + " '" + value + "' from " + from + " contradicts '" + v[0] + "' from " + v[1]);
      }
      value = v[0];
      from = v[1];
    }
    return value;
  }

  private static URI endpoint(String text) throws StorageException {
    URI u;
    try {
      u = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    } catch (URISyntaxException e) {
      throw config("malformed endpoint '" + text + "': " + e.getMessage());
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw config("endpoint '" + text + "' must be an http(s) URL");
    }
    if (u.getHost() == null || u.getRawQuery() != null || u.getRawFragment() != null) {
      throw config("endpoint '" + text + "' must be scheme://host[:port][/account], without query or fragment");
    }
    return u;
  }

  private static boolean bool(Map<String, String> options, String key, boolean dflt) throws StorageException {
    String v = options.get(key);
    if (v == null) {
      return dflt;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw config("option " + key + " must be true or false, not '" + v + "'");
    };
  }

  private static int integer(Map<String, String> options, String key, int dflt, int min, int max)
      throws StorageException {
    String v = options.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < min || n > max) {
        throw config("option " + key + " must be between " + min + " and " + max + ", not " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw config("option " + key + " must be an integer, not '" + v + "'");
    }
  }

  static StorageException config(String message) {
    return new StorageException(StorageException.Kind.CONFIGURATION, null, message);
  }
}
