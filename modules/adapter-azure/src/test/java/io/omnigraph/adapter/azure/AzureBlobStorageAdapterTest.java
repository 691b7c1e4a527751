package io.omnigraph.adapter.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.sas.BlobContainerSasPermission;
import com.azure.storage.blob.sas.BlobServiceSasSignatureValues;
import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoragePaths;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteClients;
import io.omnigraph.testkit.azure.AzuriteExtension;
import java.net.ServerSocket;
import java.net.URI;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The adapter against Azurite with the real SDK client. */
class AzureBlobStorageAdapterTest {
  @RegisterExtension
  static final AzuriteExtension AZURITE = new AzuriteExtension();

  private final List<StorageAdapter> opened = new ArrayList<>();
  private String container;
  private StorageAdapter adapter;

  @BeforeEach
  void freshContainer() throws Exception {
    container = azurite().createContainer("adapter");
    adapter = open("az://" + container + "/root", Map.of());
  }

  @AfterEach
  void closeAll() throws Exception {
    for (StorageAdapter a : opened) {
      a.close();
    }
  }

  static Azurite azurite() {
    return AZURITE.azurite();
  }

  static Map<String, String> emulatorOptions() {
    return AzureAdapterOptions.forAzurite(azurite().blobEndpoint());
  }

  StorageAdapter open(String root, Map<String, String> extra) throws StorageException {
    Map<String, String> o = new HashMap<>(emulatorOptions());
    o.putAll(extra);
    o.values().removeIf(v -> v == null || v.isEmpty());
    StorageAdapter a = StorageAdapters.open(URI.create(root), o);
    opened.add(a);
    return a;
  }

  BlobContainerClient raw() {
    return AzuriteClients.serviceClient(azurite()).getBlobContainerClient(container);
  }

  static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  @Nested
  class ReadsAndWrites {
    @Test
    void readOfAMissingObjectIsEmpty() throws Exception {
      assertThat(adapter.readIfExists("nope.json")).isEmpty();
      assertThatThrownBy(() -> adapter.readText("nope.json"))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }

    @Test
    void putThenReadReturnsTheBytesAndTheSameVersionToken() throws Exception {
      String v = adapter.put("dir/a.json", b("{\"a\":1}"), WriteCondition.overwrite());
      Optional<StoredObject> read = adapter.readIfExists("dir/a.json");
      assertThat(read).isPresent();
      assertThat(read.get().text()).isEqualTo("{\"a\":1}");
      assertThat(read.get().version()).isEqualTo(v);
      assertThat(raw().getBlobClient("root/dir/a.json").exists()).as("stored under the root prefix").isTrue();
    }

    @Test
    void emptyObjectsRoundTrip() throws Exception {
      adapter.put("empty", new byte[0], WriteCondition.overwrite());
      assertThat(adapter.readIfExists("empty")).get().extracting(StoredObject::bytes).isEqualTo(new byte[0]);
    }

    @Test
    void ifAbsentCreatesOnceThenFailsWithPreconditionFailed() throws Exception {
      adapter.put("once", b("first"), WriteCondition.ifAbsent());
      // Azurite and real Azure answer If-None-Match: * on an existing blob with 409
      // BlobAlreadyExists, not 412; the adapter normalizes both to PRECONDITION_FAILED.
      assertThatThrownBy(() -> adapter.put("once", b("second"), WriteCondition.ifAbsent()))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
      assertThat(adapter.readText("once")).isEqualTo("first");
    }

    @Test
    void ifMatchWithTheCurrentTokenReplacesAndReturnsANewToken() throws Exception {
      String v1 = adapter.put("cas", b("1"), WriteCondition.overwrite());
      String v2 = adapter.put("cas", b("2"), WriteCondition.ifMatch(v1));
      assertThat(v2).isNotEqualTo(v1);
      assertThat(adapter.readText("cas")).isEqualTo("2");
    }

    @Test
    void ifMatchWithAStaleTokenFailsAndLeavesTheObject() throws Exception {
      String v1 = adapter.put("cas", b("1"), WriteCondition.overwrite());
      adapter.put("cas", b("2"), WriteCondition.ifMatch(v1));
      assertThatThrownBy(() -> adapter.put("cas", b("3"), WriteCondition.ifMatch(v1)))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
      assertThat(adapter.readText("cas")).isEqualTo("2");
    }

    @Test
    void ifMatchOnAnAbsentObjectFailsWithPreconditionFailed() {
      assertThatThrownBy(() -> adapter.put("absent", b("x"), WriteCondition.ifMatch("0x8D000000000000")))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    }

    @Test
    void versionTokenIsTheEtagSentBackExactlyAsReceived() throws Exception {
      String v = adapter.put("etag", b("x"), WriteCondition.overwrite());
      // Azurite's ETags are unquoted (0x8D...), real Azure's are quoted ("0x8D..."): the adapter
      // neither adds nor strips quotes, it returns the SDK's string and sends it back verbatim.
      assertThat(v).isEqualTo(raw().getBlobClient("root/etag").getProperties().getETag());
      assertThat(adapter.put("etag", b("y"), WriteCondition.ifMatch(v))).isNotBlank();
    }

    @Test
    void existsIsTrueOnlyForObjectsNotForDirectories() throws Exception {
      adapter.put("a/b", b("x"), WriteCondition.overwrite());
      assertThat(adapter.exists("a/b")).isTrue();
      assertThat(adapter.exists("a")).isFalse();
      assertThat(adapter.exists("zzz")).isFalse();
    }

    @Test
    void deleteRemovesAndDeletingAMissingObjectSucceeds() throws Exception {
      adapter.put("d", b("x"), WriteCondition.overwrite());
      adapter.delete("d");
      assertThat(adapter.exists("d")).isFalse();
      adapter.delete("d"); // Azure answers 404 BlobNotFound; delete is idempotent
      adapter.delete("never/there");
    }

    @Test
    void illegalPathsAreRefusedBeforeAnyRequest() {
      for (String p : List.of("", "/abs", "a//b", "a/../b", "x#12")) {
        assertThatThrownBy(() -> adapter.put(p, b("x"), WriteCondition.overwrite()))
            .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_PATH));
      }
    }

    @Test
    void namesWithSpacesPlusAndUnicodeRoundTrip() throws Exception {
      String p = "odd/with space+plus&é€😀.json";
      adapter.put(p, b("u"), WriteCondition.overwrite());
      assertThat(adapter.readText(p)).isEqualTo("u");
      assertThat(adapter.list("odd").toList()).containsExactly(p);
    }
  }

  @Nested
  class Listing {
    @Test
    void listsDirectChildObjectsOnlyInUtf8Order() throws Exception {
      for (String p : List.of("dir/b", "dir/a", "dir/sub/c", "dir/sub/d", "dir/e", "other/x", "dirx")) {
        adapter.put(p, b(p), WriteCondition.overwrite());
      }
      assertThat(adapter.list("dir").toList()).containsExactly("dir/a", "dir/b", "dir/e");
      assertThat(adapter.list("dir/").toList()).containsExactly("dir/a", "dir/b", "dir/e");
      assertThat(adapter.list("").toList()).containsExactly("dirx");
      assertThat(adapter.list("missing").toList()).isEmpty();
    }

    @Test
    void listingWalksEveryPageWithPrefixesCountingTowardThePageSize() throws Exception {
      StorageAdapter small = open("az://" + container + "/paged", Map.of("list-page-size", "2"));
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        String p = String.format("d/f%02d", i);
        small.put(p, b("x"), WriteCondition.overwrite());
        expected.add(p);
        small.put(String.format("d/s%02d/inner", i), b("x"), WriteCondition.overwrite());
      }
      assertThat(small.capabilities().listPageSize()).isEqualTo(2);
      assertThat(small.list("d").toList()).containsExactlyElementsOf(expected);
    }

    @Test
    void listingOrderIsUtf8ByteOrderAcrossPages() throws Exception {
      // U+E000 sorts before U+1F600 in UTF-8 but after it in UTF-16. Azurite lists in UTF-16
      // order; the adapter restores UTF-8 order while streaming page by page (page size 2 here).
      StorageAdapter small = open("az://" + container + "/order", Map.of("list-page-size", "2"));
      List<String> names = List.of("u/a\uE000", "u/a\uD83D\uDE00", "u/aZ", "u/a~", "u/a\uE000x", "u/a\uD83D\uDE00y",
          "u/b", "u/a\uFFFD", "u/\u4E2D", "u/a\uD83D\uDE00\uE000", "u/a\uD83D\uDE00\uD83D\uDE01", "u/c\uE000", "u/c\uD83D\uDE00", "u/d");
      for (String p : names) {
        small.put(p, b("x"), WriteCondition.overwrite());
      }
      List<String> sorted = new ArrayList<>(names);
      sorted.sort(StoragePaths.UTF8_ORDER);
      assertThat(small.list("u").toList()).containsExactlyElementsOf(sorted);
    }

    @Test
    void tempNamesWrittenByOthersAreNotListed() throws Exception {
      raw().getBlobClient("root/t/x.json#4711").upload(BinaryData.fromString("partial"));
      adapter.put("t/x.json", b("whole"), WriteCondition.overwrite());
      assertThat(adapter.list("t").toList()).containsExactly("t/x.json");
    }

    @Test
    void deletePrefixRemovesEverythingBelowAtAnyDepthAndNothingElse() throws Exception {
      for (String p : List.of("p/a", "p/q/b", "p/q/r/c", "pp/keep", "p2")) {
        adapter.put(p, b("x"), WriteCondition.overwrite());
      }
      adapter.deletePrefix("p");
      assertThat(adapter.exists("p/a")).isFalse();
      assertThat(adapter.exists("p/q/r/c")).isFalse();
      assertThat(adapter.exists("pp/keep")).isTrue();
      assertThat(adapter.exists("p2")).isTrue();
      adapter.deletePrefix("p"); // empty or missing: succeeds
    }
  }

  @Nested
  class ErrorMapping {
    @Test
    void missingContainerIsConfigurationAtOpen() {
      assertThatThrownBy(() -> open("az://no-such-container-" + System.nanoTime() + "/x", Map.of()))
          .isInstanceOfSatisfying(StorageException.class,
              e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
    }

    @Test
    void containerDeletedAfterOpenIsConfigurationOnEveryOperation() throws Exception {
      StorageAdapter a = open("az://" + container + "/x", Map.of());
      raw().delete();
      List<ThrowingCall> calls = List.of(
          () -> a.readIfExists("k"), () -> a.exists("k"), () -> a.put("k", b("x"), WriteCondition.overwrite()),
          () -> a.put("k", b("x"), WriteCondition.ifAbsent()), () -> a.delete("k"), () -> a.list("").toList(),
          () -> a.deletePrefix("d"));
      for (ThrowingCall c : calls) {
        assertThatThrownBy(c::call).isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
      }
    }

    @Test
    void unreachableEndpointIsConfiguration() throws Exception {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      assertThatThrownBy(() -> open("az://" + container, Map.of("endpoint", "http://127.0.0.1:" + port + "/devstoreaccount1",
          "max-retries", "0"))).isInstanceOfSatisfying(StorageException.class,
          e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
      assertThatThrownBy(() -> open("az://" + container, Map.of("endpoint", "http://no-such-host.invalid/devstoreaccount1",
          "max-retries", "0"))).isInstanceOfSatisfying(StorageException.class,
          e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
    }

    @Test
    void wrongAccountKeyIsPermission() throws Exception {
      String wrongKey = java.util.Base64.getEncoder().encodeToString(new byte[64]);
      // Azurite answers a bad signature with 403 AuthorizationFailure, which open() lets through
      // (it cannot tell it from a valid credential lacking container rights); real Azure answers
      // 403 AuthenticationFailed, refused at open (AzureFaultTest). Every operation is PERMISSION.
      StorageAdapter a = open("az://" + container, Map.of("account-key", wrongKey));
      for (ThrowingCall c : List.<ThrowingCall>of(() -> a.readIfExists("k"), () -> a.exists("k"),
          () -> a.put("k", b("x"), WriteCondition.overwrite()), () -> a.list("").toList(), () -> a.delete("k"))) {
        assertThatThrownBy(c::call).isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.PERMISSION));
      }
    }

    @Test
    void readOnlySasRefusesWritesWithPermission() throws Exception {
      adapter.put("ro", b("x"), WriteCondition.overwrite());
      String sas = raw().generateSas(new BlobServiceSasSignatureValues(OffsetDateTime.now().plusHours(1),
          new BlobContainerSasPermission().setReadPermission(true).setListPermission(true)));
      Map<String, String> o = new HashMap<>();
      o.put("account-key", "");
      o.put("sas-token", sas);
      StorageAdapter ro = open("az://" + container + "/root", o);
      assertThat(ro.readText("ro")).isEqualTo("x");
      assertThat(ro.list("").toList()).containsExactly("ro");
      assertThatThrownBy(() -> ro.put("ro", b("y"), WriteCondition.overwrite())).isInstanceOfSatisfying(StorageException.class,
          e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.PERMISSION));
      assertThatThrownBy(() -> ro.delete("ro")).isInstanceOfSatisfying(StorageException.class,
          e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.PERMISSION));
    }
  }

  @Nested
  class Configuration {
    @Test
    void connectionStringAloneIsEnough() throws Exception {
      StorageAdapter a = StorageAdapters.open(URI.create("az://" + container + "/cs"),
          Map.of("connection-string", azurite().connectionString(), "allow-http", "true"));
      opened.add(a);
      a.put("k", b("v"), WriteCondition.overwrite());
      assertThat(raw().getBlobClient("cs/k").downloadContent().toString()).isEqualTo("v");
    }

    @Test
    void developmentStorageConnectionStringWithAnEndpointOverrideReachesAzurite() throws Exception {
      StorageAdapter a = StorageAdapters.open(URI.create("az://" + container + "/dev"), Map.of(
          "connection-string", "UseDevelopmentStorage=true", "endpoint", azurite().blobEndpoint(), "allow-http", "true"));
      opened.add(a);
      a.put("k", b("v"), WriteCondition.overwrite());
      assertThat(raw().getBlobClient("dev/k").downloadContent().toString()).isEqualTo("v");
    }

    @Test
    void theDefaultCredentialChainIsRefusedOverPlainHttp() {
      // No key, SAS or connection string means bearer tokens, which must not travel over http.
      assertThatThrownBy(() -> StorageAdapters.open(URI.create("az://" + container), Map.of(
              "account", Azurite.ACCOUNT_NAME, "endpoint", azurite().blobEndpoint(), "allow-http", "true")))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION));
    }

    @Test
    void abfssRootNamesTheAccountInTheHost() throws Exception {
      StorageAdapter a = open("abfss://" + container + "@devstoreaccount1.dfs.core.windows.net/abfs", Map.of());
      a.put("k", b("v"), WriteCondition.overwrite());
      assertThat(raw().getBlobClient("abfs/k").downloadContent().toString()).isEqualTo("v");
    }

    @Test
    void misconfigurationsAreRefusedAtOpen() {
      List<Map<String, String>> bad = List.of(
          Map.of("acount", "typo"),
          Map.of("allow-http", "false"),
          Map.of("allow-http", "yes"),
          Map.of("list-page-size", "0"),
          Map.of("list-page-size", "many"),
          Map.of("sas-token", "sv=2020&sig=x"),
          Map.of("endpoint", "ftp://127.0.0.1/x"),
          Map.of("account-key", "not base64!"));
      for (Map<String, String> o : bad) {
        assertThatThrownBy(() -> open("az://" + container, o)).as(o.toString()).isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
      }
    }

    @Test
    void malformedRootsAreConfiguration() {
      for (String root : List.of("az://UPPER/x", "az://ab/x", "az://a--b/x", "az://c1/x?q=1", "az:opaque",
          "abfss://c1@acct.example.com/x", "az://c1/a//b", "az://c1/../x")) {
        assertThatThrownBy(() -> open(root, Map.of())).as(root).isInstanceOfSatisfying(StorageException.class,
            e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFIGURATION));
      }
    }

    @Test
    void accountsThatContradictEachOtherAreConfiguration() {
      assertThatThrownBy(() -> open("abfss://" + container + "@otheraccount.dfs.core.windows.net/x", Map.of()))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION));
      assertThatThrownBy(() -> StorageAdapters.open(URI.create("az://" + container),
              Map.of("account", "otheraccount", "connection-string", azurite().connectionString(), "allow-http", "true")))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION));
    }

    @Test
    void noAccountAnywhereIsConfiguration() {
      assertThatThrownBy(() -> StorageAdapters.open(URI.create("az://c1/x"), Map.of()))
          .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CONFIGURATION));
    }

    @Test
    void providerIsFoundForBothSchemes() throws Exception {
      assertThat(StorageAdapters.provider("az")).isInstanceOf(AzureBlobStorageProvider.class);
      assertThat(StorageAdapters.provider("abfss")).isInstanceOf(AzureBlobStorageProvider.class);
    }

    @Test
    void lanceLocationCarriesTheSameEndpointAndCredentials() throws Exception {
      LanceLocation l = adapter.lanceLocation("tables/person.lance");
      assertThat(l.uri()).isEqualTo("az://" + container + "/root/tables/person.lance");
      assertThat(l.storageOptions()).containsEntry("azure_storage_account_name", Azurite.ACCOUNT_NAME)
          .containsEntry("azure_storage_account_key", Azurite.ACCOUNT_KEY)
          .containsEntry("azure_endpoint", azurite().blobEndpoint())
          .containsEntry("azure_allow_http", "true")
          .doesNotContainKey("azure_storage_use_emulator");
    }
  }

  @FunctionalInterface
  interface ThrowingCall {
    void call() throws Exception;
  }
}
