package flashclaim.audit;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.Campaign;
import flashclaim.claim.ClaimStore;
import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of an {@link AuditStore}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own and no service: the view streams every coupon and
 * claim record sorted by coupon id, page by page, with the holder on both sides; and it is one
 * moment of the store: audits that read while claims commit through the other clients always find
 * each claim wholly in or wholly out (no G1, G2, G3 or G5 finding), with as many claim records as
 * assigned coupons, and the last one counts every claim exactly.
 */
public abstract class AuditStoreContract extends StoreContract {

  private AuditReport audit(int client, Campaign campaign, int pageSize) {
    return new AuditService(clients().campaignStore(client), clients().auditStore(client, pageSize))
        .audit(campaign.id())
        .orElseThrow();
  }

  /**
   * 30 coupons, 12 claimed, read in pages of 7: every coupon and claim record comes once, sorted by
   * coupon id, each claim record naming its coupon's holder; the pages are counted.
   */
  @Test
  void theViewStreamsEveryRowSortedAndPaged() {
    Campaign campaign = newCampaign(1, 30);
    for (int i = 0; i < 12; i++) {
      assertThat(claim(i, campaign, "reader-" + i, 0)).isInstanceOf(ClaimStore.Attempt.Won.class);
    }
    Instant before = Instant.now().minusSeconds(60);
    clients()
        .auditStore(2, 7)
        .read(
            campaign.id(),
            view -> {
              List<AuditStore.CouponRow> coupons = new ArrayList<>();
              view.coupons().forEachRemaining(coupons::add);
              List<AuditStore.ClaimRow> claims = new ArrayList<>();
              view.claimsByCoupon().forEachRemaining(claims::add);
              assertThat(coupons).hasSize(30);
              assertThat(coupons).extracting(AuditStore.CouponRow::couponId).isSorted();
              assertThat(coupons).filteredOn(AuditStore.CouponRow::assigned).hasSize(12);
              assertThat(coupons)
                  .filteredOn(c -> !c.assigned())
                  .allMatch(c -> c.offered() && c.assignedTo() == null && c.claimId() == null);
              assertThat(claims).hasSize(12);
              assertThat(claims).extracting(AuditStore.ClaimRow::couponId).isSorted();
              for (AuditStore.ClaimRow claim : claims) {
                AuditStore.CouponRow coupon =
                    coupons.stream()
                        .filter(c -> c.couponId().equals(claim.couponId()))
                        .findFirst()
                        .orElseThrow();
                assertThat(coupon.assignedTo()).isEqualTo(claim.userKey());
                assertThat(coupon.claimId()).isEqualTo(claim.claimId());
              }
              assertThat(view.pages()).isGreaterThan(2);
              assertThat(view.readAt()).isAfter(before);
              return null;
            });
  }

  /**
   * 90 users claim 60 coupons through two clients while the third audits again and again: every
   * audit finds no problem and as many claim records as assigned coupons; the last counts 60.
   */
  @Test
  void auditsWhileClaimsCommitSeeEachClaimWhollyInOrOut() throws Exception {
    Campaign campaign = newCampaign(1, 60);
    List<Object> results =
        Concurrently.run(
            91,
            i ->
                () -> {
                  if (i < 90) {
                    return claim(i % 2, campaign, "racer-" + i, 0);
                  }
                  List<AuditReport> reports = new ArrayList<>();
                  for (int a = 0; a < 15; a++) {
                    reports.add(audit(2, campaign, 1000));
                  }
                  return reports;
                });

    @SuppressWarnings("unchecked")
    List<AuditReport> during = (List<AuditReport>) results.get(90);
    for (AuditReport report : during) {
      assertThat(report.ok()).as(report.problems().toString()).isTrue();
      assertThat(report.claims()).isEqualTo(report.assigned());
      assertThat(report.coupons()).isEqualTo(60);
    }
    assertThat(results.subList(0, 90))
        .filteredOn(ClaimStore.Attempt.Won.class::isInstance)
        .hasSize(60);
    AuditReport last = audit(0, campaign, 1000);
    assertThat(last.ok()).isTrue();
    assertThat(last.assigned()).isEqualTo(60);
    assertThat(last.claims()).isEqualTo(60);
  }
}
