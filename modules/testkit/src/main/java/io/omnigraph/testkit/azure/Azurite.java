package io.omnigraph.testkit.azure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A running Azurite blob service: a child {@code azurite-blob} process (Node.js) listening on
 * {@code 127.0.0.1} with an OS-assigned port. Start it with {@link #start()}, stop it with
 * {@link #close()}; or let {@link AzuriteExtension} do both.
 *
 * <p>The port is not chosen by us: Azurite is started with {@code --blobPort 0} and the real port
 * is parsed from its {@code "successfully listens on http://127.0.0.1:<port>"} line, so two test
 * JVMs never race for a port. Its output is drained on a daemon thread for the process's whole
 * life (a full pipe would block the child); the last lines are kept for error messages. A JVM
 * shutdown hook kills the child forcibly if the JVM exits without {@link #close()}.
 *
 * <p>Storage is in memory by default ({@code --inMemoryPersistence}), or in a data folder given to
 * {@link #start(Path)}. The account is Azurite's well-known development account
 * ({@value #ACCOUNT_NAME}, public key {@link #ACCOUNT_KEY}).
 *
 * <p>This class does not use the Azure SDK ({@link #createContainer} speaks HTTP with a Shared Key
 * signature itself), so it also works where the SDK is not on the class path, e.g. in a TCK run
 * that loads the SDK as named modules in a separate layer. {@link AzuriteClients} gives SDK
 * clients for tests that want them.
 */
public final class Azurite implements AutoCloseable {
  /** The development storage account every Azurite serves. */
  public static final String ACCOUNT_NAME = "devstoreaccount1";
  /** The development account's key; published by Microsoft, not a secret. */
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Pattern LISTENING = Pattern.compile("listens on (http://127\\.0\\.0\\.1:(\\d+))");
  private static final long START_TIMEOUT_SECONDS = 90;
  private static final int KEPT_OUTPUT_LINES = 50;
  private static final AtomicLong CONTAINERS = new AtomicLong();

  private final Process process;
  private final URI endpoint;
  private final Deque<String> recentOutput;
  private final Thread shutdownHook;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();
  private boolean closed;

  private Azurite(Process process, URI endpoint, Deque<String> recentOutput, Thread shutdownHook) {
    this.process = process;
    this.endpoint = endpoint;
    this.recentOutput = recentOutput;
    this.shutdownHook = shutdownHook;
  }

  /** Starts an in-memory Azurite. */
  public static Azurite start() {
    return start(null);
  }

  /**
   * Starts Azurite.
   *
   * @param dataFolder where Azurite keeps its database and blobs, or {@code null} for in-memory
   * @throws IllegalStateException when the binary is missing, the process exits early, or it is not
   *     listening within 90 s; the message carries Azurite's last output lines
   */
  public static Azurite start(Path dataFolder) {
    Path bin = AzuriteBinary.locate();
    List<String> cmd = new ArrayList<>(List.of(bin.toString(),
        "--blobHost", "127.0.0.1", "--blobPort", "0",
        // the Java SDK's x-ms-version is often newer than the emulator release
        "--skipApiVersionCheck", "--disableTelemetry", "--silent"));
    if (dataFolder == null) {
      cmd.add("--inMemoryPersistence");
    } else {
      cmd.add("--location");
      cmd.add(dataFolder.toAbsolutePath().toString());
    }
    Process process;
    try {
      process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + bin, e);
    }
    Thread hook = new Thread(process::destroyForcibly, "azurite-kill-" + process.pid());
    Runtime.getRuntime().addShutdownHook(hook);
    Deque<String> recent = new ArrayDeque<>();
    CompletableFuture<URI> listening = new CompletableFuture<>();
    Thread drain = new Thread(() -> drain(process, recent, listening), "azurite-output-" + process.pid());
    drain.setDaemon(true);
    drain.start();
    try {
      URI endpoint = listening.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return new Azurite(process, endpoint, recent, hook);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(process, hook);
      throw new IllegalStateException("interrupted while waiting for Azurite to listen", e);
    } catch (ExecutionException | TimeoutException e) {
      kill(process, hook);
      throw new IllegalStateException("Azurite (" + bin + ") did not start listening: "
          + (e.getCause() != null ? e.getCause().getMessage() : "timeout after " + START_TIMEOUT_SECONDS + " s")
          + "; last output: " + snapshot(recent), e);
    }
  }

  private static void drain(Process process, Deque<String> recent, CompletableFuture<URI> listening) {
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        synchronized (recent) {
          recent.addLast(line);
          if (recent.size() > KEPT_OUTPUT_LINES) {
            recent.removeFirst();
          }
        }
        if (!listening.isDone()) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            listening.complete(URI.create(m.group(1)));
          }
        }
      }
      listening.completeExceptionally(new IllegalStateException("process ended (output closed)"));
    } catch (IOException e) {
      // The stream closes when the process is killed; before start-up that is a failure to report.
      listening.completeExceptionally(e);
    }
  }

  private static void kill(Process process, Thread hook) {
    process.destroyForcibly();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is already exiting and the hook is about to run anyway
    }
  }

  private static String snapshot(Deque<String> recent) {
    synchronized (recent) {
      return String.join(" | ", recent);
    }
  }

  /** @return the service root, {@code http://127.0.0.1:<port>} (no account segment) */
  public URI endpoint() {
    return endpoint;
  }

  /** @return the port Azurite listens on */
  public int port() {
    return endpoint.getPort();
  }

  /** @return the account's blob endpoint, {@code http://127.0.0.1:<port>/devstoreaccount1} */
  public String blobEndpoint() {
    return endpoint + "/" + ACCOUNT_NAME;
  }

  /** @return a connection string for the development account at this instance */
  public String connectionString() {
    return connectionString(blobEndpoint());
  }

  /**
   * @param blobEndpoint the endpoint to put in the string, e.g. a {@code FaultProxy} in front of
   *     this instance
   * @return a connection string for the development account at {@code blobEndpoint}
   */
  public static String connectionString(String blobEndpoint) {
    return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT_NAME + ";AccountKey=" + ACCOUNT_KEY
        + ";BlobEndpoint=" + blobEndpoint + ";";
  }

  /**
   * Creates a new, empty container with a unique name.
   *
   * @param hint a readable part of the name (lower-case letters, digits and dashes are kept)
   * @return the container's name
   * @throws IllegalStateException when Azurite refuses (the message carries its answer)
   */
  public String createContainer(String hint) {
    String clean = hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-");
    String suffix = "-" + CONTAINERS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
    String base = clean.length() > 63 - suffix.length() - 1 ? clean.substring(0, 63 - suffix.length() - 1) : clean;
    String name = ("c" + base + suffix).replaceAll("-+", "-");
    createContainerNamed(name);
    return name;
  }

  /**
   * Creates the container {@code name} (Create Container, Shared Key authorization).
   *
   * @throws IllegalStateException when Azurite does not answer 201 (e.g. 409: it exists)
   */
  public void createContainerNamed(String name) {
    send("PUT", "/" + name, "?restype=container", "\nrestype:container", Map.of(), new byte[0]);
  }

  /**
   * Writes a block blob directly (Put Blob, Shared Key authorization), bypassing any adapter: for
   * tests that plant objects an adapter would never write itself, such as temp-named residue.
   *
   * @param container an existing container
   * @param name the blob name, unencoded ({@code /} separates segments)
   * @throws IllegalStateException when Azurite does not answer 201
   */
  public void putBlob(String container, String name, byte[] bytes) {
    StringBuilder path = new StringBuilder("/").append(container);
    for (String segment : name.split("/", -1)) {
      path.append('/').append(encodeSegment(segment));
    }
    send("PUT", path.toString(), "", "", Map.of("x-ms-blob-type", "BlockBlob"), bytes);
  }

  private void send(String verb, String path, String query, String canonicalQuery, Map<String, String> msHeaders,
                    byte[] body) {
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    TreeMap<String, String> headers = new TreeMap<>(msHeaders);
    headers.put("x-ms-date", date);
    headers.put("x-ms-version", "2021-08-06");
    String fullPath = "/" + ACCOUNT_NAME + path;
    // Shared Key string-to-sign: verb, the eleven standard headers (only Content-Length is set,
    // and it is empty when 0), the canonical x-ms-* headers sorted by name, then the resource
    // (path-style: the account, then the URI path as sent) and the canonical query.
    StringBuilder toSign = new StringBuilder(verb).append("\n\n\n")
        .append(body.length == 0 ? "" : Integer.toString(body.length)).append("\n\n\n\n\n\n\n\n\n");
    headers.forEach((k, v) -> toSign.append(k).append(':').append(v).append('\n'));
    toSign.append('/').append(ACCOUNT_NAME).append(fullPath).append(canonicalQuery);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint + fullPath + query))
        .method(verb, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Authorization", "SharedKey " + ACCOUNT_NAME + ":" + sign(toSign.toString()))
        .timeout(Duration.ofSeconds(30));
    headers.forEach(request::header);
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(verb + " " + fullPath + " at " + endpoint + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during " + verb + " " + fullPath, e);
    }
    if (response.statusCode() != 201) {
      throw new IllegalStateException(verb + " " + fullPath + ": HTTP " + response.statusCode() + " " + response.body());
    }
  }

  /** Percent-encodes one path segment: everything but RFC 3986 unreserved characters. */
  private static String encodeSegment(String segment) {
    StringBuilder out = new StringBuilder();
    for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return out.toString();
  }

  private static String sign(String toSign) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(ACCOUNT_KEY), "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /** @return a new, empty container with a unique name */
  public String createContainer() {
    return createContainer("t");
  }

  /** @return whether the child process is still running */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** @return the child's process id (to end exactly this process, never one found by name) */
  public long pid() {
    return process.pid();
  }

  /** @return Azurite's most recent output lines, joined */
  public String recentOutput() {
    return snapshot(recentOutput);
  }

  /**
   * Stops Azurite: SIGTERM, up to 10 s for a clean exit, then SIGKILL. Idempotent.
   *
   * @throws IllegalStateException when the process survives even the forcible kill
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("Azurite pid " + process.pid() + " did not exit after SIGKILL");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting; the hook only kills an already-stopped process
      }
    }
  }

  @Override
  public String toString() {
    return "Azurite[" + endpoint + ", pid " + process.pid() + "]";
  }
}
