package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Deadline;
import flashclaim.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The per-instance campaign cache of the claim path: a copy is never served once {@code
 * campaign-cache-ttl} has passed since its read began (the bound of a pause), and past half that
 * it is read again once in the background, so that steady claims never find it expired.
 */
class CampaignCacheTest {
  private static final Duration TTL = Duration.ofSeconds(1);
  private static final CampaignId ID = new CampaignId("cached");

  private final MovableClock clock = new MovableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final Store store = new Store(new Campaign(ID, "c", 1, null, null, clock.instant()));
  private final List<Runnable> background = new ArrayList<>();
  private final CampaignService service =
      new CampaignService(
          store,
          null,
          new SeedingConfig(1, 1, 1, Duration.ofMinutes(1)),
          new CampaignCacheConfig(TTL, 10),
          clock,
          background::add);

  @Test
  void aCopyIsNeverServedPastTheTtlOfItsRead() {
    assertThat(service.find(ID)).isPresent();
    store.pause();
    clock.move(TTL.minusMillis(1));
    assertThat(service.cached(ID)).map(Campaign::paused).contains(false);
    clock.move(Duration.ofMillis(1));
    assertThat(service.cached(ID)).isEmpty();
    assertThat(service.find(ID)).map(Campaign::paused).contains(true);
    assertThat(store.reads.get()).isEqualTo(2);
  }

  @Test
  void pastHalfItsLifetimeACopyIsReadAgainOnceInTheBackground() {
    assertThat(service.find(ID)).isPresent();
    clock.move(TTL.dividedBy(2).minusMillis(1));
    assertThat(service.cached(ID)).isPresent();
    assertThat(background).isEmpty();

    store.pause();
    clock.move(Duration.ofMillis(1));
    assertThat(service.cached(ID)).map(Campaign::paused).contains(false);
    assertThat(service.cached(ID)).isPresent();
    assertThat(background).hasSize(1); // one read, however many lookups
    background.remove(0).run();
    assertThat(store.reads.get()).isEqualTo(2);

    // the new copy counts from its own read
    clock.move(TTL.minusMillis(1));
    assertThat(service.cached(ID)).map(Campaign::paused).contains(true);
  }

  /** One campaign, whose reads are counted. */
  private static final class Store implements CampaignStore {
    final AtomicInteger reads = new AtomicInteger();
    final AtomicReference<Campaign> campaign;

    Store(Campaign campaign) {
      this.campaign = new AtomicReference<>(campaign);
    }

    void pause() {
      Campaign c = campaign.get();
      campaign.set(
          new Campaign(
              c.id(), c.name(), c.perUserLimit(), c.startsAt(), c.endsAt(), c.createdAt(), true,
              c.version() + 1));
    }

    @Override
    public Optional<Campaign> find(CampaignId id, Deadline deadline) {
      reads.incrementAndGet();
      return Optional.of(campaign.get());
    }

    @Override
    public boolean create(Campaign campaign) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PoolAdditions> couponsAdded(CampaignId id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CampaignPage list(int limit, Optional<CampaignPage.After> after) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<Campaign> update(CampaignId id, Function<Campaign, Optional<Update>> change) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ChangePage changes(CampaignId id, int limit, OptionalLong below) {
      throw new UnsupportedOperationException();
    }
  }
}
