package flashclaim.http;

/** Names of the executors that the controllers run on. */
public final class HttpExecutors {
  /**
   * A fixed pool ({@code micronaut.executors.store.n-threads}) for routes that wait on the store:
   * bounded threads, with the queue in front of it bounded by load shedding and, for claims, by
   * fair admission.
   */
  public static final String STORE = "store";

  private HttpExecutors() {}
}
