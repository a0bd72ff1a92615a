package flashclaim.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.MultiInstanceTest;
import flashclaim.testing.PostgresBackend;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestPostgres;
import flashclaim.testing.Tokens;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Seeding on PostgreSQL (W5) through the admin route, in batches of {@value #BATCH} codes written
 * on parallel connections: every code lands once, the additions counter agrees with the pool, and
 * each committed batch logs its progress. Correctness only; the time is measured by {@code
 * flashclaim.bench.SeedingBenchmark}.
 */
class PostgresSeedingTest extends MultiInstanceTest {
  private static final int BATCH = 1_000;
  private static final int GENERATED = 100_000;
  private static final Pattern PROGRESS =
      Pattern.compile("Seeding campaign (\\S+): (\\d+)/(\\d+) codes written, (\\d+) of them new");

  private final StoreBackend backend = new PostgresBackend();

  @Override
  protected StoreBackend backend() {
    return backend;
  }

  @Override
  protected Map<String, Object> instanceProperties() {
    return Map.of("flashclaim.postgres.seed-batch-size", String.valueOf(BATCH));
  }

  @Test
  void hundredThousandGeneratedCodesLandOnceWithAProgressLinePerBatch() throws Exception {
    String campaign = newCampaign(1, 0);
    List<String> progress;
    Api.Response added;
    try (Progress log = new Progress()) {
      added =
          Api.post(
              instance(1),
              "/v1/admin/campaigns/" + campaign + "/coupons",
              Tokens.admin(),
              "{\"generate\":{\"count\":" + GENERATED + ",\"prefix\":\"W5-\"}}");
      progress = log.lines();
    }
    assertThat(added.status()).as(added.toString()).isEqualTo(200);
    assertThat(added.json()).containsEntry("added", GENERATED).containsEntry("skipped", 0);

    List<StoreBackend.StoredCoupon> coupons = backend.coupons(campaign);
    assertThat(coupons).hasSize(GENERATED).noneMatch(StoreBackend.StoredCoupon::assigned);
    assertThat(coupons).allMatch(c -> c.code().matches("W5-[0-9A-Z]{12}"));
    assertThat(couponsAdded(campaign)).isEqualTo(GENERATED);

    // One line per batch, in the order the batches committed: the written count grows by a
    // batch each time, and so does the new count (every generated code is new).
    List<Long> written = new ArrayList<>();
    for (String line : progress) {
      Matcher m = PROGRESS.matcher(line);
      assertThat(m.matches()).as(line).isTrue();
      if (m.group(1).equals(campaign)) {
        assertThat(m.group(3)).isEqualTo(String.valueOf(GENERATED));
        assertThat(m.group(4)).isEqualTo(m.group(2));
        written.add(Long.parseLong(m.group(2)));
      }
    }
    assertThat(written)
        .containsExactlyElementsOf(
            LongStream.rangeClosed(1, GENERATED / BATCH).map(n -> n * BATCH).boxed().toList());

    // The seeded pool serves claims through another instance.
    assertThat(Claimer.claimUntilFinal(instance(2), campaign, "first-buyer").status())
        .isEqualTo(201);
    assertStoreConsistent(campaign, 1);
  }

  /**
   * A code given twice in one call, in batches that run at the same time, is written once and
   * counted once as skipped; a repeat adds only the codes it has new; the additions counter
   * matches the pool throughout.
   */
  @Test
  void codesGivenTwiceAcrossParallelBatchesAreWrittenOnce() throws Exception {
    String campaign = newCampaign(1, 0);
    List<String> twice = new ArrayList<>(codes(campaign, 0, 2_000));
    twice.addAll(codes(campaign, 0, 500)); // the third batch repeats half of the first
    assertThat(add(0, campaign, twice)).containsEntry("added", 2_000).containsEntry("skipped", 500);
    assertThat(add(1, campaign, codes(campaign, 1_500, 3_000)))
        .containsEntry("added", 1_000)
        .containsEntry("skipped", 500);

    assertThat(backend.coupons(campaign).stream().map(StoreBackend.StoredCoupon::code).sorted())
        .containsExactlyElementsOf(codes(campaign, 0, 3_000).stream().sorted().toList());
    assertThat(couponsAdded(campaign)).isEqualTo(3_000);
  }

  private Map<String, Object> add(int instance, String campaign, List<String> codes) {
    String body =
        codes.stream().map(c -> '"' + c + '"').collect(Collectors.joining(",", "{\"codes\":[", "]}"));
    Api.Response added =
        Api.post(
            instance(instance), "/v1/admin/campaigns/" + campaign + "/coupons", Tokens.admin(), body);
    assertThat(added.status()).as(added.toString()).isEqualTo(200);
    return added.json();
  }

  private static List<String> codes(String campaign, int from, int to) {
    return IntStream.range(from, to).mapToObj(n -> campaign + "-" + n).toList();
  }

  private static long couponsAdded(String campaign) throws Exception {
    try (Connection connection = TestPostgres.connect();
        PreparedStatement select =
            connection.prepareStatement("SELECT coupons_added FROM campaigns WHERE id = ?")) {
      select.setString(1, campaign);
      try (ResultSet row = select.executeQuery()) {
        assertThat(row.next()).isTrue();
        return row.getLong(1);
      }
    }
  }

  /** The progress lines the seeding logs while open. */
  private static final class Progress implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger(PostgresCouponStore.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    Progress() {
      appender.start();
      logger.addAppender(appender);
    }

    List<String> lines() {
      return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Override
    public void close() {
      logger.detachAppender(appender);
    }
  }
}
