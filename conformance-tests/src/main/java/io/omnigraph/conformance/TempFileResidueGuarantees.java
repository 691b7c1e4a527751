package io.omnigraph.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.StorageException.Kind;
import io.omnigraph.api.storage.StoredObject;
import io.omnigraph.api.storage.WriteCondition;
import org.junit.jupiter.api.Test;

/**
 * What an interrupted write leaves behind is invisible, and temp names are not addresses.
 *
 * <p>The tests of the contract group {@code TempFileResidue}, bound by {@link StorageAdapterContract.TempFileResidue}.
 */
abstract class TempFileResidueGuarantees extends ContractGroup {

  TempFileResidueGuarantees(StorageAdapterContract contract) {
    super(contract);
  }

  @Test
  void residueOfAnInterruptedWriteIsNotListed() throws Exception {
    put("dir/real", "r");
    String name = residue().leaveResidue(adapter, "dir/ghost.json", utf8("{\"part"));
    assertThat(list("dir")).containsExactly("dir/real").doesNotContain(name);
  }

  @Test
  void residueOfAnInterruptedWriteIsNotAnObject() throws Exception {
    residue().leaveResidue(adapter, "dir/ghost.json", utf8("{\"part"));
    assertThat(adapter.exists("dir/ghost.json")).isFalse();
    assertThat(adapter.readTextIfExists("dir/ghost.json")).isEmpty();
  }

  @Test
  void residueNextToAnObjectDoesNotChangeWhatReadersSee() throws Exception {
    String v = put("dir/x.json", "whole");
    residue().leaveResidue(adapter, "dir/x.json", utf8("par"));
    assertThat(adapter.readIfExists("dir/x.json").orElseThrow()).isEqualTo(new StoredObject(utf8("whole"), v));
    assertThat(list("dir")).containsExactly("dir/x.json");
  }

  @Test
  void residueDoesNotBlockAConditionalCreate() throws Exception {
    residue().leaveResidue(adapter, "dir/x.json", utf8("par"));
    adapter.put("dir/x.json", utf8("real"), WriteCondition.ifAbsent());
    assertThat(adapter.readText("dir/x.json")).isEqualTo("real");
  }

  @Test
  void aTempNameIsRefusedAsAnAddressForRead() {
    assertKind(() -> adapter.readTextIfExists("dir/x#123"), Kind.INVALID_PATH);
    assertKind(() -> adapter.readText("x#123"), Kind.INVALID_PATH);
    assertKind(() -> adapter.readIfExists("x#123"), Kind.INVALID_PATH);
    assertKind(() -> adapter.exists("x#123"), Kind.INVALID_PATH);
  }

  @Test
  void aTempNameIsRefusedAsAnAddressForPut() throws Exception {
    assertKind(() -> adapter.put("x#123", utf8("x"), WriteCondition.overwrite()), Kind.INVALID_PATH);
    assertKind(() -> adapter.put("dir/x#1", utf8("x"), WriteCondition.ifAbsent()), Kind.INVALID_PATH);
    assertThat(list("")).isEmpty();
    assertThat(list("dir")).isEmpty();
  }

  @Test
  void aTempNameIsRefusedAsAnAddressForDelete() {
    assertKind(() -> adapter.delete("x#123"), Kind.INVALID_PATH);
    assertKind(() -> adapter.delete("dir/x#0"), Kind.INVALID_PATH);
  }
}
