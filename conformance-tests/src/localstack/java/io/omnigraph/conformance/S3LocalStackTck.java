package io.omnigraph.conformance;

import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 adapter against the whole contract on LocalStack (Testcontainers), with faults through a
 * FaultProxy exactly as on s3proxy. Opt-in only: {@code ./mvnw -Plocalstack -pl conformance-tests
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
  private static S3TckBinding binding;

  @Override
  protected StorageTckBinding binding() {
    synchronized (S3LocalStackTck.class) {
      if (binding == null) {
        URI endpoint = URI.create(LOCALSTACK.getEndpoint().toString());
        client = S3Client.builder().endpointOverride(endpoint).region(Region.of(LOCALSTACK.getRegion()))
            .credentialsProvider(StaticCredentialsProvider.create(
                AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())))
            .forcePathStyle(true).build();
        try {
          binding = new S3TckBinding(AdapterModules.onClassPath("s3"), new S3TckBinding.Target(endpoint,
              LOCALSTACK.getRegion(), LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey(), () -> {
                String name = "tck-" + BUCKETS.incrementAndGet();
                client.createBucket(b -> b.bucket(name));
                return name;
              }, client));
        } catch (java.io.IOException e) { // StorageException included
          throw new AssertionError("cannot bind the 's3' provider to LocalStack", e);
        }
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
