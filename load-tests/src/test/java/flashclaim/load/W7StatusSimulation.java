package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Simulation;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * W7 phones polling the campaign status: {@code users} distinct users (default 20,000) each ask
 * {@code GET /v1/campaigns/{campaignId}} once, arriving evenly within {@code duration} seconds
 * (default 5, about 4,000 requests per second), all against one instance: the first of {@code
 * baseUrls}. Every answer must be 200 (a 304 too, should a client send a tag); p99 under {@code
 * p99Ms} (default 100). Run it alongside a W1 sale to see that polling phones neither slow the
 * claims nor load the store: each instance reads a campaign's stock at most once a second
 * (compare {@code flashclaim_status_stock_reads_total} before and after).
 *
 * <p>Parameters as in {@link ClaimLoad} ({@code baseUrls}, {@code campaignId}, {@code users},
 * {@code duration}, {@code secret}, {@code p99Ms}, {@code maxFailedPercent}, {@code
 * shareConnections}).
 */
public class W7StatusSimulation extends Simulation {
  static final int USERS = 20_000;
  static final int DURATION_SECONDS = 5;
  static final int P99_MS = 100;

  private final ClaimLoad load = new ClaimLoad("W7", USERS, 0, DURATION_SECONDS, P99_MS);
  private final String campaignId = System.getProperty("campaignId", "load");
  private final String instance = load.baseUrls().get(0);

  {
    setUp(
            scenario("W7 status polling")
                .exec(feed(onOneInstance(load.users(1))))
                .exec(
                    http("status")
                        .get("#{baseUrl}/v1/campaigns/" + campaignId)
                        .header("Authorization", "Bearer #{token}")
                        .check(status().in(200, 304)))
                .injectOpen(rampUsers(load.users()).during(load.duration())))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  /** The users of {@link ClaimLoad#users}, all sent to the first base URL. */
  private Iterator<Map<String, Object>> onOneInstance(Iterator<Map<String, Object>> users) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return users.hasNext();
      }

      @Override
      public Map<String, Object> next() {
        Map<String, Object> user = new HashMap<>(users.next());
        user.put("baseUrl", instance);
        return user;
      }
    };
  }

  @Override
  public void before() {
    System.out.printf(
        "flashclaim W7: %d status requests within %d s to %s, campaign %s%n",
        load.users(), load.duration().toSeconds(), instance, campaignId);
  }
}
