/** OmniGraph storage conformance suite (TCK) (work in progress). */
module io.omnigraph.conformance {
  requires io.omnigraph.api;
}
