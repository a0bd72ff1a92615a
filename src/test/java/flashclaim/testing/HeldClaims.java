package flashclaim.testing;

import flashclaim.admission.FairAdmission;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimListener;
import flashclaim.claim.ClaimOutcome;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Test-only observer of claims, present where {@value #PROPERTY} is true: it records the codes
 * claimed per campaign in the order the claims were served, across all instances of the test JVM,
 * and holds the claims of a {@link #hold held} campaign in flight (their coupon already taken)
 * until the test {@link #release releases} it, at most a minute.
 */
@Singleton
@Requires(property = HeldClaims.PROPERTY, value = "true")
public final class HeldClaims implements ClaimListener {
  public static final String PROPERTY = "flashclaim.test.held-claims";
  private static final Map<String, CountDownLatch> HELD = new ConcurrentHashMap<>();
  private static final Map<String, List<String>> SERVED = new ConcurrentHashMap<>();

  /**
   * One instance with one claim slot that admits no claim to wait, and holds claims on request:
   * while its slot is {@link #holdTheSlot held}, every other claim is refused 503 {@code
   * overloaded} at once. {@code more} adds or replaces properties.
   */
  public static ServiceInstance oneSlot(Map<String, Object> more) {
    Map<String, Object> properties =
        new HashMap<>(
            Map.of(
                PROPERTY, "true",
                CountedTokens.PROPERTY, "true",
                "flashclaim.admission.limit", "fixed",
                "flashclaim.admission.initial-limit", 1,
                "flashclaim.admission.max-queued", 0,
                "flashclaim.claim.deadline", "60s",
                "flashclaim.firestore.call-timeout", "30s"));
    properties.putAll(more);
    return ServiceInstance.start(properties);
  }

  /**
   * Holds the one slot of {@code one} ({@link #oneSlot}) with a claim by {@code holder} of {@code
   * campaign}, made here with one coupon, until the test {@link #release releases} it.
   */
  public static Future<Api.Response> holdTheSlot(
      ServiceInstance one,
      ExecutorService clients,
      String campaign,
      String holder)
      throws InterruptedException {
    URI url = one.url();
    Api.createCampaign(url, campaign, 1, 1);
    hold(campaign);
    Future<Api.Response> held =
        clients.submit(() -> Claimer.claim(url, campaign, Tokens.user(holder), null));
    awaitInFlight(one.context().getBean(FairAdmission.class), 1);
    return held;
  }

  /** Waits, at most 30 s, until exactly {@code expected} claims hold a slot of {@code admission}. */
  public static void awaitInFlight(FairAdmission admission, int expected)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (admission.inFlight() != expected && System.nanoTime() < until) {
      Thread.sleep(2);
    }
    if (admission.inFlight() != expected) {
      throw new AssertionError(admission.inFlight() + " claims hold a slot, not " + expected);
    }
  }

  /** From now on, claims of {@code campaign} stay in flight until it is released. */
  public static void hold(String campaign) {
    HELD.put(campaign, new CountDownLatch(1));
  }

  /** Lets the held claims of {@code campaign}, and later ones, answer. */
  public static void release(String campaign) {
    CountDownLatch latch = HELD.remove(campaign);
    if (latch != null) {
      latch.countDown();
    }
  }

  /** The codes claimed in {@code campaign}, in the order the claims were served. */
  public static List<String> served(String campaign) {
    return List.copyOf(SERVED.getOrDefault(campaign, List.of()));
  }

  @Override
  public void claimed(CampaignId campaign, ClaimOutcome outcome, Duration took) {
    if (outcome instanceof ClaimOutcome.Claimed claimed) {
      SERVED
          .computeIfAbsent(campaign.value(), c -> new CopyOnWriteArrayList<>())
          .add(claimed.claim().code().value());
    }
    CountDownLatch latch = HELD.get(campaign.value());
    if (latch != null) {
      try {
        if (!latch.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("campaign " + campaign + " never released");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
