/** OmniGraph command-line interface (work in progress). */
module io.omnigraph.cli {
  requires io.omnigraph.api;
}
