package io.omnigraph.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer tokens by actor. Only SHA-256 digests are kept in memory; a presented token is hashed and
 * compared with every digest in constant time (no early exit), so neither the token nor which actor
 * matched leaks through timing. A token file is a JSON object {@code {"<actor>": "<token>"}}; a value
 * may also be given already hashed as {@code "sha256:<64 hex digits>"} so the file need not hold the
 * token itself (docs/server.md, "Authentication").
 */
public final class Tokens {
  /** Path of a token file. */
  public static final String FILE_ENV = "OMNIGRAPH_SERVER_BEARER_TOKENS_FILE";
  /** A token object inline, same format as the file. */
  public static final String JSON_ENV = "OMNIGRAPH_SERVER_BEARER_TOKENS_JSON";
  /** One token for the actor {@code default}. */
  public static final String SINGLE_ENV = "OMNIGRAPH_SERVER_BEARER_TOKEN";

  private record Entry(String actor, byte[] digest) {}

  private final List<Entry> entries;

  private Tokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** @return a token set with no tokens */
  public static Tokens none() {
    return new Tokens(List.of());
  }

  /**
   * @param byActor plain tokens (or {@code sha256:<hex>} digests) by actor id
   * @return the token set
   * @throws InvalidInputException an empty actor or token, or a malformed digest
   */
  public static Tokens of(Map<String, String> byActor) {
    List<Entry> entries = new ArrayList<>();
    byActor.forEach((actor, token) -> entries.add(entry(actor, token)));
    return new Tokens(entries);
  }

  /**
   * Reads a token file ({@code {"<actor>": "<token>"}}).
   *
   * @throws InvalidInputException the file is missing, not a JSON object of strings, or empty
   */
  public static Tokens fromFile(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInputException("cannot read token file " + file + ": " + e.getMessage(),
          new ErrorDetail.Validation(null, null, "tokens_file", "tokens_file"), e);
    }
    return fromJson(text, "token file " + file);
  }

  /**
   * Parses a token object ({@code {"<actor>": "<token>"}}).
   *
   * @param what names the source in error messages
   */
  public static Tokens fromJson(String json, String what) {
    JsonNode root;
    try {
      root = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw invalid(what + " is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw invalid(what + " must be a JSON object {\"<actor>\": \"<token>\"}");
    }
    List<Entry> entries = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (!f.getValue().isTextual()) {
        throw invalid(what + ": the token of actor '" + f.getKey() + "' must be a string");
      }
      entries.add(entry(f.getKey(), f.getValue().textValue()));
    }
    return new Tokens(entries);
  }

  /**
   * The tokens from the environment, first source wins: {@value #FILE_ENV}, {@value #JSON_ENV},
   * {@value #SINGLE_ENV} (actor {@code default}).
   *
   * @return the tokens, or empty when none of the variables is set
   */
  public static Optional<Tokens> fromEnvironment(Map<String, String> env) {
    if (present(env.get(FILE_ENV))) {
      return Optional.of(fromFile(Path.of(env.get(FILE_ENV))));
    }
    if (present(env.get(JSON_ENV))) {
      return Optional.of(fromJson(env.get(JSON_ENV), JSON_ENV));
    }
    if (present(env.get(SINGLE_ENV))) {
      return Optional.of(of(Map.of("default", env.get(SINGLE_ENV))));
    }
    return Optional.empty();
  }

  private static boolean present(String v) {
    return v != null && !v.isBlank();
  }

  /** @return how many actors have a token */
  public int size() {
    return entries.size();
  }

  /** @return true when there are no tokens */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /**
   * @param presented the bearer token from a request
   * @return the actor whose token it is
   */
  public Optional<String> actorFor(String presented) {
    byte[] digest = sha256(presented);
    String found = null;
    for (Entry e : entries) {
      // Every entry is compared, match or not: the time does not depend on which actor matched.
      if (MessageDigest.isEqual(e.digest, digest) && found == null) {
        found = e.actor;
      }
    }
    return Optional.ofNullable(found);
  }

  private static Entry entry(String actor, String token) {
    if (actor == null || actor.isBlank()) {
      throw invalid("a token's actor id must not be empty");
    }
    if (token == null || token.isEmpty()) {
      throw invalid("the token of actor '" + actor + "' must not be empty");
    }
    if (token.startsWith("sha256:")) {
      String hex = token.substring("sha256:".length());
      if (!hex.matches("[0-9a-fA-F]{64}")) {
        throw invalid("the token digest of actor '" + actor + "' must be sha256:<64 hex digits>");
      }
      return new Entry(actor, HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT)));
    }
    return new Entry(actor, sha256(token));
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  private static InvalidInputException invalid(String message) {
    return new InvalidInputException(message, new ErrorDetail.Validation(null, null, "tokens", "tokens"));
  }
}
