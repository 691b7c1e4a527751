/**
 * OmniGraph S3 adapter: the {@code s3} storage backend on the AWS SDK v2 (no Hadoop). Exports
 * nothing; found through {@link io.omnigraph.api.storage.StorageAdapterProvider}.
 */
module io.omnigraph.adapter.s3 {
  requires io.omnigraph.api;
  requires software.amazon.awssdk.services.s3;
  requires software.amazon.awssdk.core;
  requires software.amazon.awssdk.awscore;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.regions;
  requires software.amazon.awssdk.http;
  requires software.amazon.awssdk.http.apache5;
  requires software.amazon.awssdk.retries;
  requires software.amazon.awssdk.retries.api;

  provides io.omnigraph.api.storage.StorageAdapterProvider with io.omnigraph.adapter.s3.S3StorageProvider;
}
