package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * W2 double-click storm: {@code users} users (default 1,000) each send {@code clicks} claims
 * (default 5) at the same instant, click {@code k} of user {@code i} through {@code
 * baseUrls[(i + k) % n]}; users arrive evenly within {@code duration} seconds (default 30). The
 * pool holds {@code coupons} (default: as many as users). Expected: every user holds exactly one
 * coupon; exactly one of its clicks gets 201 and the others 200 with the same code.
 */
public class W2DoubleClickSimulation extends Simulation {
  static final int USERS = 1_000;
  /** Like W1's window: W2 is about simultaneous clicks of one user, not about the arrival rate. */
  static final int DURATION_SECONDS = 30;
  static final int P99_MS = 250;
  static final int CLICKS = Integer.getInteger("clicks", 5);

  private final ClaimLoad load =
      new ClaimLoad("W2", USERS, Integer.getInteger("users", USERS), DURATION_SECONDS, P99_MS);

  {
    setUp(
            scenario("W2 double-click storm")
                .exec(load.claim(load.users(CLICKS), ClaimLoad.CLAIM_OUTCOMES))
                .injectOpen(bursts()))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  /** Per user one burst of {@code clicks} virtual users at once, bursts evenly spaced. */
  private List<OpenInjectionStep> bursts() {
    Duration gap = load.duration().dividedBy(load.users());
    List<OpenInjectionStep> steps = new ArrayList<>(2 * load.users());
    for (int user = 0; user < load.users(); user++) {
      steps.add(atOnceUsers(CLICKS));
      steps.add(nothingFor(gap));
    }
    return steps;
  }

  @Override
  public void before() {
    load.announce(CLICKS + " simultaneous claims per user, spread over the instances");
  }

  @Override
  public void after() {
    load.report(CLICKS);
  }
}
