package flashclaim.http.shed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import flashclaim.http.Arrival;
import flashclaim.http.HttpConfig;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * A trusted front end's time of arrival: the forms front ends write, what is ignored, and how the
 * first filter stamps a request with it (its place in line; its deadline counts from its reading).
 */
class FrontEndArrivalTest {
  private static final String HEADER = "X-Request-Start";
  private static final Instant AT = Instant.parse("2026-11-26T05:00:00.123Z");

  @Test
  void readsSecondsMillisecondsMicrosecondsAndNanosecondsWithOrWithoutThePrefix() {
    long ms = AT.toEpochMilli();
    assertThat(FrontEndArrival.parse("t=" + ms / 1000 + ".123")).contains(AT); // nginx ${msec}
    assertThat(FrontEndArrival.parse(ms / 1000 + ".123")).contains(AT);
    assertThat(FrontEndArrival.parse("t=" + ms)).contains(AT); // HAProxy date(0,ms), Heroku
    assertThat(FrontEndArrival.parse("t=" + ms + "000")).contains(AT); // Apache %t
    assertThat(FrontEndArrival.parse(" " + ms + "000000 ")).contains(AT);
    assertThat(FrontEndArrival.parse(String.valueOf(ms / 1000))).contains(AT.minusMillis(123));
  }

  @Test
  void ignoresWhatIsNoTimeSinceTheEpoch() {
    for (String value :
        new String[] {
          "", "t=", "t=-1", "-1764133200", "1e12", "0x1F", "t=1.2.3", "1764133200,5", "now",
          "t= 1764133200123", "1".repeat(41), "123456789012345678901", "t=١٧٦٤١٣٣٢٠٠"
        }) {
      assertThat(FrontEndArrival.parse(value)).as(value).isEmpty();
    }
  }

  @Test
  void aStampTooOldRepeatedOrAbsentIsIgnoredAndOneFromTheFutureCountsAsNow() {
    FrontEndArrival frontEnd = new FrontEndArrival(config(HEADER));
    Instant now = AT.plusSeconds(5);
    assertThat(frontEnd.of(request(AT), now)).contains(AT);
    assertThat(frontEnd.of(request(now.minusSeconds(30)), now)).contains(now.minusSeconds(30));
    assertThat(frontEnd.of(request(now.minusSeconds(31)), now)).as("older than max-age").isEmpty();
    assertThat(frontEnd.of(request(now.plusSeconds(2)), now)).as("ahead").contains(now);
    assertThat(frontEnd.of(HttpRequest.POST("/v1/campaigns/c/claims", ""), now)).isEmpty();
    MutableHttpRequest<?> twice = request(AT);
    twice.getHeaders().add(HEADER, "t=" + AT.toEpochMilli());
    assertThat(frontEnd.of(twice, now)).as("sent twice").isEmpty();
    assertThat(frontEnd.readCount()).isEqualTo(3);
    assertThat(frontEnd.waitedSeconds()).isCloseTo(5 + 30 + 0, offset(1e-6));

    FrontEndArrival off = new FrontEndArrival(config(""));
    assertThat(off.enabled()).isFalse();
    assertThat(off.of(request(AT), now)).isEmpty();
  }

  @Test
  void theFirstFilterStampsTheFrontEndsTimeAsThePlaceInLineButNotTheStartOfTheDeadline() {
    LoadShedFilter filter = EventLoopLagTest.filter(config(HEADER), null);
    Instant received = Instant.now().minusMillis(1_500).truncatedTo(ChronoUnit.MILLIS);
    MutableHttpRequest<?> stamped = request(received);
    Instant read = Instant.now();
    filter.admit(stamped);
    assertThat(Arrival.seen(stamped, Clock.systemUTC())).isEqualTo(received);
    assertThat(Arrival.of(stamped, Clock.systemUTC())).isBetween(read, Instant.now());

    MutableHttpRequest<?> forged = HttpRequest.POST("/v1/campaigns/c/claims", "");
    forged.getHeaders().add(HEADER, "yesterday");
    Instant before = Instant.now();
    filter.admit(forged);
    assertThat(Arrival.seen(forged, Clock.systemUTC())).isBetween(before, Instant.now());

    LoadShedFilter off = EventLoopLagTest.filter(config(""), null);
    MutableHttpRequest<?> ignored = request(received);
    before = Instant.now();
    off.admit(ignored);
    assertThat(Arrival.seen(ignored, Clock.systemUTC())).isBetween(before, Instant.now());
  }

  private static MutableHttpRequest<?> request(Instant receivedAt) {
    return HttpRequest.POST("/v1/campaigns/c/claims", "")
        .header(HEADER, "t=" + receivedAt.toEpochMilli());
  }

  private static HttpConfig config(String header) {
    return new HttpConfig(
        256, Duration.ofSeconds(1), Duration.ofMillis(50), true, header, Duration.ofSeconds(30), 0,
        true, Duration.ZERO);
  }
}
