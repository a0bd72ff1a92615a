package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link CampaignStore} and a {@link CouponStore}, run against the real store by
 * a subclass per store, with {@value #CLIENTS} store clients of their own and no service: of
 * concurrent creates of one campaign exactly one wins and it reads back as created; seeding is
 * idempotent by code, within one call, on a repeat and across clients seeding the same codes at
 * once, with exact counts of added and skipped codes and of the stock; and the additions counter
 * moves with every seeding that adds coupons and, after seedings one at a time, reports none in
 * progress once they have returned.
 */
public abstract class CouponStoreContract extends StoreContract {

  private CampaignId newCampaign() {
    return newCampaign(1, 0).id();
  }

  private static List<CouponCode> codes(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> new CouponCode(prefix + i)).toList();
  }

  private PoolAdditions additions(int client, CampaignId id) {
    return clients().campaignStore(client).couponsAdded(id).orElseThrow();
  }

  /** Of creates of one campaign from every client at once exactly one wins; it reads back. */
  @Test
  void ofConcurrentCreatesOfOneCampaignExactlyOneWins() throws Exception {
    CampaignId id = newCampaign();
    CampaignId raced = new CampaignId(id.value() + "-raced");
    Instant now = Instant.now();
    List<Boolean> created =
        Concurrently.run(
            12,
            i ->
                () ->
                    clients()
                        .campaignStore(i)
                        .create(new Campaign(raced, "name " + i, 1 + i % 3, null, now, now)));

    assertThat(created).containsOnlyOnce(true);
    int winner = created.indexOf(true);
    assertThat(clients().campaignStore(1).find(raced))
        .contains(new Campaign(raced, "name " + winner, 1 + winner % 3, null, now, now));
    assertThat(clients().campaignStore(2).find(new CampaignId(id.value() + "-never"))).isEmpty();
    assertThat(clients().campaignStore(2).couponsAdded(new CampaignId(id.value() + "-never")))
        .isEmpty();
    assertThat(additions(0, raced).inProgress()).isFalse();
  }

  /**
   * A code already present, in the store or earlier in the same list, is skipped and counted as
   * such; a repeat adds only what is new; the stock counts each code once; the additions counter
   * moved with each seeding that added coupons.
   */
  @Test
  void seedingIsIdempotentByCode() {
    CampaignId id = newCampaign();
    PoolAdditions before = additions(0, id);
    List<CouponCode> first = new ArrayList<>(codes("A", 0, 3));
    first.add(new CouponCode("A1"));

    assertThat(clients().couponStore(0).add(id, first)).isEqualTo(new CouponStore.AddResult(3, 1));
    PoolAdditions afterFirst = additions(1, id);
    assertThat(clients().couponStore(1).add(id, codes("A", 0, 5)))
        .isEqualTo(new CouponStore.AddResult(2, 3));
    PoolAdditions afterSecond = additions(2, id);
    assertThat(clients().couponStore(2).add(id, codes("A", 0, 5)))
        .isEqualTo(new CouponStore.AddResult(0, 5));

    assertThat(clients().couponStore(0).stock(id)).isEqualTo(new Stock(5, 0));
    assertThat(afterFirst.count()).isGreaterThan(before.count());
    assertThat(afterSecond.count()).isGreaterThan(afterFirst.count());
    assertThat(List.of(afterFirst, afterSecond, additions(0, id)))
        .noneMatch(PoolAdditions::inProgress);
  }

  /**
   * A seeding through every client at once, each of the same 300 codes and 50 of its own: every
   * code is added exactly once over all calls (added sums to 450, skipped to the rest), and the
   * stock is exact. (A seeding that could not count itself as ended may leave the additions in
   * progress until its lease is over: that only keeps the sold-out fast path off.)
   */
  @Test
  void concurrentSeedingsOfTheSameCodesAddEachOnce() throws Exception {
    CampaignId id = newCampaign();
    int calls = CLIENTS;
    List<CouponStore.AddResult> results =
        Concurrently.run(
            calls,
            i -> {
              List<CouponCode> mine = new ArrayList<>(codes("S", 0, 300));
              mine.addAll(codes("OWN" + i + "-", 0, 50));
              return () -> clients().couponStore(i).add(id, mine);
            });

    int distinct = 300 + calls * 50;
    assertThat(results.stream().mapToLong(CouponStore.AddResult::added).sum()).isEqualTo(distinct);
    assertThat(results.stream().mapToLong(CouponStore.AddResult::skipped).sum())
        .isEqualTo(calls * 350L - distinct);
    assertThat(clients().couponStore(1).stock(id)).isEqualTo(new Stock(distinct, 0));
    assertThat(additions(2, id).count()).isPositive();
  }
}
