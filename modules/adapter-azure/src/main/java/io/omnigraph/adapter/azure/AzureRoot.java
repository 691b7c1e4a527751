package io.omnigraph.adapter.azure;

import io.omnigraph.api.storage.StorageException;
import io.omnigraph.api.storage.StoragePaths;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed root URI: {@code az://container/prefix} (account from the options) or
 * {@code abfss://container@account.dfs.core.windows.net/prefix} (account from the host; the
 * {@code .blob.core.windows.net} host is accepted too). Both address the same Blob API.
 *
 * @param scheme {@code az} or {@code abfss}
 * @param account the account named by the URI, or {@code null} when the URI does not name one
 * @param container the container (3-63 lower-case letters, digits, single dashes)
 * @param prefix the key prefix below the container, without leading or trailing {@code /}
 *     ({@code ""} for the container root)
 */
record AzureRoot(String scheme, String account, String container, String prefix) {
  private static final Pattern CONTAINER = Pattern.compile("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]");
  private static final Pattern ACCOUNT = Pattern.compile("[a-z0-9]{3,24}");
  private static final Pattern ACCOUNT_HOST =
      Pattern.compile("([^.]+)\\.(?:dfs|blob)\\.core\\.windows\\.net", Pattern.CASE_INSENSITIVE);

  /**
   * @throws StorageException {@code CONFIGURATION} for anything but the two documented forms, an
   *     illegal container or account name, a query or fragment, or an illegal prefix
   */
  static AzureRoot parse(URI root) throws StorageException {
    String scheme = root.getScheme() == null ? "" : root.getScheme().toLowerCase(Locale.ROOT);
    if (!AzureBlobStorageProvider.SCHEMES.contains(scheme)) {
      throw bad(root, "scheme must be az or abfss");
    }
    if (root.isOpaque() || root.getRawAuthority() == null) {
      throw bad(root, "expected az://container/prefix or abfss://container@account.dfs.core.windows.net/prefix");
    }
    if (root.getRawQuery() != null || root.getRawFragment() != null) {
      throw bad(root, "a query or fragment is not allowed");
    }
    String authority = root.getRawAuthority();
    String container;
    String account = null;
    int at = authority.indexOf('@');
    if (at >= 0) {
      container = authority.substring(0, at);
      Matcher m = ACCOUNT_HOST.matcher(authority.substring(at + 1));
      if (!m.matches()) {
        throw bad(root, "the host after '@' must be <account>.dfs.core.windows.net or <account>.blob.core.windows.net");
      }
      account = m.group(1);
      if (!ACCOUNT.matcher(account).matches()) {
        throw bad(root, "illegal storage account name '" + account + "' (3-24 lower-case letters and digits)");
      }
    } else {
      container = authority;
    }
    if (!CONTAINER.matcher(container).matches()) {
      throw bad(root, "illegal container name '" + container
          + "' (3-63 lower-case letters, digits and single dashes, starting and ending with a letter or digit)");
    }
    String path = root.getPath() == null ? "" : root.getPath();
    String prefix;
    if (path.isEmpty() || path.equals("/")) {
      prefix = "";
    } else {
      try {
        prefix = StoragePaths.validateDirectory(path.substring(1));
      } catch (StorageException e) {
        throw new StorageException(StorageException.Kind.CONFIGURATION, null,
            "malformed root URI '" + root + "': illegal prefix: " + e.getMessage(), e);
      }
    }
    return new AzureRoot(scheme, account, container, prefix);
  }

  /** @return the blob name of a root-relative path (already validated) */
  String blobName(String path) {
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  /** @return the listing prefix for a normalized root-relative directory ({@code ""}: the root) */
  String listPrefix(String dir) {
    String d = dir.isEmpty() ? prefix : blobName(dir);
    return d.isEmpty() ? "" : d + "/";
  }

  /** @return the root-relative path of a blob name under this root */
  String relative(String blobName) {
    return prefix.isEmpty() ? blobName : blobName.substring(prefix.length() + 1);
  }

  private static StorageException bad(URI root, String why) {
    return new StorageException(StorageException.Kind.CONFIGURATION, null, "malformed root URI '" + root + "': " + why);
  }
}
