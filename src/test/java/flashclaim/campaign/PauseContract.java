package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.claim.ClosedHolders;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.Concurrently;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.Tokens;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Pause and resume across {@value MultiInstanceTest#INSTANCES} instances, while claims arrive at
 * every one of them: once the pause is acknowledged (the PATCH answered through instance 0), every
 * claim sent more than {@link #BOUND} later, on any instance, is answered 403 {@code
 * campaign-paused} and takes no coupon, until the resume (which waits until every instance has read
 * the paused campaign's holders and refuses from memory, so that a loaded machine's 503s to claims
 * that read the store cannot hide every answer of the pause); once the resume is acknowledged, claims
 * sent more than {@link #BOUND} later are served again on every instance. The coupons assigned are
 * exactly the claims answered 201, with those answered 503 whose user holds a coupon when they
 * retry after the run (read from the store), and the test reports how many 201s came
 * after the acknowledgement and how late the last one was sent. Subclassed per store.
 */
public abstract class PauseContract extends MultiInstanceTest {
  /** The promise: a pause reaches every instance within 2 s of its acknowledgement. */
  static final Duration BOUND = Duration.ofSeconds(2);

  private static final int CLIENTS = 9;
  private static final int COUPONS = 4_000;
  private static final String PAUSED = "urn:flashclaim:problem:campaign-paused";

  /** One claim: which instance, when it was sent and answered (ns), and how. */
  record Sent(int instance, String user, long sentAt, long answeredAt, int status, String type) {}

  @Test
  void aPauseStopsClaimsOnEveryInstanceWithinTheBoundAndAResumeServesThemAgain() throws Exception {
    String campaign = newCampaign(1, COUPONS);
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger users = new AtomicInteger();
    List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    List<Future<?>> claimers = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int client = c;
      claimers.add(
          clients.submit(
              () -> {
                while (running.get()) {
                  int instance = client % instances.size();
                  String user = "pause-user-" + users.incrementAndGet();
                  long at = System.nanoTime();
                  Api.Response answer =
                      Claimer.claim(instance(instance), campaign, Tokens.user(user), null);
                  String type =
                      answer.status() >= 400 ? String.valueOf(answer.json().get("type")) : null;
                  sent.add(
                      new Sent(instance, user, at, System.nanoTime(), answer.status(), type));
                  Thread.sleep(20);
                }
                return null;
              }));
    }

    Thread.sleep(500);
    long[] snapshotsBefore = closedHolderLoads();
    Api.Response paused = patch(instance(0), campaign, true);
    long pauseAcked = System.nanoTime();
    assertThat(paused.status()).as(paused.body()).isEqualTo(200);
    Thread.sleep(BOUND.toMillis() + 3_000);
    // Until an instance has read the paused campaign's holders, each claim reads its user's claims,
    // which a loaded machine may answer 503; after, a claim is refused from memory.
    awaitHolderSnapshots(snapshotsBefore);
    Thread.sleep(1_000);
    long resumeSent = System.nanoTime();
    Api.Response resumed = patch(instance(1), campaign, false);
    long resumeAcked = System.nanoTime();
    assertThat(resumed.status()).as(resumed.body()).isEqualTo(200);
    Thread.sleep(BOUND.toMillis() + 3_000);
    running.set(false);
    for (Future<?> claimer : claimers) {
      claimer.get();
    }

    long bound = BOUND.toNanos();
    List<Sent> all = new ArrayList<>(sent);
    List<Sent> whilePaused =
        all.stream().filter(s -> s.sentAt() >= pauseAcked + bound && s.answeredAt() < resumeSent).toList();
    List<Sent> afterResume = all.stream().filter(s -> s.sentAt() >= resumeAcked + bound).toList();
    List<Sent> createdAfterAck =
        all.stream().filter(s -> s.status() == 201 && s.answeredAt() > pauseAcked && s.sentAt() < resumeSent).toList();
    long lastServedSentMs =
        createdAfterAck.stream().mapToLong(s -> (s.sentAt() - pauseAcked) / 1_000_000).max().orElse(-1);
    Map<Integer, Integer> pausedAnswers = new TreeMap<>();
    all.stream()
        .filter(s -> PAUSED.equals(s.type()))
        .forEach(s -> pausedAnswers.merge(s.instance(), 1, Integer::sum));
    System.out.printf(
        "pause (%s): %d claims, %d answered 201 after the pause was acknowledged (the last sent %d ms"
            + " after it), campaign-paused per instance %s%n",
        getClass().getSimpleName(),
        all.size(),
        createdAfterAck.size(),
        lastServedSentMs,
        pausedAnswers);

    assertThat(whilePaused).as("claims sent within the pause, past the bound").isNotEmpty();
    // A 503 (a loaded machine) serves nothing either; every other answer is the pause.
    assertThat(whilePaused.stream().filter(s -> s.status() != 503).toList())
        .as("claims sent %s or more after the pause was acknowledged", BOUND)
        .isNotEmpty()
        .allSatisfy(
            s -> {
              assertThat(s.status()).as(s.toString()).isEqualTo(403);
              assertThat(s.type()).as(s.toString()).isEqualTo(PAUSED);
            });
    assertThat(whilePaused.stream().filter(s -> PAUSED.equals(s.type())).map(Sent::instance).distinct().count())
        .as("instances that answered campaign-paused")
        .isEqualTo(instances.size());
    assertThat(afterResume).as("claims sent after the resume, past the bound").isNotEmpty();
    assertThat(afterResume)
        .as("claims sent %s or more after the resume was acknowledged", BOUND)
        .allSatisfy(s -> assertThat(s.status()).as(s.toString()).isIn(201, 503));
    assertThat(afterResume.stream().filter(s -> s.status() == 201).map(Sent::instance).distinct().count())
        .as("instances that served claims after the resume")
        .isEqualTo(instances.size());

    // a 503 may come after its claim's commit landed (on a loaded machine the store answered after
    // the claim's deadline): the user's retry tells, 200 if it did (or 201 if it now does)
    int settled = 0;
    for (Sent s : all) {
      if (s.status() == 503) {
        int status =
            Claimer.claimUntilFinal(instance(s.instance()), campaign, s.user()).response().status();
        settled += status == 200 || status == 201 ? 1 : 0;
      }
    }
    int created = (int) all.stream().filter(s -> s.status() == 201).count() + settled;
    assertThat(created).isLessThan(COUPONS);
    assertStoreConsistent(campaign, created);
    assertAuditOk(campaign, created);
  }

  /** How many closed campaigns' holders each instance has read ({@link ClosedHolders#loads}). */
  private long[] closedHolderLoads() {
    return instances.stream()
        .mapToLong(i -> i.context().getBean(ClosedHolders.class).loads())
        .toArray();
  }

  /**
   * Waits until every instance has read the holders of one more closed campaign than {@code
   * before}: the pause's, which it reads once the pause settled (about 5 s after it saw it).
   */
  private void awaitHolderSnapshots(long[] before) throws InterruptedException {
    Concurrently.awaitValue(
        () -> {
          long[] now = closedHolderLoads();
          int loaded = 0;
          for (int i = 0; i < before.length; i++) {
            loaded += now[i] > before[i] ? 1 : 0;
          }
          return loaded;
        },
        instances.size());
  }

  private static Api.Response patch(URI instance, String campaign, boolean paused) {
    return Api.send(
        Api.request(instance, "/v1/admin/campaigns/" + campaign, Tokens.admin())
            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"paused\":" + paused + "}"))
            .header("Content-Type", "application/merge-patch+json")
            .build());
  }
}
