package flashclaim.guard;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Concurrently;
import flashclaim.testing.MovableClock;
import flashclaim.testing.StoreContract;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract of a {@link GuardStore}, run against the real store by a subclass per store, with
 * {@value #CLIENTS} store clients of their own and no service: of concurrent creates exactly one
 * wins; a delete conditioned on a version removes only that version; and, with a {@link
 * ModificationGuard} over each client on one movable clock, exactly one of many concurrent requests
 * enters a resource, a stale guard (its holder never left) is taken over by exactly one request
 * once its TTL has passed and not before, and the stale holder's leave removes nothing.
 */
public abstract class GuardStoreContract extends StoreContract {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  private final MovableClock clock = new MovableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
  private final List<ModificationGuard> guards = new ArrayList<>();
  private int resourceCounter;

  /** The port over store client {@code client}, one object per client. */
  protected final GuardStore store(int client) {
    return clients().guardStore(client);
  }

  @BeforeAll
  void startGuards() {
    GuardConfig config = new GuardConfig(true, List.of(), TTL, RETRY_AFTER);
    for (int i = 0; i < CLIENTS; i++) {
      guards.add(new ModificationGuard(store(i), config, clock));
    }
  }

  private ModificationGuard guard(int client) {
    return guards.get(Math.floorMod(client, CLIENTS));
  }

  private GuardedResource newResource() {
    return new GuardedResource(
        "/" + getClass().getSimpleName() + "/" + System.nanoTime() + "/" + (++resourceCounter));
  }

  // ---------------------------------------------------------------- the port's atomic steps

  /** Of creates of one guard from every client at once exactly one wins; it reads as written. */
  @Test
  void ofConcurrentCreatesExactlyOneWins() throws Exception {
    String lockId = newResource().lockId();
    Instant expiresAt = Instant.parse("2030-01-01T00:00:00Z");
    assertThat(store(0).read(lockId)).isEmpty();

    List<Optional<Instant>> created =
        Concurrently.run(12, i -> () -> store(i).create(lockId, expiresAt));

    List<Instant> won = created.stream().flatMap(Optional::stream).toList();
    assertThat(won).hasSize(1);
    assertThat(store(1).read(lockId)).contains(new GuardStore.Holder(won.get(0), expiresAt));
  }

  /**
   * A delete conditioned on another version (of an earlier creation of the guard) leaves the guard
   * as it is; one conditioned on its own version removes it, once.
   */
  @Test
  void deleteRemovesOnlyTheVersionItNames() {
    String lockId = newResource().lockId();
    Instant expiresAt = Instant.parse("2030-01-01T00:00:00Z");
    Instant first = store(0).create(lockId, expiresAt).orElseThrow();
    assertThat(store(1).deleteIf(lockId, first)).isTrue();
    Instant second = store(1).create(lockId, expiresAt).orElseThrow();
    assertThat(second).isNotEqualTo(first);

    assertThat(store(0).deleteIf(lockId, first)).as("an earlier creation's version").isFalse();
    assertThat(store(2).read(lockId)).contains(new GuardStore.Holder(second, expiresAt));
    assertThat(store(2).deleteIf(lockId, second)).isTrue();
    assertThat(store(0).deleteIf(lockId, second)).as("already gone").isFalse();
    assertThat(store(0).read(lockId)).isEmpty();
  }

  // ---------------------------------------------------------------- the guard over the store

  /**
   * 20 rounds of 12 requests on one resource through every client at once: in each round exactly
   * one enters and the others are told to come back; the winner leaves, and the guard is gone.
   */
  @Test
  void ofConcurrentRequestsExactlyOneEntersEachRound() throws Exception {
    GuardedResource resource = newResource();
    int requests = 12;
    for (int round = 0; round < 20; round++) {
      List<GuardEntry> entries = Concurrently.run(requests, i -> () -> guard(i).enter(resource));

      List<GuardEntry.Entered> entered =
          entries.stream()
              .filter(GuardEntry.Entered.class::isInstance)
              .map(GuardEntry.Entered.class::cast)
              .toList();
      assertThat(entered).as("round %d", round).hasSize(1);
      assertThat(entries).filteredOn(GuardEntry.Busy.class::isInstance).hasSize(requests - 1);
      assertThat(entries)
          .filteredOn(GuardEntry.Busy.class::isInstance)
          .allSatisfy(
              busy -> assertThat(((GuardEntry.Busy) busy).retryAfter()).isEqualTo(RETRY_AFTER));
      assertThat(guard(round).leave(entered.get(0).guard())).isTrue();
      assertThat(store(round + 1).read(resource.lockId())).isEmpty();
    }
  }

  /** Requests on different resources never wait for each other: every one enters. */
  @Test
  void differentResourcesAreIndependent() throws Exception {
    List<GuardedResource> resources = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      resources.add(newResource());
    }
    List<GuardEntry> entries =
        Concurrently.run(resources.size(), i -> () -> guard(i).enter(resources.get(i)));
    assertThat(entries).allMatch(GuardEntry.Entered.class::isInstance);
    for (int i = 0; i < entries.size(); i++) {
      assertThat(guard(i + 1).leave(((GuardEntry.Entered) entries.get(i)).guard())).isTrue();
    }
  }

  /**
   * A request that entered and never left (its instance was killed) blocks the resource until its
   * TTL has passed; then, of 12 requests at once through every client, exactly one removes the
   * stale guard and enters. The dead request's late leave removes nothing: the successor's guard
   * stays until the successor leaves.
   */
  @Test
  void aStaleGuardIsTakenOverByExactlyOneRequestAfterItsTtl() throws Exception {
    GuardedResource resource = newResource();
    Guard dead = ((GuardEntry.Entered) guard(0).enter(resource)).guard();

    clock.move(TTL.minusSeconds(1));
    assertThat(guard(1).enter(resource)).isInstanceOf(GuardEntry.Busy.class);
    assertThat(store(2).read(resource.lockId()).orElseThrow().version()).isEqualTo(dead.version());

    clock.move(Duration.ofSeconds(2));
    List<GuardEntry> entries = Concurrently.run(12, i -> () -> guard(i).enter(resource));
    List<Guard> entered =
        entries.stream()
            .filter(GuardEntry.Entered.class::isInstance)
            .map(e -> ((GuardEntry.Entered) e).guard())
            .toList();
    assertThat(entered).hasSize(1);
    Guard successor = entered.get(0);
    assertThat(successor.version()).isNotEqualTo(dead.version());

    assertThat(guard(0).leave(dead)).as("the dead request's late leave").isFalse();
    assertThat(store(1).read(resource.lockId()).orElseThrow().version())
        .isEqualTo(successor.version());
    assertThat(guard(2).enter(resource)).isInstanceOf(GuardEntry.Busy.class);
    assertThat(guard(1).leave(successor)).isTrue();
    assertThat(store(0).read(resource.lockId())).isEmpty();
  }
}
