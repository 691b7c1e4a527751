package io.omnigraph.engine.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.lance.FragmentMetadata;
import org.lance.operation.Operation;
import org.lance.operation.Update;
import org.lance.schema.LanceField;
import org.lance.schema.LanceSchema;

/**
 * The insertion-absence certificate (docs/write-protocol.md, "The insertion-absence certificate"):
 * the Lance transaction
 * property {@value #PROPERTY} = {@value #V1} on a keyed write's transaction says that every id the
 * transaction inserts was proven absent from the transaction's pinned parent version. It is bound
 * to the persisted transaction (Lance keeps transaction properties in {@code _transactions/}), not
 * to runtime state, and is minted only by {@link #certify} after the staged operation has been
 * checked to be a pure insertion.
 *
 * <p>The checked shape: an {@link Update} in {@code RewriteRows} mode with no removed or updated
 * fragments, no modified fields, at least one new fragment whose physical rows add up to the
 * source row count, {@code fields_for_preserving_frag_bitmap} equal to the complete nested preorder
 * of the table schema's field ids (Lance uses it to keep existing indexes from claiming the new
 * fragments), a read version equal to the pinned parent and a non-empty transaction id.
 *
 * <p>Difference from the reference implementation: lance-java 7.0.0's {@code Update} builder cannot carry
 * the exact-id inserted-row key filter (Rust's {@code inserted_rows_filter}), so the certificate's
 * key set is the set of ids of the transaction's new fragments, which the engine records in
 * {@link StagedWrite#ids()}; nothing else about the shape is relaxed.
 */
public final class InsertAbsence {
  /** The transaction property name. */
  public static final String PROPERTY = "omnigraph.insert_absence";
  /** The only certificate version. */
  public static final String V1 = "v1";

  private InsertAbsence() {}

  /**
   * Builds the insertion-only operation for {@code newFragments} on a table whose schema is
   * {@code schema}.
   */
  static Update insertionOnlyUpdate(LanceSchema schema, List<FragmentMetadata> newFragments) {
    return Update.builder().removedFragmentIds(List.of()).updatedFragments(List.of()).newFragments(newFragments)
        .fieldsModified(new long[0]).fieldsForPreservingFragBitmap(fieldPreorder(schema))
        .updateMode(Optional.of(Update.UpdateMode.RewriteRows)).build();
  }

  /** @return every field id of {@code schema} in nested preorder (parent before its children) */
  static long[] fieldPreorder(LanceSchema schema) {
    List<Long> ids = new ArrayList<>();
    for (LanceField f : schema.fields()) {
      preorder(f, ids);
    }
    return ids.stream().mapToLong(Long::longValue).toArray();
  }

  private static void preorder(LanceField f, List<Long> out) {
    out.add((long) f.getId());
    for (LanceField c : f.getChildren()) {
      preorder(c, out);
    }
  }

  /**
   * Checks that {@code op} is a pure insertion of exactly {@code sourceRows} rows prepared against
   * {@code parentVersion} of a table with {@code schema}.
   *
   * @return the transaction properties carrying the certificate, or empty (with the reason) when
   *     the shape is anything else
   */
  static Certification certify(LanceSchema schema, long parentVersion, long readVersion, String uuid,
      Operation op, long sourceRows) {
    if (readVersion != parentVersion) {
      return Certification.refused("read version " + readVersion + " is not the probed parent " + parentVersion);
    }
    if (uuid == null || uuid.isEmpty()) {
      return Certification.refused("empty transaction id");
    }
    if (!(op instanceof Update u)) {
      return Certification.refused("operation is " + op.name() + ", not Update");
    }
    if (u.updateMode().orElse(null) != Update.UpdateMode.RewriteRows) {
      return Certification.refused("update mode is " + u.updateMode() + ", not RewriteRows");
    }
    if (!u.removedFragmentIds().isEmpty() || !u.updatedFragments().isEmpty()) {
      return Certification.refused("the update removes or rewrites existing fragments");
    }
    if (u.fieldsModified() != null && u.fieldsModified().length > 0) {
      return Certification.refused("the update modifies fields " + Arrays.toString(u.fieldsModified()));
    }
    if (u.newFragments().isEmpty()) {
      return Certification.refused("the update adds no fragment");
    }
    long[] expected = fieldPreorder(schema);
    if (!Arrays.equals(u.fieldsForPreservingFragBitmap(), expected)) {
      return Certification.refused("fields_for_preserving_frag_bitmap " + Arrays.toString(u.fieldsForPreservingFragBitmap())
          + " is not the schema's field preorder " + Arrays.toString(expected));
    }
    long physical = u.newFragments().stream().mapToLong(FragmentMetadata::getPhysicalRows).sum();
    if (physical != sourceRows) {
      return Certification.refused("new fragments hold " + physical + " rows, the source has " + sourceRows);
    }
    return new Certification(Map.of(PROPERTY, V1), null);
  }

  /**
   * @return whether transaction properties carry exactly the v1 certificate (what a reader of
   *     Lance transaction history checks)
   */
  public static boolean isCertified(Map<String, String> transactionProperties) {
    return transactionProperties != null && V1.equals(transactionProperties.get(PROPERTY));
  }

  /**
   * Verifies one committed link of an insertion-only history (docs/branches.md, "The proven-insert
   * route"): the transaction that produced a version must carry exactly the v1 certificate, have
   * {@code expectedParent} as its read version and a non-empty id, and pass every shape check of
   * {@link #certify} against the schema of its parent version.
   *
   * @param schema the table schema at the link's parent version
   * @param expectedParent the version the link must have been prepared on
   * @param tx the committed transaction
   * @return the physical rows the link inserted, or the reason it is no verified link
   */
  static Link verifyLink(LanceSchema schema, long expectedParent, org.lance.Transaction tx) {
    if (!isCertified(tx.transactionProperties().orElse(Map.of()))) {
      return Link.refused("transaction " + tx.uuid() + " carries no " + PROPERTY + " = " + V1);
    }
    Operation op = tx.operation();
    if (!(op instanceof Update u)) {
      return Link.refused("operation is " + (op == null ? "unknown" : op.name()) + ", not Update");
    }
    long physical = u.newFragments().stream().mapToLong(FragmentMetadata::getPhysicalRows).sum();
    Certification c = certify(schema, expectedParent, tx.readVersion(), tx.uuid(), op, physical);
    if (!c.certified()) {
      return Link.refused(c.refusal());
    }
    java.util.Set<String> files = new java.util.HashSet<>();
    u.newFragments().forEach(f -> f.getFiles().forEach(d -> files.add(d.getPath())));
    return new Link(physical, files, null);
  }

  /**
   * One verified (or refused) link of an insertion-only history.
   *
   * @param rows the physical rows the link inserted (0 when refused)
   * @param files the data file paths of the fragments the link added (empty when refused)
   * @param refusal why it is no verified link, or {@code null}
   */
  record Link(long rows, java.util.Set<String> files, String refusal) {
    static Link refused(String why) {
      return new Link(0, java.util.Set.of(), why);
    }

    boolean verified() {
      return refusal == null;
    }
  }

  /**
   * The outcome of {@link #certify}.
   *
   * @param properties the transaction properties to commit (empty when refused)
   * @param refusal why the shape was refused, or {@code null} when certified
   */
  record Certification(Map<String, String> properties, String refusal) {
    static Certification refused(String why) {
      return new Certification(Map.of(), why);
    }

    boolean certified() {
      return refusal == null;
    }
  }
}
