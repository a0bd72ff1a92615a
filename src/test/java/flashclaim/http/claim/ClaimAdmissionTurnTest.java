package flashclaim.http.claim;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import flashclaim.admission.AdmissionConfig;
import flashclaim.admission.FairAdmission;
import flashclaim.admission.Ticket;
import flashclaim.admission.TicketCodec;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimConfig;
import flashclaim.claim.SellOutConfig;
import flashclaim.claim.SellOutForecast;
import flashclaim.http.problem.Problem;
import flashclaim.testing.MovableClock;
import flashclaim.testing.SettableStock;
import io.micronaut.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A returning user whose ticket carries a turn beyond the latest turn worth telling (the
 * campaign's expected sell-out plus the margin) is told that latest turn, not their own: they were
 * booked far ahead before any forecast stood, and later clicks are told the forecast. Without a
 * forecast, their own turn stands.
 */
class ClaimAdmissionTurnTest {
  private static final Instant T0 = Instant.parse("2026-11-27T08:00:00Z");
  private static final String CAMPAIGN = "sale";
  private static final String USER = "early-user";

  private final MovableClock clock = new MovableClock(T0);
  private final SettableStock stock = new SettableStock();

  @Test
  void aTurnBookedBeyondTheForecastIsToldAsTheForecastWhenTheUserComesBackEarly() {
    for (boolean forecastStands : new boolean[] {true, false}) {
      SellOutForecast sellOut =
          new SellOutForecast(
              stock,
              new SellOutConfig(
                  true, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(5), 10, 2),
              clock,
              Runnable::run);
      AdmissionConfig config = config();
      TicketCodec tickets = new TicketCodec(config, clock);
      FairAdmission admission =
          new FairAdmission(
              config, SimpleLimiter.newBuilder().limit(FixedLimit.of(1)).build(), clock, (delay, action) -> () -> {}, () -> 0);
      ClaimAdmission claims =
          new ClaimAdmission(
              admission,
              tickets,
              config,
              new ClaimConfig(Duration.ofSeconds(2), Duration.ofSeconds(1)),
              sellOut);
      // the instance's one slot is taken: with a slot free, a user back early is served
      // (early-when-idle)
      assertThat(
              admission
                  .enter(clock.instant(), clock.instant().plusSeconds(2))
                  .toCompletableFuture()
                  .join())
          .isInstanceOf(FairAdmission.Entry.Admitted.class);
      Instant firstArrival = clock.instant();
      Ticket booked =
          tickets.first(firstArrival).withTurn(firstArrival.plusSeconds(60)); // far ahead
      clock.move(Duration.ofSeconds(1));
      if (forecastStands) {
        stock.remaining.set(1_000);
        sellOut.latestTurn(new CampaignId(CAMPAIGN)); // reads 1,000 now
        clock.move(Duration.ofSeconds(1));
        stock.remaining.set(800);
        // 200 a second: 800 gone 4 s after this read, told 1 s later: 5 s from now
        assertThat(sellOut.latestTurn(new CampaignId(CAMPAIGN)))
            .contains(clock.instant().plusSeconds(5));
      }

      Optional<HttpResponse<?>> answer =
          claims.refuseAtOnce(
              new ClaimRequest(
                  CAMPAIGN,
                  USER,
                  clock.instant(),
                  clock.instant(),
                  List.of(tickets.encode(CAMPAIGN, USER, booked)),
                  "/v1/campaigns/" + CAMPAIGN + "/claims"));

      assertThat(answer).as("refused before the turn it is told").isPresent();
      assertThat(answer.get().code()).isEqualTo(503);
      long told = Long.parseLong(answer.get().getHeaders().get(Problem.RETRY_AFTER_MS));
      if (forecastStands) {
        assertThat(told).as("the latest turn worth telling").isEqualTo(5_000);
      } else {
        assertThat(told).as("the longest Retry-After; the turn stays in the ticket")
            .isEqualTo(30_000);
      }
    }
  }

  private static AdmissionConfig config() {
    return new AdmissionConfig(
        "fixed", 1, 1, 1, 10, Duration.ofMillis(100), Duration.ofSeconds(2),
        Duration.ofSeconds(30), Duration.ofMinutes(5), Duration.ofSeconds(1), 0.5, 0.05,
        Duration.ofSeconds(1), 1.2, AdmissionConfig.DEVELOPMENT_SECRET, Duration.ofMinutes(10),
        Duration.ofMillis(150), Duration.ZERO, true, 4, 2, true, Duration.ofMillis(500));
  }
}
