package flashclaim.testing;

import flashclaim.admission.FleetBoard;
import flashclaim.audit.AuditStore;
import flashclaim.campaign.CampaignStore;
import flashclaim.campaign.CouponStore;
import flashclaim.claim.ClaimStore;
import flashclaim.guard.GuardStore;
import flashclaim.idempotency.IdempotencyStore;
import flashclaim.lock.LockStore;
import flashclaim.redemption.RedemptionStore;
import flashclaim.results.ResultsStore;

/**
 * Several clients of one real store without a service, as several instances have: each client has
 * connections of its own, and the store's adapters of every port built on them, one object per port
 * and client. Client {@code i} is taken modulo {@link #size()}. The store contracts run against it;
 * a subclass per store opens it.
 */
public interface StoreClients extends AutoCloseable {

  /** The store's {@code flashclaim.store} name. */
  String store();

  /** Where the store is: the emulator's {@code host:port}, or the database's JDBC URL. */
  String location();

  /** {@code n} more clients of the same store (the same database), to be closed on their own. */
  StoreClients more(int n);

  /** How many clients there are. */
  int size();

  LockStore lockStore(int i);

  GuardStore guardStore(int i);

  IdempotencyStore idempotencyStore(int i);

  RedemptionStore redemptionStore(int i);

  FleetBoard fleetBoard(int i);

  CampaignStore campaignStore(int i);

  CouponStore couponStore(int i);

  ClaimStore claimStore(int i);

  /**
   * The audit's reads on client {@code i}, in pages (Firestore) or fetches (PostgreSQL) of this
   * size.
   */
  AuditStore auditStore(int i, int pageSize);

  /**
   * The results' reads on client {@code i}; the export's snapshot read in pages (Firestore) or
   * fetches (PostgreSQL) of this size.
   */
  ResultsStore resultsStore(int i, int pageSize);

  /** Closes every client at once, as when their instance dies: what runs on them fails. */
  @Override
  void close();
}
