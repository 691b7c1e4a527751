package io.omnigraph.adapter.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.omnigraph.api.storage.LanceLocation;
import io.omnigraph.api.storage.StorageAdapter;
import io.omnigraph.api.storage.StorageAdapters;
import io.omnigraph.testkit.azure.AzureAdapterOptions;
import io.omnigraph.testkit.azure.Azurite;
import io.omnigraph.testkit.azure.AzuriteExtension;
import io.omnigraph.testkit.lance.LanceSmoke;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lance (lance-core, Rust object_store inside) writes and reads a dataset in Azurite using only
 * what {@link StorageAdapter#lanceLocation} returns: {@code az://container/prefix/path} plus
 * {@code azure_storage_account_name}, {@code azure_storage_account_key},
 * {@code azure_endpoint=http://127.0.0.1:<port>/devstoreaccount1} and {@code azure_allow_http}.
 * object_store's {@code azure_storage_use_emulator} is deliberately not used: it pins the
 * emulator to 127.0.0.1:10000 (or the process environment's AZURITE_BLOB_STORAGE_URL), while a
 * custom endpoint that carries the account in its path reaches Azurite on any port.
 *
 * <p>Runs on the class path (its own Surefire execution): Lance's jars are not modules.
 */
class AzureLanceSmokeTest {
  @RegisterExtension
  static final AzuriteExtension AZURITE = new AzuriteExtension();

  @Test
  void lanceWritesReopensAndReadsBackAThousandRowsThroughTheAdaptersLocation() throws Exception {
    Azurite azurite = AZURITE.azurite();
    String container = azurite.createContainer("lance");
    try (StorageAdapter adapter = StorageAdapters.open(URI.create("az://" + container + "/graph"), 
        AzureAdapterOptions.forAzurite(azurite.blobEndpoint()))) {
      LanceLocation loc = adapter.lanceLocation("tables/person.lance");
      assertThat(loc.uri()).isEqualTo("az://" + container + "/graph/tables/person.lance");

      assertThat(LanceSmoke.write(loc)).isEqualTo(LanceSmoke.ROWS);

      // Lance's files are visible to the adapter under the same root: same account, same prefix.
      assertThat(adapter.list("tables/person.lance/_versions").toList()).isNotEmpty();
      assertThat(adapter.list("tables/person.lance/data").toList()).isNotEmpty();

      LanceSmoke.ReadBack back = LanceSmoke.reopenAndRead(loc);
      assertThat(back.version()).isEqualTo(1);
      assertThat(back.countRows()).isEqualTo(LanceSmoke.ROWS);
      assertThat(back.rows()).containsExactlyInAnyOrderElementsOf(LanceSmoke.expectedRows());
    }
  }
}
