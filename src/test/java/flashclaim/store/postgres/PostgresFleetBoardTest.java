package flashclaim.store.postgres;

import flashclaim.admission.FleetBoardContract;
import flashclaim.testing.StoreClients;

/** {@link FleetBoardContract} on PostgreSQL. */
class PostgresFleetBoardTest extends FleetBoardContract {
  @Override
  protected StoreClients openClients(int n) {
    return PostgresClients.fresh("fleet_board", n);
  }
}
