package flashclaim.results;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.Campaign;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import flashclaim.redemption.OrderId;
import flashclaim.redemption.RedeemableCoupon;
import flashclaim.redemption.RedemptionState;
import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link ResultsStore}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own and no service: the export holds exactly the
 * claims, each with its holder, time and redemption, sorted by user key and then by the claim
 * record's id (slot as text), read in pages; it is one moment of the store, so claims and
 * redemptions that commit while it is read are not in it, however many pages are left; exports
 * taken while claims race see each claim once and never lose one. A user's claims and a code's
 * record are what the export says of them.
 */
public abstract class ResultsStoreContract extends StoreContract {
  /** Rows per page or fetch: small, so that every export here reads many pages. */
  private static final int PAGE = 3;

  private ResultsStore results(int client) {
    return clients().resultsStore(client, PAGE);
  }

  /** What the store holds of a claim, as the export must show it. */
  private record Expected(String code, String user, int slot, Instant claimedAt) {}

  private Expected won(int client, Campaign campaign, String user, int slot) {
    ClaimStore.Attempt attempt = claim(client, campaign, user, slot);
    assertThat(attempt).isInstanceOf(ClaimStore.Attempt.Won.class);
    Claim claim = ((ClaimStore.Attempt.Won) attempt).claim();
    return new Expected(claim.code().value(), new UserId(user).key(), slot, claim.claimedAt());
  }

  private void redemption(Campaign campaign, String code, RedemptionState next, String order) {
    RedeemableCoupon seen =
        clients().redemptionStore(1).find(campaign.id(), new CouponCode(code)).orElseThrow();
    assertThat(
            clients()
                .redemptionStore(1)
                .transition(seen, next, new OrderId(order), Instant.now()))
        .isPresent();
  }

  private static List<CouponRecord> all(ClaimExport export) {
    List<CouponRecord> rows = new ArrayList<>();
    try (export) {
      export.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** The export's order: user key, then the claim record's id, whose slot sorts as text. */
  private static final Comparator<Expected> EXPORT_ORDER =
      Comparator.comparing(Expected::user).thenComparing(e -> Integer.toString(e.slot()));

  /**
   * 7 users (one with 3 coupons, another with 2) claim 12 of 20 coupons; one coupon is redeemed,
   * another redeemed and then cancelled: the export holds the 12 claims exactly, in order, paged,
   * with {@code orderId} only on the redeemed one; the look-ups agree with it.
   */
  @Test
  void theExportHoldsEveryClaimExactlyInOrder() {
    Campaign campaign = newCampaign(3, 20);
    List<Expected> claims = new ArrayList<>();
    for (int slot = 0; slot < 3; slot++) {
      claims.add(won(slot, campaign, "many", slot));
    }
    claims.add(won(0, campaign, "two", 0));
    claims.add(won(1, campaign, "two", 1));
    for (int u = 0; u < 7; u++) {
      claims.add(won(u, campaign, "one-" + u, 0));
    }
    claims.sort(EXPORT_ORDER);
    String redeemed = claims.get(2).code();
    String cancelled = claims.get(5).code();
    redemption(campaign, redeemed, RedemptionState.REDEEMED, "order-1");
    redemption(campaign, cancelled, RedemptionState.REDEEMED, "order-2");
    redemption(campaign, cancelled, RedemptionState.ASSIGNED, "order-2");

    Instant before = Instant.now().minusSeconds(60);
    ClaimExport export = results(2).export(campaign.id());
    Instant readAt = export.readAt();
    List<CouponRecord> rows = all(export);

    assertThat(readAt).isAfter(before).isBeforeOrEqualTo(Instant.now().plusSeconds(1));
    List<CouponRecord> expected =
        claims.stream()
            .map(
                c ->
                    new CouponRecord(
                        c.code(),
                        c.code().equals(redeemed) ? CouponState.REDEEMED : CouponState.CLAIMED,
                        c.user(),
                        c.claimedAt(),
                        c.code().equals(redeemed) ? "order-1" : null))
            .toList();
    assertThat(rows).containsExactlyElementsOf(expected);

    UserId many = new UserId("many");
    assertThat(results(0).claimsOf(campaign.id(), many))
        .containsExactlyElementsOf(rows.stream().filter(r -> r.user().equals(many.key())).toList())
        .hasSize(3);
    assertThat(results(0).claimsOf(campaign.id(), new UserId("nobody"))).isEmpty();
    for (CouponRecord row : rows) {
      assertThat(results(1).coupon(campaign.id(), new CouponCode(row.code()))).contains(row);
    }
    Set<String> claimed = new HashSet<>(rows.stream().map(CouponRecord::code).toList());
    List<CouponCode> free =
        codes(campaign, 20).stream().filter(c -> !claimed.contains(c.value())).toList();
    assertThat(free).hasSize(8);
    for (CouponCode code : free) {
      assertThat(results(1).coupon(campaign.id(), code))
          .contains(new CouponRecord(code.value(), CouponState.AVAILABLE, null, null, null));
    }
    assertThat(results(1).coupon(campaign.id(), new CouponCode("NOT-THERE"))).isEmpty();
  }

  /** A campaign that has no claims, or does not exist, exports nothing. */
  @Test
  void aCampaignWithoutClaimsExportsNothing() {
    Campaign campaign = newCampaign(1, 5);
    assertThat(all(results(0).export(campaign.id()))).isEmpty();
    assertThat(all(results(0).export(newCampaignId()))).isEmpty();
  }

  /**
   * An export that has read its first page while 10 more users claim and a claimed coupon is
   * redeemed still shows the store of its read time: the first 9 claims, none redeemed, over many
   * more pages. An export opened afterwards shows all 19 and the redemption.
   */
  @Test
  void theExportIsOneMomentOfTheStoreWhileClaimsContinue() {
    Campaign campaign = newCampaign(1, 30);
    List<Expected> first = new ArrayList<>();
    for (int u = 0; u < 9; u++) {
      first.add(won(u, campaign, "early-" + u, 0));
    }
    first.sort(EXPORT_ORDER);

    ClaimExport during = results(2).export(campaign.id());
    List<CouponRecord> rows = new ArrayList<>();
    rows.add(during.next()); // the first page is read
    List<Expected> later = new ArrayList<>();
    for (int u = 0; u < 10; u++) {
      later.add(won(u, campaign, "late-" + u, 0));
    }
    redemption(campaign, first.get(8).code(), RedemptionState.REDEEMED, "order-9");
    rows.addAll(all(during));

    assertThat(rows)
        .extracting(CouponRecord::code)
        .containsExactlyElementsOf(first.stream().map(Expected::code).toList());
    assertThat(rows).allMatch(r -> r.state() == CouponState.CLAIMED && r.orderId() == null);

    List<CouponRecord> after = all(results(2).export(campaign.id()));
    assertThat(after).hasSize(19);
    assertThat(after)
        .filteredOn(r -> r.state() == CouponState.REDEEMED)
        .extracting(CouponRecord::code, CouponRecord::orderId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(first.get(8).code(), "order-9"));
  }

  /**
   * 60 users race for 40 coupons through two clients while the third exports again and again:
   * every export holds distinct coupons of distinct users, in order, never fewer than the one
   * before; the last holds exactly the 40 claims.
   */
  @Test
  void exportsWhileClaimsRaceLoseNoClaimAndRepeatNone() throws Exception {
    Campaign campaign = newCampaign(1, 40);
    List<Object> results =
        Concurrently.run(
            61,
            i ->
                () -> {
                  if (i < 60) {
                    return claim(i % 2, campaign, "racer-" + i, 0);
                  }
                  List<List<CouponRecord>> exports = new ArrayList<>();
                  for (int e = 0; e < 8; e++) {
                    exports.add(all(results(2).export(campaign.id())));
                  }
                  return exports;
                });

    @SuppressWarnings("unchecked")
    List<List<CouponRecord>> exports = (List<List<CouponRecord>>) results.get(60);
    int size = 0;
    for (List<CouponRecord> export : exports) {
      assertThat(export.stream().map(CouponRecord::code).distinct()).hasSameSizeAs(export);
      assertThat(export.stream().map(CouponRecord::user).distinct()).hasSameSizeAs(export);
      assertThat(export).extracting(CouponRecord::user).isSorted();
      assertThat(export.size()).isGreaterThanOrEqualTo(size);
      size = export.size();
    }
    List<Expected> won =
        results.subList(0, 60).stream()
            .filter(ClaimStore.Attempt.Won.class::isInstance)
            .map(r -> ((ClaimStore.Attempt.Won) r).claim())
            .map(c -> new Expected(c.code().value(), null, 0, c.claimedAt()))
            .toList();
    assertThat(won).hasSize(40);
    assertThat(all(results(0).export(campaign.id())))
        .extracting(CouponRecord::code)
        .containsExactlyInAnyOrderElementsOf(won.stream().map(Expected::code).toList());
  }
}
