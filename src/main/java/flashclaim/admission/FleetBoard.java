package flashclaim.admission;

import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Port: where the instances of a fleet post how far ahead their appointment books reach, so that no
 * instance tells a new user an earlier turn than another instance told users who clicked before,
 * and the earliest user each told to come back who is due now, so that no instance serves a later
 * click while an earlier one is on their way back ({@link FleetOrder}). One entry per instance,
 * written only by that instance, at most once per publish interval: a document or row per instance
 * keeps within Firestore's one sustained write per second per document.
 *
 * <p>Ages are measured on the store's clock (Firestore: the read time of the query less the
 * document's update time; PostgreSQL: {@code now() - updated_at} in the query), so an instance
 * whose clock is off does not move the others' view of its entry. Every method may throw {@link
 * flashclaim.StoreException} when the store fails or does not answer within its call timeout.
 */
public interface FleetBoard {

  /**
   * Writes (creates or replaces) the entry of {@code instanceId}: its book reaches {@code booked},
   * and the earliest first arrival it holds back is {@code heldFrom} (null: none), to the
   * millisecond.
   */
  void publish(String instanceId, Duration booked, @Nullable Instant heldFrom);

  /** Deletes the entry of {@code instanceId}, if there is one. */
  void withdraw(String instanceId);

  /**
   * The entries of the instances other than {@code instanceId} whose age is less than {@code
   * staleAfter}. Entries at least that old are left out, and deleted unless they changed since
   * they were read (an instance that died does not withdraw its entry).
   */
  List<Entry> others(String instanceId, Duration staleAfter);

  /**
   * An instance's entry as read.
   *
   * @param booked how far beyond the moment it was written the instance's book reached
   * @param heldFrom the earliest first arrival among the users the instance had told to come back
   *     and who were due when it wrote the entry, on the clocks that stamped it; null: none
   * @param age how long ago it was written, on the store's clock
   */
  record Entry(String instanceId, Duration booked, @Nullable Instant heldFrom, Duration age) {

    /** How far beyond the moment of the read the instance's book reaches; negative once passed. */
    public Duration ahead() {
      return booked.minus(age);
    }
  }
}
