package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.Simulation;

public class FloorScratchSimulation extends Simulation {
  private final ClaimLoad load = new ClaimLoad("FLOOR", 20000, 0, 3, 250);
  private final String path = System.getProperty("path", "/health/liveness");
  private final String method = System.getProperty("method", "GET");
  private final boolean auth = Boolean.getBoolean("auth");

  {
    var req = method.equals("POST")
        ? http("floor").post("#{baseUrl}" + path)
        : http("floor").get("#{baseUrl}" + path);
    if (auth) req = req.header("Authorization", "Bearer #{token}");
    setUp(scenario("floor").exec(feed(load.users(1))).exec(req.check(status().saveAs("s")))
        .injectOpen(rampUsers(load.users()).during(load.duration())))
        .protocols(load.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }
}
