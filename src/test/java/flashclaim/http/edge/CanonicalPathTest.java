package flashclaim.http.edge;

import flashclaim.http.problem.Problem;
import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.Tokens;
import flashclaim.testing.Webhooks;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One canonical path per route (G8): every other spelling of a route's path (a trailing or doubled
 * slash, a dot segment, an escaped slash or dot, an escaped letter, a path parameter) is answered
 * 404 problem+json by every instance, with or without a token and an Idempotency-Key, before any
 * filter or route could act on it: nothing is written, no guard, no idempotency record. The
 * canonical spelling still works. Methods are case-sensitive (RFC 9110): {@code post} is not
 * {@code POST}, and every other spelling of a method is answered 405 the same way.
 */
class CanonicalPathTest extends MultiInstanceTest {
  private static final int COUPONS = 3;
  private final StoreBackend backend = new FirestoreBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  /** A route with the body a valid request of it carries (null: none). */
  record Route(String method, String path, String body, Map<String, String> headers) {}

  @Test
  void everyOtherSpellingOfEveryRouteIs404AndWritesNothing() throws Exception {
    String campaign = newCampaign(1, COUPONS);
    Api.Response claimed =
        Api.post(instance(0), claims(campaign), Tokens.user("holder"), null);
    assertThat(claimed.status()).isEqualTo(201);
    String code = (String) claimed.json().get("code");
    Map<String, String> before = backend.snapshot();

    String delivery = Webhooks.body(campaign, code, "order-1", "redeemed");
    List<Route> routes =
        List.of(
            new Route("POST", claims(campaign), null, Map.of()),
            new Route("GET", claims(campaign) + "/me", null, Map.of()),
            new Route("POST", "/v1/admin/campaigns", "{\"id\":\"sneaked\",\"name\":\"s\"}", Map.of()),
            new Route("GET", "/v1/admin/campaigns/" + campaign, null, Map.of()),
            new Route(
                "POST",
                "/v1/admin/campaigns/" + campaign + "/coupons",
                "{\"codes\":[\"sneaked-1\"]}",
                Map.of()),
            new Route("GET", "/v1/admin/campaigns/" + campaign + "/audit", null, Map.of()),
            new Route("GET", "/v1/admin/campaigns/" + campaign + "/live", null, Map.of()),
            new Route(
                "POST",
                Webhooks.PATH,
                delivery,
                Map.of(Webhooks.HEADER, Webhooks.signature(delivery))));
    List<String> tokens = new ArrayList<>();
    tokens.add(null);
    tokens.add(Tokens.user("holder"));
    tokens.add(Tokens.user("sneaker"));
    tokens.add(Tokens.admin());

    List<HttpRequest> requests = new ArrayList<>();
    for (Route route : routes) {
      for (String spelling : spellings(route.path())) {
        for (String token : tokens) {
          requests.add(request(instance(requests.size()), route, spelling, token));
        }
      }
    }
    List<Api.Response> responses = runAll(requests.size(), i -> () -> Api.send(requests.get(i)));

    for (int i = 0; i < responses.size(); i++) {
      Api.Response response = responses.get(i);
      String sent = requests.get(i).method() + " " + requests.get(i).uri().getRawPath();
      assertThat(response.status()).as("%s: %s", sent, response).isEqualTo(404);
      assertThat(response.contentType()).as(sent).startsWith(Problem.MEDIA_TYPE);
      assertThat(response.json()).containsEntry("type", "urn:flashclaim:problem:not-found");
    }
    assertThat(backend.snapshot()).isEqualTo(before);
    assertThat(backend.guards()).isEmpty();
    assertThat(backend.idempotencyRecords()).isEmpty();

    // The canonical spellings still reach their routes.
    assertThat(Api.post(instance(1), claims(campaign), Tokens.user("holder"), null).status())
        .isEqualTo(200);
    assertThat(Api.post(instance(2), claims(campaign), Tokens.user("newcomer"), null).status())
        .isEqualTo(201);
    assertStoreConsistent(campaign, 2);
  }

  @Test
  void everyOtherSpellingOfAMethodIs405AndWritesNothing() throws Exception {
    String campaign = newCampaign(1, COUPONS);
    Map<String, String> before = backend.snapshot();
    String delivery = Webhooks.body(campaign, "no-such-code", "order-1", "redeemed");
    List<Route> routes =
        List.of(
            new Route("post", claims(campaign), null, Map.of()),
            new Route("Post", claims(campaign), null, Map.of()),
            new Route("get", claims(campaign) + "/me", null, Map.of()),
            new Route("post", "/v1/admin/campaigns", "{\"id\":\"sneaked\",\"name\":\"s\"}", Map.of()),
            new Route("patch", "/v1/admin/campaigns/" + campaign, "{\"paused\":true}", Map.of()),
            new Route("delete", "/v1/admin/campaigns/" + campaign, null, Map.of()),
            new Route(
                "post",
                Webhooks.PATH,
                delivery,
                Map.of(Webhooks.HEADER, Webhooks.signature(delivery))),
            new Route("get", "/health", null, Map.of()));
    List<HttpRequest> requests = new ArrayList<>();
    for (Route route : routes) {
      for (String token : List.of(Tokens.user("sneaker"), Tokens.admin())) {
        requests.add(request(instance(requests.size()), route, route.path(), token));
      }
    }
    List<Api.Response> responses = runAll(requests.size(), i -> () -> Api.send(requests.get(i)));

    for (int i = 0; i < responses.size(); i++) {
      Api.Response response = responses.get(i);
      String sent = requests.get(i).method() + " " + requests.get(i).uri().getRawPath();
      assertThat(response.status()).as("%s: %s", sent, response).isEqualTo(405);
      assertThat(response.contentType()).as(sent).startsWith(Problem.MEDIA_TYPE);
      assertThat(response.json())
          .containsEntry("type", "urn:flashclaim:problem:method-not-allowed");
    }
    assertThat(backend.snapshot()).isEqualTo(before);
    assertThat(backend.guards()).isEmpty();
    assertThat(backend.idempotencyRecords()).isEmpty();
  }

  @Test
  void canonicalFormIsRecognized() {
    for (String canonical :
        List.of(
            "/", "/v1/campaigns/a-b_C9/claims", "/dashboard/dashboard.css", "/a/b.c/..d/d..",
            "/v1/campaigns/caf%C3%A9/claims", "/v1/campaigns/a%20b/claims", "/a/%7B",
            "/dashboard/", "/swagger-ui/")) {
      assertThat(CanonicalPathFilter.isCanonical(canonical)).as(canonical).isTrue();
    }
    for (String other :
        List.of(
            "", "v1/x", "//", "/v1/", "/v1//x", "/v1/./x", "/v1/../x", "/v1/x/.", "/v1/x/..",
            "/v1/%2e/x", "/v1/%2E%2E/x", "/v1/x%2Fy", "/v1/x%2fy", "/v1/x%5Cy", "/v1/x\\y",
            "/v1/x;y=z", "/v1/%78", "/v1/x%7E", "/v1/x%25", "/v1/x%", "/v1/x%2", "/v1/x%zz",
            "/v1/x%3By", "/dashboard//", "/dashboard/./", "/v1/admin/campaigns/")) {
      assertThat(CanonicalPathFilter.isCanonical(other)).as(other).isFalse();
    }
  }

  /** Spellings of {@code path} that the router could take for it, none of them canonical. */
  static Set<String> spellings(String path) {
    int last = path.lastIndexOf('/');
    String head = path.substring(0, last);
    String tail = path.substring(last + 1);
    Set<String> spellings = new LinkedHashSet<>();
    spellings.add(path + "/");
    spellings.add(path + "//");
    spellings.add("/" + path);
    spellings.add(path.replaceFirst("/v1/", "/v1//"));
    spellings.add(head + "//" + tail);
    spellings.add(path.replaceFirst("/v1/", "/v1/./"));
    spellings.add(path.replaceFirst("/v1/", "/v1/x/../"));
    spellings.add(path.replaceFirst("/v1/", "/v1/%2e/"));
    spellings.add(path.replaceFirst("/v1/", "/v1/x/%2e%2e/"));
    spellings.add(path.replaceFirst("/v1/", "/v1%2F"));
    spellings.add(head + "%2f" + tail);
    spellings.add(head + "/%" + Integer.toHexString(tail.charAt(0)) + tail.substring(1));
    spellings.add(path + ";x=y");
    spellings.add(path + "%2F");
    spellings.add(path + "/.");
    return spellings;
  }

  private static String claims(String campaign) {
    return "/v1/campaigns/" + campaign + "/claims";
  }

  private static HttpRequest request(URI base, Route route, String path, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Idempotency-Key", "spelling-" + path.hashCode())
            .method(
                route.method(),
                route.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(route.body()));
    if (route.body() != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    route.headers().forEach(request::header);
    return request.build();
  }
}
