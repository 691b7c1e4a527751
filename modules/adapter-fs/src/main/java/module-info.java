/** OmniGraph local file-system adapter (work in progress). */
module io.omnigraph.adapter.fs {
  requires io.omnigraph.api;
}
