package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

/**
 * One request of one route per user, at an even rate: what a request costs the service with
 * nothing else to do ({@code bin/request-floor}). Properties besides {@link ClaimLoad}'s:
 *
 * <ul>
 *   <li>{@code path} ({@code /health/liveness}) and {@code method} ({@code GET} or {@code POST});
 *   <li>{@code auth}: send each user's bearer token (false);
 *   <li>{@code expectStatus}: the status every answer must have (200); any other fails the run.
 * </ul>
 */
public class RequestFloorSimulation extends Simulation {
  private final ClaimLoad load = new ClaimLoad("FLOOR", 5_000, 0, 15, 1_000);
  private final String path = System.getProperty("path", "/health/liveness");
  private final boolean post = "POST".equalsIgnoreCase(System.getProperty("method", "GET"));
  private final boolean auth = Boolean.getBoolean("auth");
  private final int expectStatus = Integer.getInteger("expectStatus", 200);

  {
    HttpRequestActionBuilder request =
        post ? http("floor").post("#{baseUrl}" + path) : http("floor").get("#{baseUrl}" + path);
    if (auth) {
      request = request.header("Authorization", "Bearer #{token}");
    }
    setUp(
            scenario("floor")
                .exec(feed(load.users(1)))
                .exec(request.check(status().is(expectStatus)))
                .injectOpen(rampUsers(load.users()).during(load.duration())))
        .protocols(load.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }
}
