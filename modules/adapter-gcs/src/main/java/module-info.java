/**
 * OmniGraph Google Cloud Storage adapter: {@code gs://bucket/prefix} roots through
 * google-cloud-storage. Exports nothing; found through {@link java.util.ServiceLoader}.
 */
module io.omnigraph.adapter.gcs {
  requires io.omnigraph.api;
  requires google.cloud.storage;
  requires google.cloud.core;
  requires google.cloud.core.http;
  requires com.google.api.client;
  requires com.google.auth;
  requires com.google.auth.oauth2;
  requires gax;

  provides io.omnigraph.api.storage.StorageAdapterProvider with io.omnigraph.adapter.gcs.GcsStorageAdapterProvider;
}
