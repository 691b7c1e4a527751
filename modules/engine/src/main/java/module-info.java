/** OmniGraph engine (work in progress). */
module io.omnigraph.engine {
  requires io.omnigraph.api;
}
