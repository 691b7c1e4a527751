package io.omnigraph.conformance;

import io.omnigraph.api.storage.StorageAdapterProvider;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.tck.HttpDialects;
import io.omnigraph.testkit.tck.HttpStoreBinding;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 adapter against the whole contract on LocalStack (Testcontainers), with faults through a
 * FaultProxy exactly as on s3proxy. Opt-in only: {@code ./mvnw -Plocalstack -pl conformance-runner
 * -am verify} adds this source folder ({@code src/localstack/java}) and Testcontainers. Where
 * Docker is absent the class is skipped, and JUnit reports the reason ("Docker is not available").
 */
@Testcontainers(disabledWithoutDocker = true)
class S3LocalStackTck extends StorageAdapterContract {
  @Container
  static final LocalStackContainer LOCALSTACK = new LocalStackContainer(DockerImageName.parse("localstack/localstack:3.8"))
      .withServices(LocalStackContainer.Service.S3);

  private static final AtomicLong BUCKETS = new AtomicLong();
  private static S3Client client;
  private static HttpStoreBinding binding;

  @Override
  protected StorageTckBinding binding() {
    synchronized (S3LocalStackTck.class) {
      if (binding == null) {
        URI endpoint = URI.create(LOCALSTACK.getEndpoint().toString());
        client = S3Client.builder().endpointOverride(endpoint).region(Region.of(LOCALSTACK.getRegion()))
            .credentialsProvider(StaticCredentialsProvider.create(
                AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())))
            .forcePathStyle(true).build();
        StorageAdapterProvider provider;
        try {
          provider = StorageAdapters.provider("s3");
        } catch (io.omnigraph.api.storage.StorageException e) {
          throw new AssertionError("no 's3' provider on the class path", e);
        }
        binding = new HttpStoreBinding("s3 (LocalStack)", endpoint, HttpDialects.s3(3), proxy -> {
          String bucket = "tck-" + BUCKETS.incrementAndGet();
          client.createBucket(b -> b.bucket(bucket));
          return new HttpStoreBinding.Root(provider.open(URI.create("s3://" + bucket + "/tck"), Map.of(
              "endpoint", proxy.toString(), "allow-http", "true", "path-style", "true",
              "region", LOCALSTACK.getRegion(), "access-key-id", LOCALSTACK.getAccessKey(),
              "secret-access-key", LOCALSTACK.getSecretKey(), "list-page-size", "100", "max-attempts", "3")),
              bucket, "tck");
        }, (bucket, key, bytes) -> client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes)));
      }
      return binding;
    }
  }

  @AfterAll
  static void close() {
    synchronized (S3LocalStackTck.class) {
      if (binding != null) {
        binding.close();
        binding = null;
      }
      if (client != null) {
        client.close();
        client = null;
      }
    }
  }
}
