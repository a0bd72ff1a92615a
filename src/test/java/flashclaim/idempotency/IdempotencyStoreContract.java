package flashclaim.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Concurrently;
import flashclaim.testing.MovableClock;
import flashclaim.testing.StoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract of an {@link IdempotencyStore}, run against the real store by a subclass per store,
 * with {@value #CLIENTS} store clients of their own and no service: of concurrent creates exactly
 * one wins; completion and deletion are conditioned on the version; and, with an {@link
 * IdempotencyService} over each client on one movable clock, exactly one of many concurrent
 * requests with one key proceeds, its result is replayed byte for byte through every client, a
 * different request under the key is a mismatch, an abandoned key is free at once, an in-flight
 * record past its timeout is taken over by exactly one request (the old ticket can then store
 * nothing), a result past its retention counts as absent, and a body above the limit is stored
 * without it.
 */
public abstract class IdempotencyStoreContract extends StoreContract {
  private static final Duration RETENTION = Duration.ofHours(24);
  private static final Duration IN_FLIGHT = Duration.ofSeconds(30);
  private static final int MAX_BODY = 64;
  private static final StoredResponse CREATED =
      new StoredResponse(
          201, "application/json", "/v1/things/1", "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

  private final MovableClock clock = new MovableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
  private final List<IdempotencyService> services = new ArrayList<>();
  private int keyCounter;

  /** The port over store client {@code client}, one object per client. */
  protected final IdempotencyStore store(int client) {
    return clients().idempotencyStore(client);
  }

  @BeforeAll
  void startServices() {
    IdempotencyConfig config =
        new IdempotencyConfig(
            true, List.of(), RETENTION, IN_FLIGHT, MAX_BODY, Duration.ofSeconds(1));
    for (int i = 0; i < CLIENTS; i++) {
      services.add(new IdempotencyService(store(i), config, clock));
    }
  }

  private IdempotencyService service(int client) {
    return services.get(Math.floorMod(client, CLIENTS));
  }

  private IdempotencyKey newKey() {
    return new IdempotencyKey(
        getClass().getSimpleName() + "-" + System.nanoTime() + "-" + (++keyCounter));
  }

  // ---------------------------------------------------------------- the port's atomic steps

  /**
   * Of creates of one record from every client at once exactly one wins; the record reads as in
   * flight with its fingerprint and expiry.
   */
  @Test
  void ofConcurrentCreatesExactlyOneWins() throws Exception {
    String recordId = newKey().recordId("alice");
    Instant expiresAt = Instant.parse("2030-01-01T00:00:00Z");
    assertThat(store(0).read(recordId)).isEmpty();

    List<Optional<Instant>> created =
        Concurrently.run(12, i -> () -> store(i).create(recordId, "fp", expiresAt));

    List<Instant> won = created.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    IdempotencyRecord record = store(1).read(recordId).orElseThrow();
    assertThat(record).isEqualTo(new IdempotencyRecord("fp", won.get(0), expiresAt, null));
    assertThat(record.inFlight()).isTrue();
  }

  /**
   * Completion with another version writes nothing; with the record's version it stores the
   * response (status, headers, body or none) and the new expiry, and gives the record a new
   * version, so that a deletion with the in-flight version no longer matches.
   */
  @Test
  void completeAndDeleteAreConditionedOnTheVersion() {
    String recordId = newKey().recordId("alice");
    Instant inFlightUntil = Instant.parse("2030-01-01T00:00:00Z");
    Instant keptUntil = Instant.parse("2030-02-01T00:00:00Z");
    Instant version = store(0).create(recordId, "fp", inFlightUntil).orElseThrow();
    Instant other = version.minusSeconds(1);

    assertThat(store(1).complete(recordId, other, CREATED, keptUntil)).isFalse();
    assertThat(store(1).deleteIf(recordId, other)).isFalse();
    assertThat(store(2).read(recordId).orElseThrow().inFlight()).isTrue();

    StoredResponse bodiless = new StoredResponse(200, "application/json", null, null);
    assertThat(store(1).complete(recordId, version, bodiless, keptUntil)).isTrue();
    IdempotencyRecord completed = store(2).read(recordId).orElseThrow();
    assertThat(completed.inFlight()).isFalse();
    assertThat(completed.expiresAt()).isEqualTo(keptUntil);
    assertThat(completed.response().status()).isEqualTo(200);
    assertThat(completed.response().contentType()).isEqualTo("application/json");
    assertThat(completed.response().location()).isNull();
    assertThat(completed.response().hasBody()).isFalse();
    assertThat(completed.version()).isNotEqualTo(version);

    assertThat(store(0).complete(recordId, version, CREATED, keptUntil)).as("completed").isFalse();
    assertThat(store(0).deleteIf(recordId, version)).as("the in-flight version").isFalse();
    assertThat(store(0).deleteIf(recordId, completed.version())).isTrue();
    assertThat(store(1).read(recordId)).isEmpty();
  }

  // ---------------------------------------------------------------- the rules over the store

  /**
   * 12 requests with one key through every client at once: exactly one proceeds, the others are
   * told it is in flight; once it completes, a repeat through every client replays its result byte
   * for byte.
   */
  @Test
  void ofConcurrentRequestsWithOneKeyExactlyOneProceedsAndItsResultIsReplayed() throws Exception {
    IdempotencyKey key = newKey();
    List<IdempotencyService.Start> starts =
        Concurrently.run(12, i -> () -> service(i).start("alice", key, "fp"));

    List<IdempotencyService.Start.Proceed> proceeded =
        starts.stream()
            .filter(IdempotencyService.Start.Proceed.class::isInstance)
            .map(IdempotencyService.Start.Proceed.class::cast)
            .toList();
    assertThat(proceeded).hasSize(1);
    assertThat(starts).filteredOn(IdempotencyService.Start.InFlight.class::isInstance).hasSize(11);
    assertThat(service(1).complete(proceeded.get(0).ticket(), CREATED)).isTrue();

    for (int i = 0; i < CLIENTS; i++) {
      IdempotencyService.Start repeat = service(i).start("alice", key, "fp");
      assertThat(repeat).isInstanceOf(IdempotencyService.Start.Replay.class);
      StoredResponse replayed = ((IdempotencyService.Start.Replay) repeat).response();
      assertThat(replayed.status()).isEqualTo(201);
      assertThat(replayed.contentType()).isEqualTo(CREATED.contentType());
      assertThat(replayed.location()).isEqualTo(CREATED.location());
      assertThat(replayed.body()).isEqualTo(CREATED.body());
    }
    IdempotencyRecord stored = store(0).read(key.recordId("alice")).orElseThrow();
    assertThat(stored.expiresAt()).isEqualTo(clock.instant().plus(RETENTION));
  }

  /**
   * Another request under the same key is a mismatch, in flight and completed; the same key of
   * another caller is another record.
   */
  @Test
  void anotherRequestUnderTheKeyIsAMismatchAndKeysAreScopedPerCaller() {
    IdempotencyKey key = newKey();
    IdempotencyService.Start first = service(0).start("alice", key, "fp");
    assertThat(service(1).start("alice", key, "other"))
        .isInstanceOf(IdempotencyService.Start.Mismatch.class);
    assertThat(service(2).start("bob", key, "fp"))
        .isInstanceOf(IdempotencyService.Start.Proceed.class);

    service(0).complete(((IdempotencyService.Start.Proceed) first).ticket(), CREATED);
    assertThat(service(1).start("alice", key, "other"))
        .isInstanceOf(IdempotencyService.Start.Mismatch.class);
  }

  /** An abandoned key is free at once; the abandoned ticket can store nothing afterwards. */
  @Test
  void anAbandonedKeyCanBeUsedAgainAtOnce() {
    IdempotencyKey key = newKey();
    IdempotencyService.Ticket abandoned =
        ((IdempotencyService.Start.Proceed) service(0).start("alice", key, "fp")).ticket();
    assertThat(service(0).abandon(abandoned)).isTrue();

    IdempotencyService.Start again = service(1).start("alice", key, "fp");
    assertThat(again).isInstanceOf(IdempotencyService.Start.Proceed.class);
    assertThat(service(0).complete(abandoned, CREATED)).isFalse();
    assertThat(service(0).abandon(abandoned)).isFalse();
    assertThat(store(2).read(key.recordId("alice")).orElseThrow().inFlight()).isTrue();
  }

  /**
   * A request that never finished (its instance died) blocks its key until the in-flight timeout;
   * then, of 12 requests at once through every client, exactly one takes the key over. The lost
   * request's late completion and abandonment store and delete nothing.
   */
  @Test
  void anInFlightRecordPastItsTimeoutIsTakenOverByExactlyOneRequest() throws Exception {
    IdempotencyKey key = newKey();
    IdempotencyService.Ticket lost =
        ((IdempotencyService.Start.Proceed) service(0).start("alice", key, "fp")).ticket();
    clock.move(IN_FLIGHT.minusSeconds(1));
    assertThat(service(1).start("alice", key, "fp"))
        .isInstanceOf(IdempotencyService.Start.InFlight.class);

    clock.move(Duration.ofSeconds(2));
    List<IdempotencyService.Start> starts =
        Concurrently.run(12, i -> () -> service(i).start("alice", key, "fp"));
    List<IdempotencyService.Ticket> proceeded =
        starts.stream()
            .filter(IdempotencyService.Start.Proceed.class::isInstance)
            .map(s -> ((IdempotencyService.Start.Proceed) s).ticket())
            .toList();
    assertThat(proceeded).hasSize(1);

    assertThat(service(0).complete(lost, CREATED)).isFalse();
    assertThat(service(0).abandon(lost)).isFalse();
    IdempotencyRecord record = store(2).read(key.recordId("alice")).orElseThrow();
    assertThat(record.version()).isEqualTo(proceeded.get(0).version());
    assertThat(record.inFlight()).isTrue();
  }

  /** A result past its retention counts as absent: the key starts a new request. */
  @Test
  void aResultPastItsRetentionCountsAsAbsent() {
    IdempotencyKey key = newKey();
    IdempotencyService.Ticket first =
        ((IdempotencyService.Start.Proceed) service(0).start("alice", key, "fp")).ticket();
    service(0).complete(first, CREATED);
    clock.move(RETENTION.minusSeconds(1));
    assertThat(service(1).start("alice", key, "fp"))
        .isInstanceOf(IdempotencyService.Start.Replay.class);

    clock.move(Duration.ofSeconds(2));
    assertThat(service(2).start("alice", key, "another request"))
        .isInstanceOf(IdempotencyService.Start.Proceed.class);
  }

  /** A body above the limit is left out; status and headers are replayed. */
  @Test
  void aBodyAboveTheLimitIsStoredWithoutIt() {
    IdempotencyKey key = newKey();
    IdempotencyService.Ticket ticket =
        ((IdempotencyService.Start.Proceed) service(0).start("alice", key, "fp")).ticket();
    byte[] big = new byte[MAX_BODY + 1];
    assertThat(service(0).complete(ticket, new StoredResponse(200, "application/json", null, big)))
        .isTrue();

    StoredResponse replayed =
        ((IdempotencyService.Start.Replay) service(1).start("alice", key, "fp")).response();
    assertThat(replayed.status()).isEqualTo(200);
    assertThat(replayed.contentType()).isEqualTo("application/json");
    assertThat(replayed.hasBody()).isFalse();
  }
}
