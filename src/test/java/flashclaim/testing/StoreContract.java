package flashclaim.testing;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Deadline;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the store contracts: {@value #CLIENTS} clients of one real store (as {@value #CLIENTS}
 * instances have), opened by a subclass per store before the class's tests and closed after them,
 * and campaigns and claims made through them. No service is started.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StoreContract {
  protected static final int CLIENTS = 3;
  private static final int MAX_CONTENDED = 50;

  private StoreClients clients;
  private int campaignCounter;

  /** Opens {@code n} clients of the store under test. */
  protected abstract StoreClients openClients(int n);

  @BeforeAll
  void openStoreClients() {
    clients = openClients(CLIENTS);
  }

  @AfterAll
  void closeStoreClients() {
    clients.close();
  }

  /** The clients of the store under test. */
  protected final StoreClients clients() {
    return clients;
  }

  /** A campaign id that no other campaign of the test run has. */
  protected final CampaignId newCampaignId() {
    return new CampaignId(
        getClass().getSimpleName().toLowerCase()
            + "-"
            + System.nanoTime() % 100_000_000
            + "-"
            + (++campaignCounter));
  }

  /** A new open campaign, created through client 0 and seeded there with {@link #codes}. */
  protected final Campaign newCampaign(int perUserLimit, int coupons) {
    Campaign campaign =
        new Campaign(newCampaignId(), "contract", perUserLimit, null, null, Instant.now());
    assertThat(clients.campaignStore(0).create(campaign)).isTrue();
    if (coupons > 0) {
      assertThat(clients.couponStore(0).add(campaign.id(), codes(campaign, coupons)).added())
          .isEqualTo(coupons);
    }
    return campaign;
  }

  /** The first {@code n} codes that {@link #newCampaign} seeds into {@code campaign}. */
  protected static List<CouponCode> codes(Campaign campaign, int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> new CouponCode("C" + i + "-" + campaign.id().value()))
        .toList();
  }

  /** A deadline of 10 s from now: room for a loaded machine, not a store that hangs. */
  protected static Deadline deadline() {
    return Deadline.after(Instant.now(), Duration.ofSeconds(10), Clock.systemUTC());
  }

  /**
   * Claims slot {@code slot} for {@code user} through client {@code client} until the store answers
   * other than Contended, as a client retrying a lost race would, or FoundEmptyBefore, which
   * {@code ClaimService} calls again for when it cannot prove the pool empty from it.
   */
  protected final ClaimStore.Attempt claim(int client, Campaign campaign, String user, int slot) {
    for (int attempt = 0; attempt < MAX_CONTENDED; attempt++) {
      ClaimStore.Attempt answer =
          clients.claimStore(client).tryClaim(campaign, new UserId(user), slot, deadline());
      if (!(answer instanceof ClaimStore.Attempt.Contended
          || answer instanceof ClaimStore.Attempt.FoundEmptyBefore)) {
        return answer;
      }
    }
    throw new AssertionError("contended " + MAX_CONTENDED + " times in a row: " + user);
  }
}
