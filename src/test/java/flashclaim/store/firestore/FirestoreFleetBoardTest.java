package flashclaim.store.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.QueryDocumentSnapshot;
import flashclaim.admission.FleetBoard;
import flashclaim.admission.FleetBoardContract;
import flashclaim.testing.StoreClients;
import flashclaim.testing.StoreContents;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FleetBoardContract} on the Firestore emulator, with rounds of 250 ms: an instance's writes
 * go round four documents, so that each is written at most once a second.
 */
class FirestoreFleetBoardTest extends FleetBoardContract {
  @Override
  protected StoreClients openClients(int n) {
    return new FirestoreClients(n);
  }

  /**
   * Eight writes of one instance land on four documents, two each; a reader sees the instance once,
   * with its last wait; a withdrawal deletes all four.
   */
  @Test
  void anInstancesWritesGoRoundOneDocumentPerQuarterSecondOfTheInterval() {
    assertThat(FirestoreFleetBoard.documentsPerInstance(Duration.ofMillis(250))).isEqualTo(4);
    assertThat(FirestoreFleetBoard.documentsPerInstance(Duration.ofMillis(300))).isEqualTo(4);
    assertThat(FirestoreFleetBoard.documentsPerInstance(Duration.ofSeconds(1))).isEqualTo(1);
    assertThat(FirestoreFleetBoard.documentsPerInstance(Duration.ofSeconds(5))).isEqualTo(1);
    FleetBoard board = clients().fleetBoard(0);
    String instance = "rotating-" + System.nanoTime();
    for (int write = 1; write <= 8; write++) {
      board.publish(instance, Duration.ofMillis(1000 + write), null);
    }

    assertThat(documentsOf(instance))
        .extracting(QueryDocumentSnapshot::getId)
        .containsExactlyInAnyOrder(
            instance + ".0", instance + ".1", instance + ".2", instance + ".3");
    List<FleetBoard.Entry> seen =
        clients().fleetBoard(1).others("reader", Duration.ofMinutes(1)).stream()
            .filter(e -> e.instanceId().equals(instance))
            .toList();
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).booked()).isEqualTo(Duration.ofMillis(1008));

    board.withdraw(instance);
    assertThat(documentsOf(instance)).isEmpty();
  }

  private static List<QueryDocumentSnapshot> documentsOf(String instance) {
    return StoreContents.all(FirestoreLayout.ADMISSION_FLEET).stream()
        .filter(doc -> instance.equals(doc.getString(FirestoreLayout.INSTANCE)))
        .toList();
  }
}
