package flashclaim.redemption;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.audit.AuditReport;
import flashclaim.audit.AuditService;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.ClaimStore;
import flashclaim.lock.LockConfig;
import flashclaim.lock.LockService;
import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link RedemptionStore}, run against the real store by a subclass per store,
 * with {@value #CLIENTS} store clients of their own and no service: coupons read by code with their
 * state, a code found in the campaigns that hold it, a transition conditioned on the version read
 * (of racing writers that saw one version exactly one writes) that leaves the assignment and the
 * claim records alone; and, with a {@link RedemptionService} over each client, identical deliveries
 * racing through every client apply exactly once per coupon, and racing redeems and cancels of one
 * order end where their answers say.
 */
public abstract class RedemptionStoreContract extends StoreContract {
  private static final Clock CLOCK = Clock.systemUTC();
  private static final OrderId ORDER = new OrderId("order-1");

  private final List<RedemptionService> services = new ArrayList<>();

  @BeforeAll
  void startServices() {
    LockConfig config =
        new LockConfig(
            Duration.ofSeconds(10),
            Duration.ofSeconds(60),
            Duration.ofMillis(20),
            Duration.ofMillis(500),
            0.33,
            2);
    for (int i = 0; i < CLIENTS; i++) {
      // Its renewal threads are daemons, idle once the class's deliveries are done.
      LockService lock = new LockService(clients().lockStore(i), config, CLOCK);
      services.add(new RedemptionService(store(i), lock, CLOCK));
    }
  }

  /** The port over store client {@code client}, one object per client. */
  protected final RedemptionStore store(int client) {
    return clients().redemptionStore(client);
  }

  private RedemptionService service(int client) {
    return services.get(Math.floorMod(client, CLIENTS));
  }

  /** A campaign whose first {@code claimed} of {@code coupons} codes are claimed, one per user. */
  private Campaign claimedCampaign(int coupons, int claimed) {
    Campaign campaign = newCampaign(1, coupons);
    for (int i = 0; i < claimed; i++) {
      assertThat(claim(i, campaign, "shopper-" + i, 0)).isInstanceOf(ClaimStore.Attempt.Won.class);
    }
    return campaign;
  }

  private List<RedeemableCoupon> byState(Campaign campaign, int n, RedemptionState state) {
    return codes(campaign, n).stream()
        .map(code -> store(0).find(campaign.id(), code).orElseThrow())
        .filter(c -> c.state() == state)
        .toList();
  }

  private void assertClaimsUntouched(Campaign campaign, int claimed) {
    AuditReport audit =
        new AuditService(clients().campaignStore(0), clients().auditStore(1, 1000))
            .audit(campaign.id())
            .orElseThrow();
    assertThat(audit.ok()).as(audit.problems().toString()).isTrue();
    assertThat(audit.assigned()).isEqualTo(claimed);
    assertThat(audit.claims()).isEqualTo(claimed);
  }

  // ---------------------------------------------------------------- the port

  /**
   * Coupons read by code with their state; a code is found in every campaign that holds it (up to
   * the limit); an unknown code is in none.
   */
  @Test
  void couponsAreFoundByCodeWithTheirState() {
    Campaign campaign = claimedCampaign(3, 1);
    assertThat(byState(campaign, 3, RedemptionState.ASSIGNED)).hasSize(1);
    assertThat(byState(campaign, 3, RedemptionState.UNASSIGNED)).hasSize(2);
    CouponCode code = codes(campaign, 1).get(0);
    assertThat(store(1).find(campaign.id(), new CouponCode("NOPE-" + campaign.id().value())))
        .isEmpty();
    assertThat(store(2).campaignsWithCode(code, 2)).containsExactly(campaign.id());

    Campaign other = claimedCampaign(0, 0);
    clients().couponStore(1).add(other.id(), List.of(code));
    assertThat(store(0).campaignsWithCode(code, 2))
        .containsExactlyInAnyOrder(campaign.id(), other.id());
    assertThat(store(0).campaignsWithCode(code, 1)).hasSize(1);
    assertThat(store(0).campaignsWithCode(new CouponCode("NOPE-" + other.id().value()), 2))
        .isEmpty();
  }

  /**
   * 12 transitions from one read version, through every client at once: exactly one is written; the
   * coupon then reads in its new state with its order, a new version, and a transition from the old
   * version writes nothing. The claim records and assignments stay as they were.
   */
  @Test
  void ofTransitionsFromOneVersionExactlyOneIsWritten() throws Exception {
    Campaign campaign = claimedCampaign(2, 2);
    RedeemableCoupon seen = byState(campaign, 2, RedemptionState.ASSIGNED).get(0);
    Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);

    List<Optional<RedeemableCoupon>> written =
        Concurrently.run(
            12,
            i ->
                () ->
                    store(i)
                        .transition(seen, RedemptionState.REDEEMED, new OrderId("order-" + i), at));

    List<RedeemableCoupon> won = written.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    RedeemableCoupon now = store(1).find(campaign.id(), seen.code()).orElseThrow();
    assertThat(now.state()).isEqualTo(RedemptionState.REDEEMED);
    assertThat(now.lastOrder()).isEqualTo(won.get(0).lastOrder());
    assertThat(now.version()).isNotEqualTo(seen.version());
    assertThat(store(2).transition(seen, RedemptionState.ASSIGNED, ORDER, at)).isEmpty();
    assertThat(store(2).transition(now, RedemptionState.ASSIGNED, now.lastOrder(), at)).isPresent();
    assertThat(store(0).find(campaign.id(), seen.code()).orElseThrow().state())
        .isEqualTo(RedemptionState.ASSIGNED);
    assertClaimsUntouched(campaign, 2);
  }

  // ---------------------------------------------------------------- the rules over the store

  /**
   * 5 claimed coupons each get the same redeem 6 times at once, through every client: per coupon
   * exactly one delivery applies it and the others answer already applied; a cancel then applies
   * once, and a repeated cancel is already applied. Claims stay as they were. The racing
   * deliveries name their campaign: the emulator's collection-group query by code, among writes to
   * the documents it reads, waits for the emulator's locks up to its 30 s timeout or fails UNKNOWN
   * (production queries outside a transaction take no locks); the cancel names only the code.
   */
  @Test
  void identicalDeliveriesRacingThroughEveryClientApplyExactlyOnce() throws Exception {
    int coupons = 5;
    int copies = 6;
    Campaign campaign = claimedCampaign(coupons, coupons);
    List<CouponCode> codes = codes(campaign, coupons);
    List<RedemptionOutcome> answers =
        Concurrently.run(
            coupons * copies,
            i ->
                () ->
                    service(i)
                        .apply(
                            new RedemptionEvent(
                                codes.get(i / copies),
                                campaign.id(),
                                ORDER,
                                RedemptionEvent.Kind.REDEEMED)));

    for (int c = 0; c < coupons; c++) {
      List<RedemptionOutcome> mine = answers.subList(c * copies, (c + 1) * copies);
      assertThat(mine).filteredOn(RedemptionOutcome.Applied.class::isInstance).hasSize(1);
      assertThat(mine)
          .filteredOn(RedemptionOutcome.AlreadyApplied.class::isInstance)
          .hasSize(copies - 1);
    }
    assertThat(byState(campaign, coupons, RedemptionState.REDEEMED)).hasSize(coupons);

    RedemptionEvent cancel =
        new RedemptionEvent(codes.get(0), null, ORDER, RedemptionEvent.Kind.CANCELLED);
    assertThat(service(1).apply(cancel)).isInstanceOf(RedemptionOutcome.Applied.class);
    assertThat(service(2).apply(cancel)).isInstanceOf(RedemptionOutcome.AlreadyApplied.class);
    assertClaimsUntouched(campaign, coupons);
  }

  /**
   * 4 redeems and 4 cancels of one order race through every client, on 6 fresh coupons in turn: the
   * redeem applies exactly once, the cancel at most once (only after it), every other delivery is
   * already applied or refused, and the coupon ends where the answers say: assigned when the cancel
   * applied, else redeemed by the order.
   */
  @Test
  void racingRedeemsAndCancelsEndWhereTheirAnswersSay() throws Exception {
    int rounds = 6;
    Campaign campaign = claimedCampaign(rounds, rounds);
    for (CouponCode code : codes(campaign, rounds)) {
      List<RedemptionOutcome> answers =
          Concurrently.run(
              8,
              i ->
                  () ->
                      service(i)
                          .apply(
                              new RedemptionEvent(
                                  code,
                                  campaign.id(),
                                  ORDER,
                                  i % 2 == 0
                                      ? RedemptionEvent.Kind.REDEEMED
                                      : RedemptionEvent.Kind.CANCELLED)));
      long redeemsApplied = 0;
      long cancelsApplied = 0;
      for (int i = 0; i < answers.size(); i++) {
        RedemptionOutcome answer = answers.get(i);
        assertThat(answer)
            .isInstanceOfAny(
                RedemptionOutcome.Applied.class,
                RedemptionOutcome.AlreadyApplied.class,
                RedemptionOutcome.InvalidTransition.class);
        if (answer instanceof RedemptionOutcome.Applied && i % 2 == 0) {
          redeemsApplied++;
        } else if (answer instanceof RedemptionOutcome.Applied) {
          cancelsApplied++;
        }
      }
      assertThat(redeemsApplied).as(code.value()).isEqualTo(1);
      assertThat(cancelsApplied).as(code.value()).isLessThanOrEqualTo(1);
      RedeemableCoupon end = store(2).find(campaign.id(), code).orElseThrow();
      assertThat(end.state())
          .isEqualTo(cancelsApplied == 1 ? RedemptionState.ASSIGNED : RedemptionState.REDEEMED);
      assertThat(end.lastOrder()).isEqualTo(ORDER);
    }
    assertClaimsUntouched(campaign, rounds);
  }
}
