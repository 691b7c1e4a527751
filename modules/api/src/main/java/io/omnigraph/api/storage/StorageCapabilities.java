package io.omnigraph.api.storage;

/**
 * Answers an adapter gives about itself. Every adapter implements the full SPI contract; these
 * describe how, so the engine and the TCK can adapt (never to excuse a weaker guarantee).
 *
 * @param scheme the URI scheme the adapter serves ({@code file}, {@code s3}, ...)
 * @param localFilesystem whether objects are files on a local file system (temp-file residue possible)
 * @param listPageSize how many entries one listing request returns at most (0 if the listing is not paged)
 */
public record StorageCapabilities(String scheme, boolean localFilesystem, int listPageSize) {}
