package flashclaim.http;

import flashclaim.http.problem.Problem;
import flashclaim.http.problem.ProblemType;
import flashclaim.testing.Api;
import flashclaim.testing.RawHttp;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.Lifespan;
import net.jqwik.api.lifecycle.Store;
import net.jqwik.api.statistics.Statistics;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * G8 for any input, on every route, by generated requests ({@link FuzzRequests}): every answer is
 * 2xx, 3xx or 4xx, never 5xx; every error is {@code application/problem+json} with a {@code type}
 * and its own status (but for an answer to HEAD, which has no body); and a refused request (4xx)
 * changes nothing in the store, which is read directly before and after it ({@link
 * StoreBackend#snapshot()}); the one write a refusal may leave is the record of its
 * Idempotency-Key, which replays it. Requests go one at a time to one instance, so that the
 * snapshots before and after a request differ only by what that request did.
 *
 * <p>The store starts from a seed that every route can act on: an open campaign ({@value
 * FuzzRequests#OPEN}) with six coupons, two of them claimed by one user and one of those two
 * redeemed, and an ended campaign ({@value FuzzRequests#ENDED}). Accepted requests change it
 * (claims, new campaigns, more codes); when it has grown past {@value #RESEED_ABOVE} records it is
 * emptied and seeded again, which keeps the snapshots cheap.
 *
 * <p>A run sends {@value #TRIES} requests per store, enough for every route to be both refused and
 * accepted (which the run checks); more for a longer search: {@code @Property(tries = ...)}. A
 * failure is shrunk to a smallest failing request, which jqwik tries first on the next run.
 */
abstract class FuzzContract {
  /** The add-coupons limit of the fuzzed instance: small, so that going past it is cheap. */
  static final int MAX_CODES = 10;

  /** Records the store may grow to before it is seeded again. */
  static final int RESEED_ABOVE = 60;

  /** Requests per run and store. */
  static final int TRIES = 1000;

  /** The store of the subclass. */
  protected abstract StoreBackend backend();

  /**
   * The fuzzed instance, started on the property's first request and stopped when the property has
   * run (jqwik closes what a store of the property's lifespan holds).
   */
  private Target target() {
    return Store.getOrCreate(
            Target.class, Lifespan.PROPERTY, () -> Target.start(backend(), snapshots()))
        .get();
  }

  /**
   * How the test reads the whole store directly: {@link StoreBackend#snapshot()} unless the
   * subclass has a cheaper read of every record with its version.
   */
  protected Snapshots snapshots() {
    StoreBackend backend = backend();
    return backend::snapshot;
  }

  /** Every record of the store with its version, read directly; closed with the instance. */
  @FunctionalInterface
  interface Snapshots extends AutoCloseable {
    Map<String, String> snapshot();

    @Override
    default void close() {}
  }

  /** The fuzzed instance and what the test knows of its store. */
  static final class Target implements Store.CloseOnReset {
    private final StoreBackend backend;
    private final Snapshots store;
    private final ServiceInstance service;

    /** The store as it was after the last request, or null when that request changed it. */
    private Map<String, String> known;

    private Target(StoreBackend backend, Snapshots store, ServiceInstance service) {
      this.backend = backend;
      this.store = store;
      this.service = service;
    }

    static Target start(StoreBackend backend, Snapshots store) {
      Map<String, Object> properties = new HashMap<>(backend.properties());
      properties.put("flashclaim.seeding.max-codes-per-request", MAX_CODES);
      // A reseeded store is seen at once, not after the campaign cache expires.
      properties.put("flashclaim.claim.campaign-cache-ttl", "0s");
      // Reseeding wipes the store under the running instance and starts the campaign's additions
      // counter again, which the sold-out fast path relies on never falling: without it, a proof
      // made before the wipe could hold for the reseeded pool.
      properties.put("flashclaim.sold-out.fast-path", "false");
      // One request at a time on a loaded machine: no claim should run into the deadline.
      properties.put("flashclaim.claim.deadline", "20s");
      Target target = new Target(backend, store, ServiceInstance.start(properties));
      target.seed();
      return target;
    }

    @Override
    public void close() {
      try {
        store.close();
      } finally {
        service.close();
      }
    }

    /** The store before the next request, seeded again when it has grown too large. */
    Map<String, String> before() {
      if (known == null) {
        known = store.snapshot();
        if (known.size() > RESEED_ABOVE) {
          seed();
          known = store.snapshot();
        }
      }
      return known;
    }

    Api.Response send(FuzzRequests.Request request) {
      return RawHttp.send(
          service.url(), request.method(), request.target(), request.headers(), request.body());
    }

    /** The seeded open campaign open again, as a PATCH that the run accepted may have changed it. */
    void reopen() {
      Api.Response reopened =
          RawHttp.send(
              service.url(),
              "PATCH",
              "/v1/admin/campaigns/" + FuzzRequests.OPEN,
              List.of(
                  new RawHttp.Header("Authorization", "Bearer " + Tokens.admin()),
                  new RawHttp.Header("Content-Type", "application/merge-patch+json")),
              "{\"paused\":false,\"startsAt\":null,\"endsAt\":null,\"reopen\":true}"
                  .getBytes(StandardCharsets.UTF_8));
      assertThat(reopened.status()).as("reopen %s", reopened).isEqualTo(200);
      known = null;
    }

    private void seed() {
      backend.reset();
      Api.createCampaign(service.url(), FuzzRequests.OPEN, 2, FuzzRequests.CODES.size());
      Api.Response ended =
          Api.post(
              service.url(),
              "/v1/admin/campaigns",
              Tokens.admin(),
              "{\"id\":\""
                  + FuzzRequests.ENDED
                  + "\",\"name\":\"ended\","
                  + "\"startsAt\":\"2020-01-01T00:00:00Z\",\"endsAt\":\"2021-01-01T00:00:00Z\"}");
      assertThat(ended.status()).as("seed %s", ended).isEqualTo(201);
      Api.Response added =
          Api.post(
              service.url(),
              "/v1/admin/campaigns/" + FuzzRequests.ENDED + "/coupons",
              Tokens.admin(),
              "{\"codes\":[\"" + FuzzRequests.ENDED + "-0\"]}");
      assertThat(added.status()).as("seed %s", added).isEqualTo(200);
      Api.Response claimed = seededUserClaims();
      Api.Response redeemed =
          Webhooks.deliver(
              service.url(),
              Webhooks.body(
                  FuzzRequests.OPEN,
                  (String) claimed.json().get("code"),
                  FuzzRequests.REDEEMING_ORDER,
                  "redeemed"));
      assertThat(redeemed.status()).as("seed %s", redeemed).isEqualTo(200);
      // and a second coupon, held: a delivery that redeems it is accepted, whatever its order
      seededUserClaims();
      known = null;
    }

    private Api.Response seededUserClaims() {
      Api.Response claimed =
          Api.post(
              service.url(),
              "/v1/campaigns/" + FuzzRequests.OPEN + "/claims",
              Tokens.user(FuzzRequests.SEEDED_USER),
              null);
      assertThat(claimed.status()).as("seed %s", claimed).isEqualTo(201);
      return claimed;
    }
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
  void everyRequestIsAnsweredWithoutAServerErrorAndARefusalChangesNothing(
      @ForAll("requests") FuzzRequests.Request request) {
    Target target = target();
    Map<String, String> before = target.before();
    // Unknown until this request is known to have left the store as read after it: a failed try
    // (and the shrinking that follows it) must not compare the next one with a stale store.
    target.known = null;

    Api.Response response = target.send(request);

    int status = response.status();
    Statistics.label("status").collect(status);
    Statistics.label("route").collect(request.route(), status / 100 + "xx");
    // The generators must get requests past authentication and parsing, else they test little.
    Statistics.label("answer").collect(status / 100 + "xx");
    Statistics.label("answer")
        .coverage(
            answers -> {
              answers.check("2xx").percentage(p -> p >= 5);
              answers.check("4xx").percentage(p -> p >= 30);
            });
    // Every route is refused and, but for made-up paths, accepted in a run.
    Statistics.label("route")
        .coverage(
            routes -> {
              for (String route : FuzzRequests.ROUTES) {
                routes.check(route, "4xx").count(n -> n > 0);
                if (!route.equals("any-path")) {
                  routes.check(route, "2xx").count(n -> n > 0);
                }
              }
            });
    assertThat(status).as("status of %s\nfor %s", response, request).isBetween(200, 499);
    if (status < 400) {
      if (request.method().equals("PATCH")) {
        target.reopen(); // a pause, or a moved window, would refuse every later claim of the run
      }
      return;
    }
    if (!request.method().equals("HEAD")) { // an answer to HEAD has no body to be a problem
      assertThat(response.contentType())
          .as("content type of %s\nfor %s", response, request)
          .startsWith(Problem.MEDIA_TYPE);
      Map<String, Object> problem = response.json();
      ProblemType type =
          ProblemType.ofUri(String.valueOf(problem.get("type")))
              .orElseThrow(() -> new AssertionError("a type of the list in " + response + "\nfor " + request));
      assertThat(problem.get("title")).as("title of %s\nfor %s", response, request).isEqualTo(type.title());
      assertThat(problem.get("status"))
          .as("status field of %s\nfor %s", response, request)
          .isEqualTo(status)
          .isEqualTo(type.status().getCode());
    }
    Map<String, String> after = target.store.snapshot();
    target.known = after;
    if (request.hasHeader("Idempotency-Key")) {
      // A POST with a key stores its answer, a refusal too, for the key's repeats to get it back:
      // that record is the one write a refused request may leave.
      assertThat(withoutIdempotencyRecords(after))
          .as("store after %s\nfor %s", response, request)
          .isEqualTo(withoutIdempotencyRecords(before));
    } else {
      assertThat(after).as("store after %s\nfor %s", response, request).isEqualTo(before);
    }
  }

  @Provide
  Arbitrary<FuzzRequests.Request> requests() {
    return FuzzRequests.requests();
  }

  private static Map<String, String> withoutIdempotencyRecords(Map<String, String> snapshot) {
    return snapshot.entrySet().stream()
        .filter(e -> !e.getKey().startsWith("idempotency/"))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }
}
