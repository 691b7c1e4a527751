package io.omnigraph.adapter.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.omnigraph.api.storage.ObjectListing;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.WriteCondition;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.AzureFaults;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import io.omnigraph.testkit.fault.ArmedFault;
import io.omnigraph.testkit.fault.AzureRequests;
import io.omnigraph.testkit.fault.Fault;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.fault.FaultRule;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failures injected by {@link FaultProxy} between the real SDK client and Azurite, so every case
 * goes through the SDK's own retry policy and exception types.
 */
class AzureFaultTest {
  @RegisterExtension
  static final AzuriteExtension AZURITE = new AzuriteExtension();

  private FaultProxy proxy;
  private String container;
  private final List<StorageAdapter> opened = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    proxy = FaultProxy.start(AZURITE.azurite().endpoint());
    container = AZURITE.azurite().createContainer("faults");
  }

  @AfterEach
  void stop() throws Exception {
    for (StorageAdapter a : opened) {
      a.close();
    }
    assertThat(proxy.problems()).as("the proxy itself failed").isEmpty();
    proxy.close();
  }

  /** An adapter whose endpoint is the proxy; {@code retries} SDK retries with a 1 ms back-off. */
  StorageAdapter adapter(int retries) throws StorageException {
    StorageAdapter a = StorageAdapters.open(URI.create("az://" + container + "/root"), AzureAdapterOptions.forAzurite(
        proxy.endpoint() + "/" + Azurite.ACCOUNT_NAME, "max-retries", Integer.toString(retries), "retry-delay-ms", "1",
        "list-page-size", "2"));
    opened.add(a);
    return a;
  }

  String blobTarget(String path) {
    return AzureRequests.in(Azurite.ACCOUNT_NAME, container).blob("root/" + path);
  }

  String listTarget() {
    return AzureRequests.in(Azurite.ACCOUNT_NAME, container).listing();
  }

  static Fault azureError(int status, String code) {
    return AzureFaults.error(status, code);
  }

  static Kind kindOf(ThrowingCall c) {
    try {
      c.call();
    } catch (StorageException e) {
      return e.kind();
    } catch (Exception e) {
      throw new AssertionError("not a StorageException", e);
    }
    throw new AssertionError("no failure");
  }

  static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  void serverErrorsThatOutliveTheSdkRetriesAreTransient() throws Exception {
    StorageAdapter a = adapter(2);
    a.put("k", b("v"), WriteCondition.overwrite());
    ArmedFault f = proxy.arm(FaultRule.on("GET", blobTarget("k")).times(3).then(azureError(503, "ServerBusy")));
    assertThat(kindOf(() -> a.readIfExists("k"))).isEqualTo(Kind.TRANSIENT);
    assertThat(f.fired()).as("1 try + 2 retries, all answered 503").isEqualTo(3);
  }

  @Test
  void aServerErrorTheSdkRetriesAwayIsInvisible() throws Exception {
    StorageAdapter a = adapter(2);
    a.put("k", b("v"), WriteCondition.overwrite());
    ArmedFault f = proxy.arm(FaultRule.on("GET", blobTarget("k")).then(azureError(500, "InternalError")));
    assertThat(a.readText("k")).isEqualTo("v");
    assertThat(f.fired()).isEqualTo(1);
  }

  @Test
  void throttlingThatOutlivesRetriesIsTransientAndWritesNothing() throws Exception {
    StorageAdapter a = adapter(1);
    proxy.arm(FaultRule.on("PUT", blobTarget("t")).times(2).then(azureError(429, "TooManyRequests")));
    assertThat(kindOf(() -> a.put("t", b("v"), WriteCondition.ifAbsent()))).isEqualTo(Kind.TRANSIENT);
    assertThat(a.exists("t")).isFalse();
  }

  @Test
  void forbiddenAndUnauthorizedArePermission() throws Exception {
    StorageAdapter a = adapter(0);
    proxy.arm(FaultRule.on("GET", blobTarget("p")).then(azureError(403, "AuthorizationPermissionMismatch")));
    assertThat(kindOf(() -> a.readIfExists("p"))).isEqualTo(Kind.PERMISSION);
    proxy.arm(FaultRule.on("HEAD", blobTarget("p")).then(new Fault.Respond(401, Map.of("x-ms-error-code", "NoAuthenticationInformation"), new byte[0])));
    assertThat(kindOf(() -> a.exists("p"))).isEqualTo(Kind.PERMISSION);
    proxy.arm(FaultRule.on("PUT", blobTarget("p")).then(azureError(403, "AuthorizationFailure")));
    assertThat(kindOf(() -> a.put("p", b("x"), WriteCondition.overwrite()))).isEqualTo(Kind.PERMISSION);
  }

  @Test
  void openRefusesACredentialTheServiceNamesRefusedButNotOneThatOnlyLacksContainerRights() throws Exception {
    String props = AzureRequests.in(Azurite.ACCOUNT_NAME, container).containerProperties();
    proxy.arm(FaultRule.on("GET", props).then(azureError(403, "AuthenticationFailed")));
    assertThat(kindOf(() -> adapter(0))).isEqualTo(Kind.PERMISSION);
    proxy.arm(FaultRule.on("GET", props).then(azureError(403, "AuthorizationPermissionMismatch")));
    StorageAdapter a = adapter(0);
    a.put("k", b("v"), WriteCondition.overwrite());
    assertThat(a.readText("k")).isEqualTo("v");
  }

  @Test
  void openOfAMissingContainerIsConfiguration() {
    proxy.arm(FaultRule.on("GET", AzureRequests.in(Azurite.ACCOUNT_NAME, container).containerProperties())
        .then(azureError(404, "ContainerNotFound")));
    assertThat(kindOf(() -> adapter(0))).isEqualTo(Kind.CONFIGURATION);
  }

  @Test
  void aLostResponseOnAWriteWithoutRetriesIsOutcomeUnknownAndTheWriteTookEffect() throws Exception {
    StorageAdapter a = adapter(0);
    ArmedFault f = proxy.arm(FaultRule.on("PUT", blobTarget("w")).then(new Fault.ForwardThenDrop()));
    assertThat(kindOf(() -> a.put("w", b("applied"), WriteCondition.overwrite()))).isEqualTo(Kind.OUTCOME_UNKNOWN);
    assertThat(f.fired()).isEqualTo(1);
    assertThat(a.readText("w")).isEqualTo("applied");
  }

  @Test
  void aLostIfAbsentResponseIsOutcomeUnknownEvenThoughTheSdkRetryGot409() throws Exception {
    // The SDK retries the lost try; the retry finds the blob the first try created and gets 409
    // BlobAlreadyExists. Reporting PRECONDITION_FAILED would tell the caller it lost a race it won.
    StorageAdapter a = adapter(2);
    ArmedFault f = proxy.arm(FaultRule.on("PUT", blobTarget("once")).then(new Fault.ForwardThenDrop()));
    assertThat(kindOf(() -> a.put("once", b("mine"), WriteCondition.ifAbsent()))).isEqualTo(Kind.OUTCOME_UNKNOWN);
    assertThat(f.fired()).isEqualTo(1);
    assertThat(proxy.count("PUT", blobTarget("once"))).as("the SDK retried").isEqualTo(2);
    assertThat(a.readText("once")).isEqualTo("mine");
  }

  @Test
  void aLostIfMatchResponseIsOutcomeUnknownEvenThoughTheSdkRetryGot412() throws Exception {
    StorageAdapter a = adapter(2);
    String v1 = a.put("cas", b("1"), WriteCondition.overwrite());
    proxy.arm(FaultRule.on("PUT", blobTarget("cas")).then(new Fault.ForwardThenDrop()));
    assertThat(kindOf(() -> a.put("cas", b("2"), WriteCondition.ifMatch(v1)))).isEqualTo(Kind.OUTCOME_UNKNOWN);
    assertThat(a.readText("cas")).isEqualTo("2");
  }

  @Test
  void aLostOverwriteResponseIsRetriedByTheSdkAndSucceeds() throws Exception {
    StorageAdapter a = adapter(2);
    proxy.arm(FaultRule.on("PUT", blobTarget("ow")).then(new Fault.ForwardThenDrop()));
    String v = a.put("ow", b("x"), WriteCondition.overwrite());
    assertThat(a.readIfExists("ow")).get().satisfies(o -> assertThat(o.version()).isEqualTo(v));
  }

  @Test
  void aLostDeleteResponseIsRetriedAndTheRetrysNotFoundCountsAsDeleted() throws Exception {
    StorageAdapter a = adapter(2);
    a.put("del", b("x"), WriteCondition.overwrite());
    ArmedFault f = proxy.arm(FaultRule.on("DELETE", blobTarget("del")).then(new Fault.ForwardThenDrop()));
    a.delete("del");
    assertThat(f.fired()).isEqualTo(1);
    assertThat(a.exists("del")).isFalse();
  }

  @Test
  void aLostDeleteResponseWithoutRetriesIsOutcomeUnknown() throws Exception {
    StorageAdapter a = adapter(0);
    a.put("del", b("x"), WriteCondition.overwrite());
    proxy.arm(FaultRule.on("DELETE", blobTarget("del")).then(new Fault.ForwardThenDrop()));
    assertThat(kindOf(() -> a.delete("del"))).isEqualTo(Kind.OUTCOME_UNKNOWN);
  }

  @Test
  void aResetReadWithoutRetriesIsTransient() throws Exception {
    StorageAdapter a = adapter(0);
    a.put("r", b("x"), WriteCondition.overwrite());
    proxy.arm(FaultRule.on("GET", blobTarget("r")).then(new Fault.Reset()));
    assertThat(kindOf(() -> a.readIfExists("r"))).isEqualTo(Kind.TRANSIENT);
  }

  @Test
  void aFailedLaterListingPageIsThrownByTheListingNeverSwallowed() throws Exception {
    StorageAdapter a = adapter(1);
    for (int i = 0; i < 7; i++) {
      a.put("d/f" + i, b("x"), WriteCondition.overwrite());
    }
    ArmedFault f = proxy.arm(FaultRule.on("GET", listTarget()).nth(3).times(2).then(azureError(500, "InternalError")));
    ObjectListing listing = a.list("d"); // page 1 arrives here
    assertThat(f.fired()).isZero();
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(() -> {
      while (listing.hasNext()) {
        seen.add(listing.next());
      }
    }).isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TRANSIENT));
    assertThat(seen).as("pages 1 and 2 (page size 2) before page 3 failed").containsExactly("d/f0", "d/f1", "d/f2", "d/f3");
    assertThat(f.fired()).isEqualTo(2);
    proxy.disarmAll();
    assertThat(a.list("d").toList()).hasSize(7);
  }

  @Test
  void aFailedFirstListingPageIsThrownByList() throws Exception {
    StorageAdapter a = adapter(0);
    proxy.arm(FaultRule.on("GET", listTarget()).then(azureError(503, "ServerBusy")));
    assertThat(kindOf(() -> a.list(""))).isEqualTo(Kind.TRANSIENT);
  }

  @FunctionalInterface
  interface ThrowingCall {
    void call() throws Exception;
  }
}
