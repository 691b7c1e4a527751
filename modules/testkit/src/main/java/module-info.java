/** OmniGraph test kit: emulators and FaultProxy (work in progress). */
module io.omnigraph.testkit {
  requires io.omnigraph.api;
}
