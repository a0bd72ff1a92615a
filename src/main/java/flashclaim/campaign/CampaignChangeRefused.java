package flashclaim.campaign;

/**
 * A change of a campaign that its rules refuse ({@link CampaignPatch}); nothing was written. The
 * HTTP layer answers it with a 4xx problem of its reason.
 */
public final class CampaignChangeRefused extends RuntimeException {
  private final Reason reason;

  public CampaignChangeRefused(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** Why a change was refused. */
  public enum Reason {
    /** The campaign is not at the version the caller named ({@code If-Match}). */
    VERSION_MISMATCH,
    /** perUserLimit would drop while coupons are assigned or claims can be served. */
    LIMIT_LOCKED,
    /** The change would reopen an ended campaign without {@code reopen: true}. */
    ENDED
  }
}
