package flashclaim.load;

/**
 * W8: W6 through several instances that share one store ({@code baseUrls}, at least {@link
 * #MIN_INSTANCES}; users spread round-robin). {@code bin/load-run W8} offers 3 x the capacity of
 * one instance that it measured in the same run (at least 1,000 users per second) through 3
 * instances; FIFO precision at least {@link #MIN_FIFO_PRECISION}. Clicks go to the instances in
 * turn, each through the same shared pool as in W6 (or a front end of its own with {@code
 * --front-end}).
 */
public class W8OverloadSimulation extends W6OverloadSimulation {
  static final int MIN_INSTANCES = 2;
  static final double MIN_FIFO_PRECISION = 0.98;

  public W8OverloadSimulation() {
    super("W8", MIN_FIFO_PRECISION, MIN_INSTANCES);
  }
}
