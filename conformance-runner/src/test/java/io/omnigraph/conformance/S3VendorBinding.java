package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.fault.FaultProxy;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpFaultController;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A vendor binding for the runner (found through {@code META-INF/services}), the way an S3-compatible
 * service's vendor would supply one: a {@link FaultProxy} in front of the {@code endpoint} option, so
 * faults pass through the real AWS SDK, and residue written with the SDK's own client. Needs the
 * options {@code endpoint}, {@code region}, {@code access-key-id}, {@code secret-access-key};
 * {@code max-attempts} defaults to 3 (each fault outlives that many tries).
 */
public final class S3VendorBinding implements TckBindingProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("s3");
  }

  @Override
  public StorageTckBinding bind(URI runRoot, Map<String, String> options) throws Exception {
    Map<String, String> through = new HashMap<>(options);
    URI endpoint = URI.create(options.get("endpoint"));
    FaultProxy proxy = FaultProxy.start(endpoint);
    through.put("endpoint", proxy.endpoint().toString());
    int tries = Integer.parseInt(through.computeIfAbsent("max-attempts", k -> "3"));
    HttpFaultController faults = new HttpFaultController(proxy, HttpDialects.s3(tries));
    S3Client direct = S3Client.builder().endpointOverride(endpoint).region(Region.of(options.get("region")))
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(options.get("access-key-id"), options.get("secret-access-key"))))
        .forcePathStyle(true).build();
    String bucket = runRoot.getHost();
    String base = runRoot.getPath().replaceAll("^/+|/+$", "");
    AtomicInteger next = new AtomicInteger();
    Map<StorageAdapter, String> roots = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    final class Bound implements StorageTckBinding, AutoCloseable {
      @Override
      public String name() {
        return "s3 (vendor binding)";
      }

      @Override
      public StorageAdapter openEmptyRoot() throws Exception {
        String prefix = base + "/t" + next.incrementAndGet();
        StorageAdapter a = StorageAdapters.open(URI.create("s3://" + bucket + "/" + prefix), through);
        roots.put(a, prefix);
        return a;
      }

      @Override
      public Optional<FaultController> faults() {
        return Optional.of(faults);
      }

      @Override
      public Optional<ResidueMaker> residue() {
        return Optional.of((adapter, path, bytes) -> {
          String name = path + "#" + ThreadLocalRandom.current().nextLong(1_000, 1_000_000_000L);
          direct.putObject(b -> b.bucket(bucket).key(roots.get(adapter) + "/" + name), RequestBody.fromBytes(bytes));
          return name;
        });
      }

      @Override
      public void close() {
        direct.close();
        proxy.close();
      }
    }
    return new Bound();
  }
}
