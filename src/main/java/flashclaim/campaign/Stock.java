package flashclaim.campaign;

/** Counts of a campaign's pool at one moment. */
public record Stock(long total, long assigned) {
  public long remaining() {
    return total - assigned;
  }
}
