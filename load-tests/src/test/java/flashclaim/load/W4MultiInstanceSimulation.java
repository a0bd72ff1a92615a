package flashclaim.load;

/**
 * W4 multi-instance: W1 through several service instances sharing one store; {@code baseUrls}
 * lists them (at least {@link #MIN_INSTANCES}) and the users are spread over them round-robin.
 */
public class W4MultiInstanceSimulation extends W1FlashSaleSimulation {
  static final int MIN_INSTANCES = 2;

  public W4MultiInstanceSimulation() {
    super("W4", MIN_INSTANCES);
  }
}
