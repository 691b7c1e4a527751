package io.omnigraph.engine.branch;

import io.omnigraph.api.ConflictException;
import io.omnigraph.api.ErrorDetail;
import io.omnigraph.api.InvalidInputException;
import io.omnigraph.engine.manifest.GraphBranch;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * The rules a new branch name must meet (docs/branches.md, "Names"), checked before any effect.
 */
public final class BranchNames {
  /** Rule of the InvalidInput failure for a name that breaks the syntax. */
  public static final String INVALID_BRANCH_NAME = "invalid_branch_name";
  /** Rule of the Conflict failure for a name that exists. */
  public static final String BRANCH_EXISTS = "branch_exists";
  /** Rule of the Conflict failure for a name that is a path ancestor or descendant of a live branch. */
  public static final String BRANCH_PATH_OVERLAP = "branch_path_overlap";
  /** The longest name accepted. */
  public static final int MAX_LENGTH = 200;

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");

  private BranchNames() {}

  /**
   * @throws InvalidInputException (rule {@value #INVALID_BRANCH_NAME}, field {@code name}) unless
   *     {@code name} is 1..{@value #MAX_LENGTH} characters of {@code /}-separated segments, each of
   *     ASCII letters, digits, {@code _ . -}, not starting with {@code .} or {@code -}, and not
   *     ending in {@code .lock}
   */
  public static void requireValid(String name) {
    String why = null;
    if (name == null || name.isEmpty()) {
      why = "must not be empty";
    } else if (name.length() > MAX_LENGTH) {
      why = "is longer than " + MAX_LENGTH + " characters";
    } else {
      for (String seg : name.split("/", -1)) {
        if (!SEGMENT.matcher(seg).matches() || seg.endsWith(".lock") || seg.contains("..")) {
          why = "has the invalid path segment '" + seg + "' (segments are ASCII letters, digits, '_', '.', '-',"
              + " separated by '/', not starting with '.' or '-')";
          break;
        }
      }
    }
    if (why != null) {
      throw new InvalidInputException("branch name '" + name + "' " + why,
          new ErrorDetail.Validation(null, null, "name", INVALID_BRANCH_NAME));
    }
  }

  /**
   * Refuses a name that is taken, or that is a path ancestor or descendant of a live branch
   * ({@code a} and {@code a/b}): Lance keeps a branch as the directory {@code tree/<name>}, and an
   * ancestor's tree cannot be reclaimed while a child lives inside it.
   *
   * @param live every live branch name, {@value GraphBranch#MAIN} included
   * @throws ConflictException (rule {@value #BRANCH_EXISTS} or {@value #BRANCH_PATH_OVERLAP})
   */
  public static void requireFree(String name, Collection<String> live) {
    for (String other : live) {
      if (other.equals(name)) {
        throw new ConflictException("branch '" + name + "' already exists",
            new ErrorDetail.Validation(null, null, "name", BRANCH_EXISTS));
      }
      if (other.startsWith(name + "/") || name.startsWith(other + "/")) {
        throw new ConflictException("branch name '" + name + "' is a path " + (other.startsWith(name + "/")
            ? "ancestor" : "descendant") + " of the live branch '" + other + "'",
            new ErrorDetail.Validation(null, null, "name", BRANCH_PATH_OVERLAP));
      }
    }
  }
}
