package flashclaim.results;

import java.time.Instant;
import java.util.Iterator;

/**
 * The claims of one campaign read from one moment of the store ({@link #readAt}), as an iterator
 * that reads the store as it is advanced, a page or fetch at a time: a claim that commits while it
 * is read is wholly in it (its coupon, holder and redemption as they were at {@code readAt}) or not
 * in it at all, and memory holds a page, not the campaign. Each element is a claimed or redeemed
 * {@link CouponRecord}; the order is by {@code user} (the user key), then by the claim record's id
 * as text (slot 0, then 1, 10, 11, ..., 2, ...). Advancing it may throw {@link
 * flashclaim.StoreException}. Not safe for concurrent use; close it when done (it holds a
 * connection or a query of the store).
 */
public interface ClaimExport extends Iterator<CouponRecord>, AutoCloseable {

  /** The moment of the store the export shows. */
  Instant readAt();

  /** Ends the read and gives back what it holds. Never throws. */
  @Override
  void close();

  /** The export of {@code rows}, read at {@code readAt}, that {@code close} ends. */
  static ClaimExport of(Instant readAt, Iterator<CouponRecord> rows, Runnable close) {
    return new ClaimExport() {
      @Override
      public Instant readAt() {
        return readAt;
      }

      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public CouponRecord next() {
        return rows.next();
      }

      @Override
      public void close() {
        close.run();
      }
    };
  }
}
