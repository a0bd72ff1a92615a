package flashclaim.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.HeldRoutes;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Idempotency-Key through {@value MultiInstanceTest#INSTANCES} instances on the emulator: replay of
 * the first result on any instance without running the request again, 422 for another request
 * under the same key, 409 while the first is in flight, 400 for a missing required or malformed
 * key, keys scoped per caller, retryable results not stored, and the body size limit. Expiry and
 * the store's atomic steps are {@link IdempotencyStoreContract}.
 * Keys are for authenticated callers: an anonymous request writes no record, and refusals (401,
 * 403, 404, 422) are never stored, so a repeat is answered afresh.
 */
public abstract class IdempotencyKeyContract extends MultiInstanceTest {
  private static final String KEY = "Idempotency-Key";
  private static final String REPLAYED = "Idempotency-Replayed";
  private static final String PROBLEM = "urn:flashclaim:problem:";

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of(
        HeldRoutes.PROPERTY, "true",
        "flashclaim.firestore.call-timeout", "30s",
        "flashclaim.postgres.call-timeout", "30s");
  }

  @BeforeEach
  @AfterEach
  void forgetHeldRequests() {
    HeldRoutes.reset();
  }

  @Test
  void firstResultIsReplayedOnAnyInstanceWithoutRunningAgain() {
    String campaign = newCampaign(1, 0);
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";
    String body = "{\"generate\":{\"count\":50}}";

    Api.Response first = post(instance(0), coupons, Tokens.admin(), body, "seed-1");
    Api.Response again = post(instance(1), coupons, Tokens.admin(), body, "seed-1");
    Api.Response quoted = post(instance(2), coupons, Tokens.admin(), body, "\"seed-1\"");

    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json()).containsEntry("added", 50).containsEntry("skipped", 0);
    assertThat(first.header(REPLAYED)).isNull();
    for (Api.Response replay : List.of(again, quoted)) {
      assertThat(replay.status()).isEqualTo(200);
      assertThat(replay.body()).isEqualTo(first.body());
      assertThat(replay.contentType()).isEqualTo(first.contentType());
      assertThat(replay.header(REPLAYED)).isEqualTo("true");
    }
    assertThat(backend().coupons(campaign)).hasSize(50); // added once, not three times
  }

  @Test
  void createdCampaignIsReplayedWithItsLocation() {
    String body = "{\"id\":\"replayed-campaign\",\"name\":\"replayed\"}";

    Api.Response created = post(instance(0), "/v1/admin/campaigns", Tokens.admin(), body, "create-1");
    Api.Response replay = post(instance(1), "/v1/admin/campaigns", Tokens.admin(), body, "create-1");

    assertThat(created.status()).isEqualTo(201);
    assertThat(replay.status()).as("a repeat without the key would be 409 campaign-exists").isEqualTo(201);
    assertThat(replay.header("Location")).isEqualTo(created.header("Location")).isNotNull();
    assertThat(replay.body()).isEqualTo(created.body());
    assertThat(replay.header(REPLAYED)).isEqualTo("true");
  }

  @Test
  void replayedClaimIsTheFirstAnswerNotARunAgain() {
    String campaign = newCampaign(1, 10);
    // Each until it is final, as a client retries a 503 with its key: on a loaded machine a claim
    // may be answered 503 (not stored under its key) before it runs.
    Api.Response first = Claimer.claimUntilFinal(instance(0), campaign, "alice", "claim-1").response();
    Api.Response replay = Claimer.claimUntilFinal(instance(1), campaign, "alice", "claim-1").response();
    Api.Response withoutKey = Claimer.claimUntilFinal(instance(2), campaign, "alice").response();

    assertThat(first.status()).isEqualTo(201);
    // Run again, the claim would answer 200 "already held", as it does without the key.
    assertThat(withoutKey.status()).isEqualTo(200);
    assertThat(replay.status()).isEqualTo(201);
    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(replay.header(REPLAYED)).isEqualTo("true");
    assertStoreConsistent(campaign, 1);
  }

  @Test
  void sameKeyForAnotherRequestIs422() {
    String campaign = newCampaign(1, 0);
    String other = newCampaign(1, 0);
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";

    Api.Response first = post(instance(0), coupons, Tokens.admin(), "{\"generate\":{\"count\":5}}", "k");
    Api.Response otherBody = post(instance(1), coupons, Tokens.admin(), "{\"generate\":{\"count\":6}}", "k");
    Api.Response otherPath =
        post(instance(2), "/v1/admin/campaigns/" + other + "/coupons", Tokens.admin(),
            "{\"generate\":{\"count\":5}}", "k");

    assertThat(first.status()).isEqualTo(200);
    assertProblem(otherBody, 422, "idempotency-key-reused");
    assertProblem(otherPath, 422, "idempotency-key-reused");
    assertThat(backend().coupons(campaign)).hasSize(5);
    assertThat(backend().coupons(other)).isEmpty();
  }

  @Test
  void repeatWhileTheFirstIsInFlightIs409() throws Exception {
    String held = "/v1/test/held/slow?gate=slow";
    String alice = Tokens.user("alice");
    Future<Api.Response> first = clients.submit(() -> post(instance(0), held, alice, "{}", "slow-1"));
    awaitCalls("/v1/test/held/slow", 1);

    Api.Response meanwhile = post(instance(1), held, alice, "{}", "slow-1");
    assertProblem(meanwhile, 409, "idempotency-key-in-use");
    assertThat(meanwhile.header("Retry-After")).isEqualTo("1");

    HeldRoutes.open("slow");
    Api.Response done = first.get(60, TimeUnit.SECONDS);
    Api.Response after = post(instance(2), held, alice, "{}", "slow-1");
    assertThat(done.status()).isEqualTo(200);
    assertThat(after.status()).isEqualTo(200);
    assertThat(after.body()).isEqualTo(done.body());
    assertThat(after.header(REPLAYED)).isEqualTo("true");
    assertThat(HeldRoutes.calls("/v1/test/held/slow")).isEqualTo(1);
  }

  @Test
  void keysAreScopedPerCaller() {
    String campaign = newCampaign(1, 10);
    String claims = "/v1/campaigns/" + campaign + "/claims";

    Api.Response alice = claimed(instance(0), claims, Tokens.user("alice"), "same-key");
    Api.Response bob = claimed(instance(1), claims, Tokens.user("bob"), "same-key");
    Api.Response aliceAgain = claimed(instance(2), claims, Tokens.user("alice"), "same-key");
    Api.Response bobAgain = claimed(instance(0), claims, Tokens.user("bob"), "same-key");

    assertThat(alice.status()).as(alice.toString()).isIn(200, 201);
    assertThat(bob.status()).as("bob's key is not alice's: %s", bob).isIn(200, 201);
    assertThat(bob.header(REPLAYED)).isNull();
    assertThat(bob.json().get("code")).isNotEqualTo(alice.json().get("code"));
    assertThat(aliceAgain.body()).isEqualTo(alice.body());
    assertThat(bobAgain.body()).isEqualTo(bob.body());
    assertStoreConsistent(campaign, 2);
  }

  @Test
  void missingRequiredKeyOrMalformedKeyIs400() {
    String campaign = newCampaign(1, 0);
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";
    String body = "{\"generate\":{\"count\":3}}";
    try (ServiceInstance requiring =
        startInstance(Map.of("flashclaim.idempotency.required-routes", "/v1/admin/campaigns/*/coupons"))) {
      assertProblem(Api.post(requiring.url(), coupons, Tokens.admin(), body), 400, "idempotency-key-missing");
      assertThat(backend().coupons(campaign)).isEmpty();
      // Other routes keep keys optional.
      assertThat(Api.post(requiring.url(), "/v1/admin/campaigns", Tokens.admin(),
              "{\"id\":\"no-key-needed\",\"name\":\"n\"}").status()).isEqualTo(201);
    }

    for (String key : List.of("k".repeat(256), "tab\tinside")) {
      assertInvalidKey(post(instance(0), coupons, Tokens.admin(), body, key));
    }
    assertInvalidKey(
        Api.send(
            Api.request(instance(1), coupons, Tokens.admin())
                .header("Content-Type", "application/json")
                .header(KEY, "one")
                .header(KEY, "two")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build()));
    for (String key : List.of("caf\u00e9", "\"unterminated", "\"bad \\n escape\"")) {
      assertInvalidKey(raw(instance(2), coupons, body, key));
    }
    assertThat(backend().coupons(campaign)).isEmpty();
    assertThat(post(instance(0), coupons, Tokens.admin(), body, "k".repeat(255)).status()).isEqualTo(200);
  }

  @Test
  void retryableResultIsNotStoredAndTheKeyCanBeRetried() {
    String campaign = newCampaign(1, 5);
    String claims = "/v1/campaigns/" + campaign + "/claims";
    try (ServiceInstance busy = startInstance(Map.of("flashclaim.claim.deadline", "0ms"))) {
      Api.Response failed = post(busy.url(), claims, Tokens.user("alice"), null, "retry-me");
      assertProblem(failed, 503, "busy");
    }
    assertThat(records()).isEmpty();

    Api.Response retried = claimed(instance(0), claims, Tokens.user("alice"), "retry-me");
    assertThat(retried.status()).as(retried.toString()).isEqualTo(201);
    assertThat(retried.header(REPLAYED)).isNull();
    assertThat(records()).hasSize(1);
  }

  @Test
  void resultAboveTheBodyLimitIsReplayedWithoutItsBody() {
    String campaign = newCampaign(1, 0);
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";
    try (ServiceInstance small = startInstance(Map.of("flashclaim.idempotency.max-stored-body", "8"))) {
      String body = "{\"generate\":{\"count\":2}}";
      Api.Response first = post(small.url(), coupons, Tokens.admin(), body, "big");
      Api.Response replay = post(small.url(), coupons, Tokens.admin(), body, "big");

      assertThat(first.status()).isEqualTo(200);
      assertThat(first.body().length()).isGreaterThan(8);
      assertThat(replay.status()).isEqualTo(200);
      assertThat(replay.header(REPLAYED)).isEqualTo("true");
      assertThat(replay.body()).isEmpty();
      assertThat(records().get(0).bodyStored()).isFalse();
    }
    assertThat(backend().coupons(campaign)).hasSize(2);
  }

  @Test
  void anonymousKeyIsIgnoredAndWritesNothing() throws Exception {
    String campaign = newCampaign(1, 5);
    Claimer.Result claimed = Claimer.claimUntilFinal(instance(0), campaign, "alice");
    assertThat(claimed).matches(Claimer.Result::tookACoupon);
    String delivery = Webhooks.body(campaign, claimed.code(), "order-1", "redeemed");

    // Forged deliveries under one key, at once through every instance: each is checked and refused.
    List<Api.Response> forged =
        runAll(30, i -> () -> deliver(instance(i), null, delivery, "t=1,v1=00", "anon-key"));
    for (Api.Response response : forged) {
      assertProblem(response, 401, "invalid-signature");
      assertThat(response.header(REPLAYED)).isNull();
    }
    // A signed delivery under that key runs, and so does its repeat (no replay of the first).
    Api.Response applied = deliver(instance(1), null, delivery, Webhooks.signature(delivery), "anon-key");
    Api.Response again = deliver(instance(2), null, delivery, Webhooks.signature(delivery), "anon-key");
    assertThat(applied.json()).containsEntry("result", "applied");
    assertThat(again.json()).containsEntry("result", "already-applied");
    assertThat(again.header(REPLAYED)).isNull();
    // A claim without a token is refused whatever its key.
    assertProblem(
        post(instance(0), "/v1/campaigns/" + campaign + "/claims", null, null, "anon-key"),
        401,
        "unauthorized");

    assertThat(records()).isEmpty();
  }

  @Test
  void refusalsAreNeverStoredNorReplayed() throws Exception {
    String campaign = newCampaign(1, 5);
    String alice = Tokens.user("alice");
    Claimer.Result alicesClaim = Claimer.claimUntilFinal(instance(0), campaign, "alice");
    assertThat(alicesClaim).matches(Claimer.Result::tookACoupon);
    String code = alicesClaim.code();
    String delivery = Webhooks.body(campaign, code, "order-1", "redeemed");

    // 401: a signed-in caller's delivery with a bad signature, then the same one signed.
    assertProblem(deliver(instance(0), alice, delivery, "t=1,v1=00", "hook-1"), 401, "invalid-signature");
    assertThat(records()).isEmpty();
    Api.Response signed = deliver(instance(1), alice, delivery, Webhooks.signature(delivery), "hook-1");
    assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
    assertThat(signed.header(REPLAYED)).isNull();
    assertThat(signed.json()).containsEntry("result", "applied");

    // 403: a campaign not open yet refuses; the refusal is answered afresh each time, at once.
    String later = "later-" + campaign;
    String startsAt = Instant.now().plus(Duration.ofDays(1)).toString();
    assertThat(
            Api.post(instance(0), "/v1/admin/campaigns", Tokens.admin(),
                    "{\"id\":\"" + later + "\",\"name\":\"l\",\"startsAt\":\"" + startsAt + "\"}")
                .status())
        .isEqualTo(201);
    List<Api.Response> early =
        runAll(9, i -> () -> post(instance(i), "/v1/campaigns/" + later + "/claims", alice, null, "early"));
    for (Api.Response response : early) {
      assertThat(response.status()).as(response.toString()).isIn(403, 409);
      assertThat(response.header(REPLAYED)).isNull();
    }
    assertThat(early).anySatisfy(r -> assertProblem(r, 403, "campaign-not-open"));

    // 404: a claim before its campaign exists, then after.
    String coming = "coming-" + campaign;
    assertProblem(
        post(instance(1), "/v1/campaigns/" + coming + "/claims", alice, null, "coming"), 404, "campaign-not-found");
    Api.createCampaign(instance(2), coming, 1, 1);
    Api.Response claimed = claimed(instance(0), "/v1/campaigns/" + coming + "/claims", alice, "coming");
    assertThat(claimed.status()).as(claimed.toString()).isIn(200, 201);

    // 422: the refused request is not stored in place of the first, which is still replayed.
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";
    Api.Response first = post(instance(0), coupons, Tokens.admin(), "{\"generate\":{\"count\":2}}", "seed");
    assertProblem(post(instance(1), coupons, Tokens.admin(), "{\"generate\":{\"count\":3}}", "seed"),
        422, "idempotency-key-reused");
    Api.Response replay = post(instance(2), coupons, Tokens.admin(), "{\"generate\":{\"count\":2}}", "seed");
    assertThat(replay.body()).isEqualTo(first.body());
    assertThat(replay.header(REPLAYED)).isEqualTo("true");

    // Only the final answers are stored: the signed delivery, the claim after the campaign came,
    // the seeding.
    assertThat(records()).hasSize(3).allMatch(StoreBackend.StoredIdempotencyRecord::completed);
    assertThat(backend().coupons(campaign)).hasSize(5 + 2);
  }

  /** A webhook delivery with an Idempotency-Key, and a bearer token when one is given. */
  private static Api.Response deliver(URI url, String token, String body, String signature, String key) {
    return Api.send(
        Api.request(url, Webhooks.PATH, token)
            .header("Content-Type", "application/json")
            .header(Webhooks.HEADER, signature)
            .header(KEY, key)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  /**
   * A claim whose answer the test needs final: a 503 (busy at its deadline, or refused by
   * admission, on a loaded machine) is sent again with the same key, as a client does; a refusal
   * is never stored, so the retry is answered afresh: the coupon, or the one that landed.
   */
  private static Api.Response claimed(URI url, String path, String token, String key) {
    return Api.retrying503(() -> post(url, path, token, null, key));
  }

  private static Api.Response post(URI url, String path, String token, String json, String key) {
    HttpRequest.Builder request =
        Api.request(url, path, token)
            .header(KEY, key)
            .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    return Api.send(request.build());
  }

  /** A POST written byte for byte, for header values the JDK client will not send. */
  private static Api.Response raw(URI url, String path, String json, String key) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(60_000);
      String head =
          "POST " + path + " HTTP/1.1\r\n"
              + "Host: " + url.getHost() + ":" + url.getPort() + "\r\n"
              + "Authorization: Bearer " + Tokens.admin() + "\r\n"
              + "Content-Type: application/json\r\n"
              + KEY + ": " + key + "\r\n"
              + "Content-Length: " + body.length + "\r\n"
              + "Connection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.UTF_8));
      out.write(body);
      out.flush();
      String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      int status = Integer.parseInt(text.substring(0, end).split(" ")[1]);
      Map<String, List<String>> headers = new HashMap<>();
      for (String line : text.substring(0, end).split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          headers.put(line.substring(0, colon).trim(), List.of(line.substring(colon + 1).trim()));
        }
      }
      return new Api.Response(status, headers, text.substring(end + 4));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertInvalidKey(Api.Response response) {
    assertProblem(response, 400, "invalid-request");
    assertThat(response.body()).contains("\"field\":\"Idempotency-Key\"");
  }

  private static void assertProblem(Api.Response response, int status, String type) {
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json()).containsEntry("type", PROBLEM + type).containsEntry("status", status);
  }

  private List<StoreBackend.StoredIdempotencyRecord> records() {
    return backend().idempotencyRecords();
  }

  private static void awaitCalls(String path, int calls) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (HeldRoutes.calls(path) < calls) {
      assertThat(System.nanoTime()).as("%s not called in time", path).isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
