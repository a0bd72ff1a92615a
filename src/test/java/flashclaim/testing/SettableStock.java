package flashclaim.testing;

import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.campaign.CouponStore;
import flashclaim.campaign.Stock;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pool whose remaining count the test sets, for the rules that read a campaign's stock (the
 * sell-out forecast) on their own, without a store: every campaign has 10,000 coupons, of which
 * {@link #remaining} are left; while {@link #failing}, a read fails as a store that is away does.
 * Adding codes is not supported.
 */
public final class SettableStock implements CouponStore {
  public final AtomicLong remaining = new AtomicLong();
  public volatile boolean failing;

  @Override
  public CouponStore.AddResult add(CampaignId campaign, List<CouponCode> codes) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Stock stock(CampaignId campaign) {
    if (failing) {
      throw new IllegalStateException("the store is away");
    }
    return new Stock(10_000, 10_000 - remaining.get());
  }
}
