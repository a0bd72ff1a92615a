package flashclaim.store.firestore.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.Firestore;
import com.google.firestore.v1.CommitRequest;
import com.google.firestore.v1.Write;
import flashclaim.store.firestore.FirestoreLayout;
import flashclaim.store.firestore.SentMessages;
import flashclaim.testing.Api;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreContents;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The warm-up command against the emulator, in-process, on campaigns created through the service:
 * it writes exactly the schedule's writes into the campaign's claims collection, each create with
 * its delete, and leaves the collection empty and the campaign's stock and audit as they were; it
 * refuses a campaign it must not warm and then writes nothing. Every write is counted as sent, by
 * an interceptor on the command's own client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FirestoreWarmUpTest {
  private static final int COUPONS = 10;
  /** 20/s, 30/s, then 40/s for a second: 90 writes. */
  private static final String[] TINY =
      {"--start-rate", "20", "--growth", "1.5", "--step", "1s", "--target-rate", "40"};

  private final FirestoreBackend backend = new FirestoreBackend();
  private ServiceInstance instance;

  @BeforeAll
  void start() {
    instance = ServiceInstance.start();
  }

  @AfterAll
  void stop() {
    instance.close();
  }

  @BeforeEach
  void reset() {
    backend.reset();
  }

  @Test
  void aRampWritesThePlannedWritesAndLeavesTheCampaignAsItWas() {
    String campaign = futureCampaign("warm");
    Map<String, Object> before = campaignView(campaign);
    WriteRecorder sent = new WriteRecorder();
    Output out = new Output();

    WarmUp.Outcome outcome = warmUp(campaign, sent, out, () -> false);

    long planned = new WarmUpSchedule(20, 1.5, Duration.ofSeconds(1), 40, Duration.ofSeconds(1)).plannedWrites();
    assertThat(planned).isEqualTo(90);
    assertThat(outcome).isInstanceOf(WarmUp.Outcome.Ran.class);
    WarmUp.Outcome.Ran ran = (WarmUp.Outcome.Ran) outcome;
    assertThat(ran.writes()).as(out.text()).isEqualTo(planned);
    assertThat(ran.errors()).isZero();
    assertThat(ran.left()).isZero();
    assertThat(ran.stopped()).isFalse();
    assertThat(WarmUpMain.status(outcome)).isZero();
    // What went over the wire: every create has its delete, and the steps' writes are the plan.
    assertThat(sent.creates()).hasSize((int) ran.created()).doesNotHaveDuplicates();
    assertThat(sent.deletes()).containsExactlyInAnyOrderElementsOf(sent.creates());
    assertThat(sent.creates().size() + sent.deletes().size()).isEqualTo(planned + ran.cleanupWrites());
    assertThat(ran.deleted()).isEqualTo(ran.created());
    String claims = "projects/" + TestEmulator.PROJECT + "/databases/(default)/documents/campaigns/"
        + campaign + "/claims/";
    assertThat(sent.creates()).allSatisfy(name -> assertThat(name).matches(java.util.regex.Pattern.quote(claims) + "[0-9a-f]{64}"));
    assertThat(StoreContents.claims(campaign)).isEmpty();
    assertThat(campaignView(campaign)).isEqualTo(before);
    Map<String, Object> audit = audit(campaign);
    assertThat(audit).containsEntry("ok", true).containsEntry("coupons", COUPONS).containsEntry("claims", 0);
    assertThat(out.text())
        .contains("step 1 of 3: 20 writes/s for 1s (20 writes)")
        .contains("total: 90 writes in 3s")
        .contains("step 3 of 3: rate 40/s")
        .contains("0 errors");
  }

  @Test
  void aStopEndsTheRampAndDeletesWhatItCreated() {
    String campaign = futureCampaign("stopped");
    WriteRecorder sent = new WriteRecorder();

    WarmUp.Outcome outcome = warmUp(campaign, sent, new Output(), () -> sent.count() >= 25);

    WarmUp.Outcome.Ran ran = (WarmUp.Outcome.Ran) outcome;
    assertThat(ran.stopped()).isTrue();
    assertThat(ran.writes()).isBetween(25L, 89L);
    assertThat(ran.left()).isZero();
    assertThat(sent.creates()).isNotEmpty();
    assertThat(sent.deletes()).containsExactlyInAnyOrderElementsOf(sent.creates());
    assertThat(StoreContents.claims(campaign)).isEmpty();
  }

  @Test
  void anUnknownCampaignIsRefused() {
    futureCampaign("known");
    assertRefused("unknown", "campaign unknown does not exist");
  }

  @Test
  void anOpenCampaignIsRefused() {
    Api.createCampaign(instance.url(), "open", 1, COUPONS);
    assertRefused("open", "campaign open has no startsAt, so it is open: warm up before the sale opens");
    String opened = "opened";
    Api.createCampaign(instance.url(), opened, 1, COUPONS, Instant.now().plusSeconds(1), null);
    sleep(Duration.ofMillis(1500));
    assertRefused(opened, "campaign opened opened at ");
  }

  @Test
  void aCampaignWithAClaimRecordIsRefused() throws Exception {
    String campaign = futureCampaign("claimed");
    Firestore db = TestEmulator.firestore();
    FirestoreLayout.claims(db, new flashclaim.campaign.CampaignId(campaign))
        .document(flashclaim.Sha256.hex("some-user"))
        .create(java.util.Map.of("code", "c0", "claimedAt", com.google.cloud.Timestamp.now()))
        .get();
    assertRefused(campaign, "campaign claimed already has claim records");
  }

  @Test
  void badOptionsAndALocalProjectWithoutEmulatorAreRefused() {
    Output err = new Output();
    assertThat(
            WarmUpMain.run(
                new String[] {"--campaign", "c", "--target-rate", "40", "--growth", "2"},
                Map.of("GOOGLE_CLOUD_PROJECT", TestEmulator.PROJECT),
                new Output().stream,
                err.stream,
                () -> false,
                List.of()))
        .isEqualTo(2);
    assertThat(err.text()).contains("--growth must be at most 1.5").contains("at most 50 %");
    Output err2 = new Output();
    assertThat(
            WarmUpMain.run(
                new String[] {"--campaign", "c", "--target-rate", "40"},
                Map.of("GOOGLE_CLOUD_PROJECT", "demo-local"),
                new Output().stream,
                err2.stream,
                () -> false,
                List.of()))
        .isEqualTo(2);
    assertThat(err2.text()).contains("demo-local is a local (demo-) project: set FIRESTORE_EMULATOR_HOST");
  }

  /** Runs the command on the campaign: it refuses in one line, with status 2, and writes nothing. */
  private void assertRefused(String campaign, String reason) {
    Map<String, String> before = StoreContents.snapshot();
    WriteRecorder sent = new WriteRecorder();
    Output out = new Output();
    Output err = new Output();

    int status = WarmUpMain.run(args(campaign), env(), out.stream, err.stream, () -> false, List.of(sent));

    assertThat(status).as(err.text()).isEqualTo(2);
    assertThat(err.text()).startsWith("warm-up: refused: " + reason).hasLineCount(1);
    assertThat(sent.count()).isZero();
    assertThat(StoreContents.snapshot()).isEqualTo(before);
  }

  private WarmUp.Outcome warmUp(String campaign, WriteRecorder sent, Output out, BooleanSupplier stop) {
    WarmUpMain.Options options = WarmUpMain.Options.parse(args(campaign), env());
    try (Firestore db = WarmUpMain.client(options.project(), env(), List.of(sent))) {
      return WarmUpMain.warmUp(db, options, out.stream, stop);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String[] args(String campaign) {
    String[] args = new String[TINY.length + 2];
    System.arraycopy(TINY, 0, args, 0, TINY.length);
    args[TINY.length] = "--campaign";
    args[TINY.length + 1] = campaign;
    return args;
  }

  private static Map<String, String> env() {
    return Map.of("GOOGLE_CLOUD_PROJECT", TestEmulator.PROJECT, "FIRESTORE_EMULATOR_HOST", TestEmulator.host());
  }

  /** A seeded campaign that opens in an hour. */
  private String futureCampaign(String id) {
    Api.createCampaign(instance.url(), id, 1, COUPONS, Instant.now().plus(Duration.ofHours(1)), null);
    return id;
  }

  private Map<String, Object> campaignView(String campaign) {
    Api.Response view = Api.get(instance.url(), "/v1/admin/campaigns/" + campaign, Tokens.admin());
    assertThat(view.status()).as(view.body()).isEqualTo(200);
    return view.json();
  }

  private Map<String, Object> audit(String campaign) {
    URI url = instance.url();
    Api.Response audit = Api.get(url, "/v1/admin/campaigns/" + campaign + "/audit", Tokens.admin());
    assertThat(audit.status()).as(audit.body()).isEqualTo(200);
    return audit.json();
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Text printed by the command. */
  private static final class Output {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }

  /** The document names of the creates and deletes that the client sent, one commit each. */
  private static final class WriteRecorder extends SentMessages {
    private final List<String> creates = new CopyOnWriteArrayList<>();
    private final List<String> deletes = new CopyOnWriteArrayList<>();
    private final List<Write> others = new CopyOnWriteArrayList<>();

    List<String> creates() {
      assertThat(others).as("writes other than creates and deletes").isEmpty();
      return List.copyOf(creates);
    }

    List<String> deletes() {
      return List.copyOf(deletes);
    }

    int count() {
      return creates.size() + deletes.size() + others.size();
    }

    @Override
    protected void sent(Object message) {
      if (message instanceof CommitRequest commit) {
        for (Write write : commit.getWritesList()) {
          if (write.hasDelete()) {
            deletes.add(write.getDelete());
          } else if (write.hasUpdate()
              && write.getCurrentDocument().hasExists()
              && !write.getCurrentDocument().getExists()
              && write.getUpdate().getFieldsMap().keySet().equals(java.util.Set.of(WarmUp.WARM_UP))) {
            creates.add(write.getUpdate().getName());
          } else {
            others.add(write);
          }
        }
      }
    }
  }
}
