package io.omnigraph.adapter.s3;

/** What the adapter was doing when an SDK call failed; decides how a failure maps to a kind. */
enum S3Operation {
  OPEN(false, false),
  READ(false, false),
  EXISTS(false, false),
  LIST(false, false),
  PUT(true, false),
  PUT_IF_ABSENT(true, true),
  PUT_IF_MATCH(true, true),
  DELETE(true, false),
  DELETE_PREFIX(true, false);

  final boolean mutates;
  final boolean conditional;

  S3Operation(boolean mutates, boolean conditional) {
    this.mutates = mutates;
    this.conditional = conditional;
  }
}
