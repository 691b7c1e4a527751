package io.omnigraph.engine.table;

import java.util.List;
import java.util.Objects;

/**
 * One native Lance branch of a dataset, as Lance lists it.
 *
 * @param name the branch name (a path under the dataset's {@code tree/})
 * @param parentBranch the branch it was created from ({@code null} = the dataset's main)
 * @param parentVersion the parent version it was created at
 * @param identifier Lance's branch identifier: one (version, uuid) element per generation of the
 *     branch's ancestry, the last minted when this branch was created; a delete and re-create of the
 *     same name yields another identifier
 */
public record NativeBranch(String name, String parentBranch, long parentVersion, List<Element> identifier) {
  public NativeBranch {
    Objects.requireNonNull(name, "name");
    identifier = List.copyOf(identifier);
  }

  /** One element of a branch identifier. */
  public record Element(long version, String uuid) {}

  /** @return the identifier as compact text, {@code v:uuid/v:uuid...}, compared by equality */
  public String identifierText() {
    StringBuilder b = new StringBuilder();
    for (Element e : identifier) {
      if (b.length() > 0) {
        b.append('/');
      }
      b.append(e.version()).append(':').append(e.uuid());
    }
    return b.toString();
  }
}
