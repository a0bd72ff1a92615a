package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.MovableClock;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * G7's ticket: good only for the user and campaign it was issued to, until it expires; anything
 * else (forged, tampered with, malformed) is no ticket at all, never an error.
 */
class TicketCodecTest {
  private static final String SECRET = "ticket-secret-for-flashclaim-tests-0123456789";
  private static final Instant FIRST = Instant.parse("2026-11-22T10:00:00.123Z");

  private final MovableClock clock = new MovableClock(FIRST.plusSeconds(5));
  private final TicketCodec codec = new TicketCodec(config(SECRET), clock);

  @Test
  void acceptsItsOwnTicketForTheSameUserAndCampaign() {
    Ticket ticket = codec.first(FIRST);
    String text = codec.encode("sale", "alice", ticket);

    assertThat(codec.decode(text, "sale", "alice")).contains(ticket);
    assertThat(ticket.firstArrival()).isEqualTo(FIRST);
    assertThat(ticket.expiresAt()).isEqualTo(FIRST.plus(Duration.ofMinutes(10)));
    assertThat(text).doesNotContain("alice").hasSizeLessThanOrEqualTo(TicketCodec.MAX_LENGTH);
  }

  @Test
  void aTicketKeepsItsTurnAndNoneOfItCanBeCutOrMoved() {
    Ticket told = codec.first(FIRST).withTurn(FIRST.plusSeconds(95));
    String text = codec.encode("sale", "alice", told);
    String without = codec.encode("sale", "alice", told.withTurn(null));
    String sooner = codec.encode("sale", "bob", told.withTurn(FIRST.plusSeconds(20)));
    String[] mine = text.split("\\.");

    assertThat(codec.decode(text, "sale", "alice")).contains(told);
    assertThat(codec.decode(without, "sale", "alice")).contains(codec.first(FIRST));
    assertThat(text).hasSizeLessThanOrEqualTo(TicketCodec.MAX_LENGTH);
    // the turn dropped, or replaced by another user's sooner one, under this ticket's MAC
    String dropped = "2." + without.split("\\.")[1] + "." + mine[2];
    String spliced = "2." + sooner.split("\\.")[1] + "." + mine[2];
    assertThat(codec.decode(dropped, "sale", "alice")).isEmpty();
    assertThat(codec.decode(spliced, "sale", "alice")).isEmpty();
  }

  @Test
  void refusesAnotherUsersOrCampaignsTicket() {
    String text = codec.encode("sale", "alice", codec.first(FIRST));

    assertThat(codec.decode(text, "sale", "bob")).isEmpty();
    assertThat(codec.decode(text, "other-sale", "alice")).isEmpty();
    assertThat(codec.decode(text, "sale", "Alice")).isEmpty();
  }

  @Test
  void refusesAnExpiredTicket() {
    String text = codec.encode("sale", "alice", codec.first(FIRST));
    clock.move(Duration.ofMinutes(10).minusSeconds(5).minusMillis(1));
    assertThat(codec.decode(text, "sale", "alice")).isPresent();
    clock.move(Duration.ofMillis(1));
    assertThat(codec.decode(text, "sale", "alice")).isEmpty();
  }

  @Test
  void refusesATicketSignedWithAnotherSecret() {
    TicketCodec forger = new TicketCodec(config(SECRET + "-not-ours"), clock);
    String forged = forger.encode("sale", "alice", forger.first(FIRST.minusSeconds(60)));

    assertThat(forger.decode(forged, "sale", "alice")).isPresent();
    assertThat(codec.decode(forged, "sale", "alice")).isEmpty();
  }

  /** Every single-character change anywhere in the text, and every cut, is refused. */
  @Test
  void refusesEveryTamperedTicket() {
    Ticket plain = codec.first(FIRST);
    for (Ticket ticket : List.of(plain, plain.withTurn(FIRST.plusSeconds(95)))) {
      refusesEveryChangeOf(codec.encode("sale", "alice", ticket));
    }
  }

  private void refusesEveryChangeOf(String text) {
    List<String> tampered = new ArrayList<>();
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=";
    for (int i = 0; i < text.length(); i++) {
      for (char c : alphabet.toCharArray()) {
        if (c != text.charAt(i)) {
          tampered.add(text.substring(0, i) + c + text.substring(i + 1));
        }
      }
      tampered.add(text.substring(0, i));
    }
    tampered.add(text + "A");
    tampered.add(text + ".");

    assertThat(tampered).hasSizeGreaterThan(4_000);
    assertThat(tampered).allSatisfy(t -> assertThat(codec.decode(t, "sale", "alice")).isEmpty());
  }

  /** A ticket whose arrival is moved earlier, re-signed without the secret, is refused. */
  @Test
  void refusesATicketWithAnEarlierArrivalSpliced() {
    String mine = codec.encode("sale", "alice", codec.first(FIRST));
    String earlier = codec.encode("sale", "bob", codec.first(FIRST.minusSeconds(60)));
    String[] a = mine.split("\\.");
    String[] b = earlier.split("\\.");

    assertThat(codec.decode(a[0] + "." + b[1] + "." + a[2], "sale", "alice")).isEmpty();
    assertThat(codec.decode(earlier, "sale", "alice")).isEmpty();
  }

  @Test
  void malformedTextIsNoTicket() {
    String tooLong = "2." + "A".repeat(TicketCodec.MAX_LENGTH);
    for (String text :
        new String[] {
          null, "", ".", "..", "2", "2.", "2..", "3.AAAAAAAAAAAAAAAAAAAAAA.AAAA", "2.%%%.$$$",
          "2.AAAA.AAAA", "2.AAAAAAAAAAAAAAAAAAAAAA.AAAA.AAAA", "2.\u00e9\u00e9.\u00e9", tooLong,
          "2.AAAAAAAAAAAAAAAAAAAAAA==.AAAA", " 2.AAAAAAAAAAAAAAAAAAAAAA.AAAA"
        }) {
      assertThat(codec.decode(text, "sale", "alice")).as(String.valueOf(text)).isEmpty();
    }
  }

  /** Users who first arrived in the same millisecond keep their own places. */
  @Test
  void keepsTheFirstArrivalToTheMicrosecond() {
    Instant arrival = FIRST.plusNanos(456_789); // .123456789
    Ticket ticket = codec.first(arrival);
    String text = codec.encode("sale", "alice", ticket);

    assertThat(ticket.firstArrival()).isEqualTo(FIRST.plusNanos(456_000));
    assertThat(codec.decode(text, "sale", "alice").map(Ticket::firstArrival))
        .contains(FIRST.plusNanos(456_000));
    assertThat(codec.decode(text, "sale", "alice")).contains(ticket);
    assertThat(text).hasSize(68);
  }

  /**
   * A ticket of the first version (its arrival to the millisecond, its own MAC domain) is no
   * ticket, neither as it was nor relabelled as this version: read as microseconds, its arrival
   * would lie in 1970, ahead of everyone.
   */
  @Test
  void aTicketOfTheFirstVersionIsNoTicketEvenRelabelled() throws Exception {
    Ticket ticket = codec.first(FIRST);
    String[] first = firstVersion("sale", "alice", ticket).split("\\.");

    assertThat(codec.decode(String.join(".", first), "sale", "alice")).isEmpty();
    assertThat(codec.decode("2." + first[1] + "." + first[2], "sale", "alice")).isEmpty();
  }

  /** The text the first version wrote: {@code 1.<arrival ms, expiry ms>.<mac>}. */
  private static String firstVersion(String campaign, String user, Ticket ticket)
      throws Exception {
    byte[] payload =
        ByteBuffer.allocate(16)
            .putLong(ticket.firstArrival().toEpochMilli())
            .putLong(ticket.expiresAt().toEpochMilli())
            .array();
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] scope = campaign.getBytes(StandardCharsets.UTF_8);
    mac.update("flashclaim-ticket/1".getBytes(StandardCharsets.UTF_8));
    mac.update(ByteBuffer.allocate(4).putInt(scope.length).array());
    mac.update(scope);
    mac.update(MessageDigest.getInstance("SHA-256").digest(user.getBytes(StandardCharsets.UTF_8)));
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    return "1." + base64.encodeToString(payload) + "." + base64.encodeToString(mac.doFinal(payload));
  }

  @Test
  void anArrivalAheadOfThisClockCountsAsNow() {
    Instant now = clock.instant();
    assertThat(codec.first(now.plusSeconds(2)).arrivalNoLaterThan(now)).isEqualTo(now);
    assertThat(codec.first(now.minusSeconds(2)).arrivalNoLaterThan(now))
        .isEqualTo(now.minusSeconds(2));
  }

  static AdmissionConfig config(String secret) {
    return new AdmissionConfig(
        "fixed", 1, 1, 1, 0, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(30),
        Duration.ofSeconds(30), Duration.ZERO, 0.5, 1,
        Duration.ofSeconds(1),
        1.0,
        secret,
        Duration.ofMinutes(10), Duration.ZERO, Duration.ZERO, true, 4, 2, true,
        Duration.ofMillis(500));
  }
}
