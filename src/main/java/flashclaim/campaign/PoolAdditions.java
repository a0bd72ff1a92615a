package flashclaim.campaign;

/**
 * What a campaign store tells about additions to a campaign's pool, read at one moment by one read
 * by id (see {@link CampaignStore#couponsAdded}).
 *
 * @param count grows with every addition of coupons, before the added coupons can be seen by a
 *     claim; it never falls
 * @param inProgress an addition may be under way whose coupons can still appear without {@code
 *     count} moving again
 */
public record PoolAdditions(long count, boolean inProgress) {

  /**
   * Whether this read, taken later than {@code earlier}, shows that no coupon appeared in the pool
   * in between: both reads saw no addition in progress and the same count.
   */
  public boolean nothingAddedSince(PoolAdditions earlier) {
    return !inProgress && !earlier.inProgress && count == earlier.count;
  }
}
