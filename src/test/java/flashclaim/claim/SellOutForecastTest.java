package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.campaign.CampaignId;
import flashclaim.testing.MovableClock;
import flashclaim.testing.SettableStock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link SellOutForecast} on their own, with a stock the test sets, reads run by hand
 * and a movable clock: when it reads, what it forecasts from the reads, and when it does not.
 */
class SellOutForecastTest {
  private static final CampaignId SALE = new CampaignId("sale");
  private static final Instant T0 = Instant.parse("2026-11-26T02:00:00Z");
  private static final SellOutConfig CONFIG =
      new SellOutConfig(true, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(5), 10, 1);

  private final MovableClock clock = new MovableClock(T0);
  private final SettableStock pool = new SettableStock();
  private final List<Runnable> reads = new ArrayList<>();
  private final SellOutForecast forecast =
      new SellOutForecast(pool, CONFIG, clock, reads::add);

  @Test
  void twoReadsOfAFallingStockForecastItsEndPlusTheMargin() {
    pool.remaining.set(1_000);
    assertThat(forecast.latestTurn(SALE)).isEmpty(); // nothing read yet; a read starts
    runReads();
    clock.move(Duration.ofMillis(500));
    assertThat(forecast.latestTurn(SALE)).isEmpty(); // one read says no rate; none due yet
    assertThat(reads).isEmpty();

    clock.move(Duration.ofMillis(500));
    pool.remaining.set(800); // 200 taken in the second since the first read
    forecast.latestTurn(SALE);
    runReads();
    // 800 left at 200 a second: gone 4 s after the read, told 1 s later
    assertThat(forecast.latestTurn(SALE)).contains(T0.plusSeconds(1 + 4 + 1));
    assertThat(forecast.reads()).isEqualTo(2);
  }

  /**
   * Users whose turns come after the latest turn worth telling are told it plus the time between
   * the first such user's first arrival and theirs: they come back in the order and at the rate
   * they came, not all at one moment; a turn before it is told as it is, and without a forecast
   * every turn is.
   */
  @Test
  void usersBeyondTheLatestComeBackSpacedAsTheyArrived() {
    assertThat(forecast.tell(SALE, T0.plusSeconds(2), T0))
        .as("no forecast yet")
        .isEqualTo(T0.plusSeconds(2));
    readFallingStock(1_000, 800); // latest turn: 6 s after T0, as above
    Instant first = T0.plusMillis(300);
    assertThat(forecast.tell(SALE, T0.plusSeconds(3), T0)).isEqualTo(T0.plusSeconds(3));
    assertThat(forecast.tell(SALE, T0.plusSeconds(16), first))
        .as("the first beyond: the latest turn")
        .isEqualTo(T0.plusSeconds(6));
    assertThat(forecast.tell(SALE, T0.plusSeconds(26), first.plusMillis(250)))
        .isEqualTo(T0.plusSeconds(6).plusMillis(250));
    assertThat(forecast.tell(SALE, T0.plusSeconds(27), first.minusMillis(100)))
        .as("read after a later arrival: no earlier than the first")
        .isEqualTo(T0.plusSeconds(6));
    assertThat(SellOutForecast.spacedBeyond(T0, T0, T0.plusSeconds(2), 0.5))
        .isEqualTo(T0.plusSeconds(1));
    assertThat(SellOutForecast.spacedBeyond(T0, T0, T0.plusSeconds(2), 0))
        .as("no spacing: everyone the latest turn")
        .isEqualTo(T0);
  }

  /**
   * A forecast that moves earlier (the stock fell faster for a moment) does not tell a later user
   * an earlier moment than users before them were told; one that moves later does.
   */
  @Test
  void usersBeyondAreNotToldEarlierWhenTheForecastMovesEarlier() {
    readFallingStock(1_000, 800); // latest turn: 6 s after T0
    Instant first = T0.plusMillis(300);
    assertThat(forecast.tell(SALE, T0.plusSeconds(16), first)).isEqualTo(T0.plusSeconds(6));
    clock.move(Duration.ofSeconds(1));
    pool.remaining.set(400); // 400 in a second: 300 a second on average, gone 1.33 s after now
    forecast.latestTurn(SALE);
    runReads();
    assertThat(forecast.latestTurn(SALE).orElseThrow()).isBefore(T0.plusSeconds(6));
    assertThat(forecast.tell(SALE, T0.plusSeconds(20), first.plusMillis(100)))
        .isEqualTo(T0.plusSeconds(6).plusMillis(100));
  }

  /**
   * A forecast that comes after the book told turns beyond it tells the users after them no
   * earlier moment: they are spaced after the last turn told as booked, not all told it.
   */
  @Test
  void usersBeyondAreToldNoEarlierThanTurnsAlreadyToldAsBooked() {
    Instant booked = T0.plusSeconds(8);
    assertThat(forecast.tell(SALE, booked, T0)).as("no forecast yet").isEqualTo(booked);
    readFallingStock(1_000, 800); // latest turn: 6 s after T0
    Instant first = T0.plusMillis(300);
    assertThat(forecast.tell(SALE, T0.plusSeconds(16), first)).isEqualTo(booked);
    assertThat(forecast.tell(SALE, T0.plusSeconds(17), first.plusMillis(100)))
        .isEqualTo(booked.plusMillis(100));
  }

  /** Once the forecast stands no longer, the next user beyond a new one is the first again. */
  @Test
  void theFirstUserBeyondStartsOverWithANewForecast() {
    readFallingStock(1_000, 800);
    assertThat(forecast.tell(SALE, T0.plusSeconds(16), T0)).isEqualTo(T0.plusSeconds(6));
    clock.move(Duration.ofSeconds(6)); // the reads are stale: no forecast
    assertThat(forecast.tell(SALE, T0.plusSeconds(7), T0.plusSeconds(5)))
        .isEqualTo(T0.plusSeconds(7));
    runReads(); // the stock read again
    clock.move(Duration.ofSeconds(1));
    pool.remaining.set(600);
    forecast.latestTurn(SALE);
    runReads(); // and a second later: a forecast again
    Instant latest = forecast.latestTurn(SALE).orElseThrow();
    assertThat(forecast.tell(SALE, latest.plusSeconds(20), T0.plusSeconds(7)))
        .as("counted from its own first arrival, not the old one")
        .isEqualTo(latest);
  }

  @Test
  void aPastSellOutIsToldAsNowPlusTheMarginAndAStaleOneNotAtAll() {
    readFallingStock(100, 0);
    clock.move(Duration.ofMillis(300)); // gone at the last read: told now plus the margin
    assertThat(forecast.latestTurn(SALE)).contains(clock.instant().plus(CONFIG.margin()));

    pool.failing = true; // the store is away: the last reads stand until they are stale
    clock.move(Duration.ofSeconds(1));
    assertThat(forecast.latestTurn(SALE)).contains(clock.instant().plus(CONFIG.margin()));
    runReads();
    clock.move(Duration.ofSeconds(5));
    assertThat(forecast.latestTurn(SALE)).isEmpty();
  }

  @Test
  void couponsAddedStartTheRateOverAndAStillStockForecastsNothing() {
    pool.remaining.set(500);
    forecast.latestTurn(SALE);
    runReads();
    clock.move(Duration.ofSeconds(1));
    pool.remaining.set(900); // an admin added 400 codes
    forecast.latestTurn(SALE);
    runReads();
    assertThat(forecast.latestTurn(SALE)).isEmpty();
    clock.move(Duration.ofSeconds(1));
    forecast.latestTurn(SALE); // nobody claimed meanwhile: a rate of 0 forecasts nothing
    runReads();
    assertThat(forecast.latestTurn(SALE)).isEmpty();
  }

  @Test
  void atMostOneReadPerCampaignIsInFlightAndNoneWhenDisabled() {
    pool.remaining.set(10);
    forecast.latestTurn(SALE);
    clock.move(Duration.ofSeconds(3));
    forecast.latestTurn(SALE); // the first has not come back: no second
    assertThat(reads).hasSize(1);
    forecast.latestTurn(new CampaignId("other"));
    assertThat(reads).hasSize(2);

    SellOutForecast off =
        new SellOutForecast(
            pool,
            new SellOutConfig(false, Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(5), 10, 0.1),
            clock,
            reads::add);
    assertThat(off.latestTurn(SALE)).isEmpty();
    assertThat(reads).hasSize(2);
  }

  /** Two reads a second apart: the stock at {@code first}, then at {@code second}. */
  private void readFallingStock(long first, long second) {
    pool.remaining.set(first);
    forecast.latestTurn(SALE);
    runReads();
    clock.move(Duration.ofSeconds(1));
    pool.remaining.set(second);
    forecast.latestTurn(SALE);
    runReads();
  }

  private void runReads() {
    List<Runnable> due = new ArrayList<>(reads);
    reads.clear();
    due.forEach(Runnable::run);
  }
}
