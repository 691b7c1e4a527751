package io.omnigraph.engine.table;

import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.storage.LanceLocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;
import org.lance.operation.Operation;

/**
 * Adopting a proven insertion-only interval's fragments (docs/branches.md, "The proven-insert
 * route"): instead of reading the interval's rows and writing them again, each link of the source's
 * verified chain is replayed on the target as one certified insertion-only Update whose new
 * fragments are the link's own data files, placed in the target ref's data directory by a
 * {@link FileAdopter} (a hard link on local disk). No row is read, decoded, buffered or encoded; the
 * target assigns the fragments their ids and the rows their stable row ids at commit, as for any
 * insert.
 */
public final class ProvenAdoption {
  private ProvenAdoption() {}

  /** Places a data file of one ref's {@code data/} directory, under the same name, in another's. */
  public interface FileAdopter {
    /**
     * @param from the dataset (ref) that holds the file
     * @param to the dataset (ref) that adopts it
     * @param dataFile the file's path relative to {@code data/}
     * @throws io.omnigraph.api.StorageFailureException the file could not be placed; nothing refers to it yet
     */
    void adopt(LanceLocation from, LanceLocation to, String dataFile);
  }

  /**
   * @return whether {@code proof}'s links can be adopted onto {@code target}: the proof grouped its
   *     fragments by link ({@link InsertProof#links()}) and the source version has exactly the
   *     target's schema (field ids, names and types), so the adopted files need no translation
   */
  public static boolean adoptable(TableSnapshot target, InsertProof proof) {
    if (proof == null || !proof.proven() || proof.links() == 0) {
      return false;
    }
    return LanceCalls.lance(target.location().uri(), "read", () ->
        Arrays.equals(InsertAbsence.fieldPreorder(target.dataset().getLanceSchema()),
            InsertAbsence.fieldPreorder(proof.source().dataset().getLanceSchema()))
        && target.dataset().getSchema().equals(proof.source().dataset().getSchema()));
  }

  /**
   * Stages link {@code link} of {@code proof} on {@code target}: its data files are adopted into the
   * target's ref, and the staged operation is the insertion-only Update over them, certified again
   * against {@code target}'s version (docs/write-protocol.md, "The insertion-absence certificate").
   * The caller guarantees {@code target} holds exactly the proof's base rows plus the links before
   * this one ({@link #adoptable} was checked).
   */
  public static StagedWrite stageLink(TableSnapshot target, InsertProof proof, int link, FileAdopter adopter) {
    if (proof == null || !proof.proven() || link < 0 || link >= proof.links()) {
      throw new InternalErrorException("adoption of link " + link + " without a proven, grouped interval", null);
    }
    List<FragmentMetadata> adopted = new ArrayList<>();
    long rows = 0;
    for (FragmentMetadata f : proof.linkFragments(link)) {
      for (DataFile d : f.getFiles()) {
        adopter.adopt(proof.source().location(), target.location(), d.getPath());
      }
      // id 0, no row ids, no version metadata: the target's commit assigns them, as for written fragments
      adopted.add(new FragmentMetadata(0, f.getFiles(), f.getPhysicalRows(), null, null));
      rows += f.getPhysicalRows();
    }
    String uri = target.location().uri();
    String uuid = UUID.randomUUID().toString();
    Operation op = LanceCalls.lance(uri, "write",
        () -> InsertAbsence.insertionOnlyUpdate(target.dataset().getLanceSchema(), adopted));
    long count = rows;
    InsertAbsence.Certification cert = LanceCalls.lance(uri, "write", () -> InsertAbsence.certify(
        target.dataset().getLanceSchema(), target.version(), target.version(), uuid, op, count));
    if (!cert.certified()) {
      throw new InternalErrorException("adopting link " + link + " of " + proof.tableKey() + " staged an unfamiliar"
          + " transaction shape (" + cert.refusal() + "); nothing was committed", null);
    }
    return new StagedWrite(proof.tableKey(), target.location(), target.version(), uuid, StagedWrite.Kind.STRICT_INSERT,
        rows, List.of(), op, cert.properties());
  }
}
