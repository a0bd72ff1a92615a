package flashclaim.load;

import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * W7 phones polling the campaign status: {@code users} distinct users (default 20,000) each ask
 * {@code GET /v1/campaigns/{campaignId}} once, arriving evenly within {@code duration} seconds
 * (default 5, about 4,000 requests per second), all against one instance: the first of {@code
 * baseUrls}. Every answer must be 200 (a 304 too, should a client send a tag); p99 under {@code
 * p99Ms} (default 100). Run it alongside a W1 sale ({@code bin/load-run W1 --with-status}) to see
 * that polling phones neither slow the claims nor load the store: each instance reads a campaign's
 * stock at most once a second (compare {@code flashclaim_status_stock_reads_total} before and
 * after).
 *
 * <p>Parameters as in {@link ClaimLoad} ({@code baseUrls}, {@code campaignId}, {@code users},
 * {@code duration}, {@code secret}, {@code p99Ms}, {@code maxFailedPercent}, {@code
 * shareConnections}), and:
 *
 * <ul>
 *   <li>{@code startAtEpochMs}: the first request is sent at this moment (epoch milliseconds), not
 *       as soon as the simulation starts; so a run started next to another one lands inside it
 *   <li>{@code startAtFile}: instead, the simulation waits (at most 10 minutes) until this file
 *       exists and holds that moment: so it can be started, its JVM and its users ready, before
 *       the run it is to land in, whose start is not known yet (its start then costs that run
 *       nothing)
 *   <li>{@code outcomeFile}: where the tally of the answers is written as JSON after the run:
 *       answers by status, the first and the last answer's time (epoch milliseconds)
 * </ul>
 */
public class W7StatusSimulation extends Simulation {
  static final int USERS = 20_000;
  static final int DURATION_SECONDS = 5;
  static final int P99_MS = 100;

  private final ClaimLoad load = new ClaimLoad("W7", USERS, 0, DURATION_SECONDS, P99_MS);
  private final String campaignId = System.getProperty("campaignId", "load");
  private final String instance = load.baseUrls().get(0);
  private final Duration delay =
      Duration.ofMillis(Math.max(0, startAtEpochMs() - System.currentTimeMillis()));
  private final Path outcomeFile =
      Path.of(System.getProperty("outcomeFile", "target/gatling/w7-outcome.json"));
  private final Map<Integer, LongAdder> answers = new ConcurrentHashMap<>();
  private final LongAccumulator firstAnswer = new LongAccumulator(Math::min, Long.MAX_VALUE);
  private final AtomicLong lastAnswer = new AtomicLong();

  {
    setUp(
            scenario("W7 status polling")
                .exec(feed(onOneInstance(load.users(1))))
                .exec(
                    http("status")
                        .get("#{baseUrl}/v1/campaigns/" + campaignId)
                        .header("Authorization", "Bearer #{token}")
                        .check(status().saveAs("status"), status().in(200, 304)))
                .exec(this::answered)
                .injectOpen(nothingFor(delay), rampUsers(load.users()).during(load.duration())))
        .protocols(load.protocol())
        .assertions(load.assertions());
  }

  /** When the first request is to go: {@code startAtEpochMs}, or as {@code startAtFile} says. */
  private static long startAtEpochMs() {
    String file = System.getProperty("startAtFile");
    if (file == null) {
      return Long.getLong("startAtEpochMs", 0);
    }
    Path path = Path.of(file);
    System.out.println("flashclaim W7: waiting for the time of its first request in " + path);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    try {
      while (!Files.exists(path)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no start time in " + path + " within 10 minutes");
        }
        Thread.sleep(10);
      }
      return Long.parseLong(Files.readString(path).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + path, e);
    }
  }

  /** Counts the answer by status (0: none came) at the moment it came. */
  private Session answered(Session session) {
    long now = System.currentTimeMillis();
    int status = session.contains("status") ? session.getInt("status") : 0;
    answers.computeIfAbsent(status, s -> new LongAdder()).increment();
    firstAnswer.accumulate(now);
    lastAnswer.accumulateAndGet(now, Math::max);
    return session;
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
        "flashclaim W7: %d status requests within %d s to %s, campaign %s, first in %d ms%n",
        load.users(), load.duration().toSeconds(), instance, campaignId, delay.toMillis());
  }

  @Override
  public void after() {
    StringBuilder byStatus = new StringBuilder();
    new TreeMap<>(answers)
        .forEach(
            (status, n) ->
                byStatus.append(byStatus.isEmpty() ? "" : ",").append('"').append(status)
                    .append("\":").append(n.sum()));
    long answered = answers.values().stream().mapToLong(LongAdder::sum).sum();
    String json =
        "{\"workload\":\"W7\",\"campaignId\":\"" + campaignId + "\",\"instance\":\"" + instance
            + "\",\"users\":" + load.users() + ",\"answers\":" + answered
            + ",\"byStatus\":{" + byStatus + "},\"firstAnswerEpochMs\":"
            + (answered == 0 ? 0 : firstAnswer.get()) + ",\"lastAnswerEpochMs\":"
            + lastAnswer.get() + "}";
    System.out.println("flashclaim W7 outcome: " + json);
    try {
      Files.createDirectories(outcomeFile.toAbsolutePath().getParent());
      Files.writeString(outcomeFile, json + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + outcomeFile, e);
    }
  }
}
