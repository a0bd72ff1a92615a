package flashclaim.admission;

import flashclaim.Sha256;
import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Nullable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The text of a {@link Ticket}, opaque to clients: {@code 2.<payload>.<mac>}, where the payload is
 * the first arrival (epoch microseconds: users who first arrived in the same millisecond keep their
 * own places) and the expiry (epoch milliseconds), 8 bytes each, and the turn told when the ticket
 * has one (epoch milliseconds, 8 bytes more), and the MAC is the
 * HMAC-SHA256 of the payload together with the campaign and the SHA-256 of the user, both parts in
 * base64url. A ticket
 * is therefore good only for the user and campaign it was issued to, and only until it expires;
 * the user's id itself is not in it.
 *
 * <p>{@link #decode} never throws: text that is missing, malformed, forged, tampered with, expired
 * or another user's or campaign's is no ticket, and the claim counts as arriving now.
 */
@Context
public final class TicketCodec {
  /** The longest text taken as a ticket; a real one is 68 characters, or 78 with a turn. */
  static final int MAX_LENGTH = 128;

  private static final Logger LOG = LoggerFactory.getLogger(TicketCodec.class);
  private static final String ALGORITHM = "HmacSHA256";
  /**
   * The format's version, which is also in the MAC's domain: a ticket of another version (the
   * first kept its arrival to the millisecond) is no ticket, even relabelled.
   */
  private static final String VERSION = "2";
  private static final byte[] DOMAIN = "flashclaim-ticket/2".getBytes(StandardCharsets.UTF_8);
  private static final int PAYLOAD_BYTES = 16;
  private static final int PAYLOAD_WITH_TURN_BYTES = 24;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final SecretKeySpec key;
  /** Initialised with the key once and copied for each ticket: a copy skips the key schedule. */
  private final Mac prototype;
  private final Duration ttl;
  private final Clock clock;

  public TicketCodec(AdmissionConfig config, Clock clock) {
    byte[] secret = config.ticketSecret().getBytes(StandardCharsets.UTF_8);
    if (secret.length < 32) {
      throw new IllegalStateException(
          "flashclaim.admission.ticket-secret must be at least 32 bytes");
    }
    if (AdmissionConfig.DEVELOPMENT_SECRET.equals(config.ticketSecret())) {
      LOG.warn(
          "Admission tickets use the development secret: set FLASHCLAIM_ADMISSION_TICKET_SECRET.");
    }
    this.key = new SecretKeySpec(secret, ALGORITHM);
    this.prototype = newMac();
    this.ttl = config.ticketTtl();
    this.clock = clock;
  }

  /**
   * The ticket of a user who arrives now, for the first time as far as anyone can tell: its times
   * as its text carries them (the arrival to the microsecond, the expiry to the millisecond).
   */
  public Ticket first(Instant arrival) {
    return new Ticket(
        arrival.truncatedTo(ChronoUnit.MICROS), arrival.plus(ttl).truncatedTo(ChronoUnit.MILLIS));
  }

  /** The text of {@code ticket} for this user in this campaign. */
  public String encode(String campaign, String user, Ticket ticket) {
    ByteBuffer fields =
        ByteBuffer.allocate(ticket.turn() == null ? PAYLOAD_BYTES : PAYLOAD_WITH_TURN_BYTES)
            .putLong(epochMicros(ticket.firstArrival()))
            .putLong(ticket.expiresAt().toEpochMilli());
    if (ticket.turn() != null) {
      fields.putLong(ticket.turn().toEpochMilli());
    }
    byte[] payload = fields.array();
    return VERSION
        + "."
        + ENCODER.encodeToString(payload)
        + "."
        + ENCODER.encodeToString(mac(campaign, user, payload));
  }

  /**
   * The ticket in {@code text} if it was issued to this user for this campaign and has not expired;
   * empty otherwise.
   */
  public Optional<Ticket> decode(@Nullable String text, String campaign, String user) {
    if (text == null || text.length() > MAX_LENGTH) {
      return Optional.empty();
    }
    String[] parts = text.split("\\.", -1);
    if (parts.length != 3 || !VERSION.equals(parts[0])) {
      return Optional.empty();
    }
    byte[] payload;
    try {
      payload = DECODER.decode(parts[1]);
    } catch (IllegalArgumentException notBase64) {
      return Optional.empty();
    }
    if (payload.length != PAYLOAD_BYTES && payload.length != PAYLOAD_WITH_TURN_BYTES) {
      return Optional.empty();
    }
    ByteBuffer fields = ByteBuffer.wrap(payload);
    Ticket ticket =
        new Ticket(
            Instant.EPOCH.plus(fields.getLong(), ChronoUnit.MICROS),
            Instant.ofEpochMilli(fields.getLong()),
            fields.hasRemaining() ? Instant.ofEpochMilli(fields.getLong()) : null);
    // The whole text as this codec writes it for this user and campaign, compared in constant time.
    byte[] expected = encode(campaign, user, ticket).getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(expected, text.getBytes(StandardCharsets.UTF_8))
        || !clock.instant().isBefore(ticket.expiresAt())) {
      return Optional.empty();
    }
    return Optional.of(ticket);
  }

  /**
   * Microseconds since the epoch, rounded down; exact for every instant read from a ticket (which
   * came from such a count), where {@code ChronoUnit.MICROS.between} overflows beyond 2262.
   */
  private static long epochMicros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }

  /** HMAC of the domain, the campaign (length-prefixed), the user's SHA-256 and the payload. */
  private byte[] mac(String campaign, String user, byte[] payload) {
    Mac mac;
    try {
      mac = (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      mac = newMac();
    }
    byte[] scope = campaign.getBytes(StandardCharsets.UTF_8);
    byte[] holder = Sha256.digest().digest(user.getBytes(StandardCharsets.UTF_8));
    mac.update(DOMAIN);
    mac.update(ByteBuffer.allocate(4).putInt(scope.length).array());
    mac.update(scope);
    mac.update(holder);
    mac.update(payload);
    return mac.doFinal();
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
    }
  }
}
