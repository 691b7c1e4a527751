package io.omnigraph.engine.table;

import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InternalErrorException;
import io.omnigraph.api.InvalidInputException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The ids of a keyed write's batch, as the write gateway checks them (pure, no I/O). */
final class KeyedBatch {
  private static final String ID = TableReader.ID;

  private KeyedBatch() {}

  /**
   * @return the batch's ids in row order
   * @throws InternalErrorException the batch has no Utf8 {@code id} column
   * @throws InvalidInputException a row has a null id
   */
  static List<String> ids(VectorSchemaRoot batch) {
    if (!(batch.getVector(ID) instanceof VarCharVector v)) {
      throw new InternalErrorException("keyed write batch has no Utf8 'id' column: " + batch.getSchema(), null);
    }
    List<String> ids = new ArrayList<>(batch.getRowCount());
    for (int i = 0; i < batch.getRowCount(); i++) {
      if (v.isNull(i)) {
        throw new InvalidInputException("row " + i + " of a keyed write has a null id",
            new ErrorDetail.Validation(null, null, ID, "null_id"));
      }
      ids.add(new String(v.get(i), java.nio.charset.StandardCharsets.UTF_8));
    }
    return ids;
  }

  /** @return the ids that appear more than once, each once, in first-repeat order */
  static List<String> duplicates(List<String> ids) {
    Set<String> seen = new java.util.HashSet<>();
    Set<String> dup = new LinkedHashSet<>();
    for (String id : ids) {
      if (!seen.add(id)) {
        dup.add(id);
      }
    }
    return new ArrayList<>(dup);
  }
}
