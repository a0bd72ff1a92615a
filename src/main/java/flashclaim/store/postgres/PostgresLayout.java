package flashclaim.store.postgres;

/**
 * Names derived from the PostgreSQL rows that the ports expose (the tables themselves are in
 * {@code db/migration/postgres}): a claim record's id is the holder's user key and its slot, the
 * same for the claim row and for the coupon that names it ({@code assigned_to}, {@code
 * claim_slot}).
 */
final class PostgresLayout {
  private PostgresLayout() {}

  static String claimId(String userKey, int slot) {
    return userKey + ":" + slot;
  }
}
