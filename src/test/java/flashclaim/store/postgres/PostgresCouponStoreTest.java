package flashclaim.store.postgres;

import flashclaim.campaign.CouponStoreContract;
import flashclaim.testing.StoreClients;

/** {@link CouponStoreContract} on PostgreSQL. */
class PostgresCouponStoreTest extends CouponStoreContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("coupon_store", n);
  }
}
