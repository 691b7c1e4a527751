/** OmniGraph Google Cloud Storage adapter (work in progress). */
module io.omnigraph.adapter.gcs {
  requires io.omnigraph.api;
}
