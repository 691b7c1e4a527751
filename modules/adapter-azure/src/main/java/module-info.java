/** OmniGraph Azure Blob adapter (work in progress). */
module io.omnigraph.adapter.azure {
  requires io.omnigraph.api;
}
