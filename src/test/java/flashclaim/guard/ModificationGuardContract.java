package flashclaim.guard;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Sha256;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.Concurrently;
import flashclaim.testing.HeldRoutes;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The modification guard through {@value MultiInstanceTest#INSTANCES} instances on a real store:
 * one winner among concurrent modifications of one resource, no interference between different
 * resources or different users, which requests it covers, and release whatever the answer (also
 * when the client hangs up). The store's part (create-if-absent, takeover of a stale guard after
 * its TTL, release of one's own version only) is {@link GuardStoreContract}.
 */
public abstract class ModificationGuardContract extends MultiInstanceTest {
  private static final String CONFLICT_TYPE = "urn:flashclaim:problem:concurrent-modification";
  private static final String ROUTES =
      "/v1/campaigns/*/claims,/v1/admin/campaigns,/v1/admin/campaigns/**,/v1/test/**";

  @Override
  protected Map<String, Object> instanceProperties() {
    // A patient store client: the 2 cores are shared, and a timed-out seeding is not what is tested.
    return Map.of(
        HeldRoutes.PROPERTY, "true",
        "flashclaim.guard.routes", ROUTES,
        "flashclaim.firestore.call-timeout", "30s",
        "flashclaim.postgres.call-timeout", "30s");
  }

  @BeforeEach
  @AfterEach
  void forgetHeldRequests() {
    HeldRoutes.reset();
  }

  /**
   * Ten clicks of an admin on "add 20,000 coupons" of one campaign: one runs, nine get 409 (enough
   * codes that the winner is still writing when the last click arrives on a loaded machine).
   */
  @Test
  void concurrentModificationsOfOneResourceHaveOneWinner() throws Exception {
    String campaign = newCampaign(1, 0);
    int requests = 10;
    int count = 20_000;
    String path = "/v1/admin/campaigns/" + campaign + "/coupons";

    List<Api.Response> answers =
        Concurrently.run(
            requests,
            i ->
                () ->
                    Api.post(
                        instance(i), path, Tokens.admin(), "{\"generate\":{\"count\":" + count + "}}"));

    assertThat(answers).extracting(Api.Response::status).containsOnly(200, 409);
    assertThat(answers.stream().filter(a -> a.status() == 200)).hasSize(1);
    assertThat(answers.stream().filter(a -> a.status() == 409))
        .hasSize(requests - 1)
        .allSatisfy(ModificationGuardContract::assertConflict);
    assertThat(backend().coupons(campaign)).hasSize(count); // the controller ran once
    assertThat(guards()).isEmpty();
  }

  /**
   * A double-click storm on "Claim Coupon": per user one 201, the other clicks 409 (or 200). A
   * click answered 503 (a loaded machine) is sent again, as the app does.
   */
  @Test
  void doubleClickAnswersOneCreatedAndConflicts() throws Exception {
    int users = 20;
    int clicks = 5;
    String campaign = newCampaign(1, 1_000);

    List<Api.Response> answers =
        Concurrently.run(
            users * clicks,
            i ->
                () ->
                    Api.retrying503(
                        () ->
                            Api.post(
                                instance(i),
                                "/v1/campaigns/" + campaign + "/claims",
                                Tokens.user("clicker-" + (i / clicks)),
                                null)));

    Map<Integer, List<Api.Response>> byUser = new HashMap<>();
    for (int i = 0; i < answers.size(); i++) {
      byUser.computeIfAbsent(i / clicks, u -> new ArrayList<>()).add(answers.get(i));
    }
    byUser.forEach(
        (user, own) -> {
          assertThat(own).extracting(Api.Response::status).as("user %d: %s", user, own).isSubsetOf(201, 200, 409);
          assertThat(own.stream().filter(a -> a.status() == 201)).as("user %d: %s", user, own).hasSize(1);
          own.stream().filter(a -> a.status() == 409).forEach(ModificationGuardContract::assertConflict);
        });
    assertThat(answers.stream().filter(a -> a.status() == 409)).isNotEmpty();
    assertStoreConsistent(campaign, users); // each user holds exactly one coupon
    assertThat(guards()).isEmpty();
  }

  /** Different campaigns seeded at once, different users claiming at once: nobody waits. */
  @Test
  void differentResourcesAndUsersDoNotBlockEachOther() throws Exception {
    List<String> campaigns = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      campaigns.add(newCampaign(1, 0));
    }
    List<Api.Response> seeded =
        Concurrently.run(
            campaigns.size(),
            i ->
                () ->
                    Api.post(
                        instance(i),
                        "/v1/admin/campaigns/" + campaigns.get(i) + "/coupons",
                        Tokens.admin(),
                        "{\"generate\":{\"count\":2000}}"));
    assertThat(seeded).extracting(Api.Response::status).containsOnly(200);
    for (String campaign : campaigns) {
      assertThat(backend().coupons(campaign)).hasSize(2_000);
    }

    int users = 30;
    String campaign = campaigns.get(0);
    List<Claimer.Result> claims =
        Concurrently.run(users, i -> () -> Claimer.claimUntilFinal(instance(i), campaign, "neighbour-" + i));
    assertThat(claims).extracting(Claimer.Result::status).containsOnly(201);
    assertThat(claims).extracting(Claimer.Result::conflicts).containsOnly(0);
    assertStoreConsistent(campaign, users);
  }

  /**
   * Which requests take a guard, seen while they are held in the controller: the key is the
   * canonical resource with the caller as prefix; GETs and anonymous routes without variables
   * take none.
   */
  @Test
  void guardsModificationsOfCoveredResourcesOnly() throws Exception {
    URI url = instance(0);
    String alice = Tokens.user("alice");
    Future<Api.Response> read = clients.submit(() -> Api.get(url, "/v1/test/held/a?gate=read", alice));
    Future<Api.Response> open =
        clients.submit(() -> Api.post(url, "/v1/test/public?gate=open", null, null));
    await(() -> HeldRoutes.calls("GET /v1/test/held/a") == 1 && HeldRoutes.calls("/v1/test/public") == 1);
    assertThat(guards()).isEmpty();
    // The anonymous route without variables is not serialized: a second call goes through.
    assertThat(Api.post(instance(1), "/v1/test/public", null, null).status()).isEqualTo(200);

    Future<Api.Response> anonymous =
        clients.submit(() -> Api.post(url, "/v1/test/public/x?gate=anonymous", null, null));
    Future<Api.Response> own =
        clients.submit(() -> Api.post(url, "/v1/test/held/a?gate=own", alice, null));
    await(() -> guards().size() == 2);
    assertThat(guards())
        .extracting(StoreBackend.StoredGuard::id)
        .containsExactlyInAnyOrder(Sha256.hex("/v1/test/public/x"), Sha256.hex("/alice/v1/test/held/a"));
    assertConflict(Api.post(instance(1), "/v1/test/held/a", alice, null));
    assertConflict(Api.post(instance(2), "/v1/test/public/x", null, null));
    // Another user on the same resource, and the same user on another one, go through.
    assertThat(Api.post(instance(1), "/v1/test/held/a", Tokens.user("bob"), null).status()).isEqualTo(200);
    assertThat(Api.post(instance(2), "/v1/test/held/b", alice, null).status()).isEqualTo(200);

    for (String gate : List.of("read", "open", "anonymous", "own")) {
      HeldRoutes.open(gate);
    }
    for (Future<Api.Response> held : List.of(read, open, anonymous, own)) {
      assertThat(held.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
    }
    assertThat(HeldRoutes.calls("/v1/test/held/a")).isEqualTo(2); // alice's held one and bob's
    assertThat(guards()).isEmpty();
  }

  /** Errors, and a client that hangs up mid-request, release the guard like any answer. */
  @Test
  void guardIsReleasedWhateverTheAnswer() throws Exception {
    String campaign = newCampaign(1, 5);
    String coupons = "/v1/admin/campaigns/" + campaign + "/coupons";
    assertThat(Api.post(instance(0), coupons, Tokens.admin(), "{\"codes\":[\"bad code\"]}").status())
        .isEqualTo(400);
    assertThat(guards()).isEmpty();
    assertThat(Api.post(instance(1), "/v1/campaigns/nope/claims", Tokens.user("u"), null).status())
        .isEqualTo(404);
    assertThat(guards()).isEmpty();
    assertThat(Api.post(instance(2), coupons, Tokens.admin(), "{\"codes\":[\"good-1\"]}").status())
        .isEqualTo(200);

    URI url = instance(0);
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      String head =
          "POST /v1/test/held/gone?gate=gone HTTP/1.1\r\n"
              + "Host: " + url.getHost() + ":" + url.getPort() + "\r\n"
              + "Authorization: Bearer " + Tokens.user("impatient") + "\r\n"
              + "Content-Length: 0\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.UTF_8));
      out.flush();
      await(() -> guards().size() == 1);
    } // the client hangs up while its request is held in the controller
    HeldRoutes.open("gone");
    await(() -> guards().isEmpty());
    assertThat(Api.post(instance(1), "/v1/test/held/gone", Tokens.user("impatient"), null).status())
        .isEqualTo(200);
  }

  private static void assertConflict(Api.Response response) {
    assertThat(response.status()).as(response.toString()).isEqualTo(409);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.json()).containsEntry("type", CONFLICT_TYPE).containsEntry("status", 409);
    assertThat(response.header("Retry-After")).isEqualTo("1");
  }

  private List<StoreBackend.StoredGuard> guards() {
    return backend().guards();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached within 30 s");
      }
      Thread.sleep(50);
    }
  }
}
