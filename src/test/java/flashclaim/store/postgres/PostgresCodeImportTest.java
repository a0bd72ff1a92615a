package flashclaim.store.postgres;

import flashclaim.campaign.CodeImportContract;
import flashclaim.testing.StoreClients;

/** {@link CodeImportContract} on PostgreSQL. */
class PostgresCodeImportTest extends CodeImportContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("code_import", n);
  }
}
