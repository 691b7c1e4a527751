/** OmniGraph S3 adapter (work in progress). */
module io.omnigraph.adapter.s3 {
  requires io.omnigraph.api;
}
