package flashclaim.redemption;

import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;

/** Redemption webhooks on PostgreSQL (embedded, started by the test). */
class PostgresRedemptionWebhookTest extends RedemptionWebhookContract {
  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }
}
