package flashclaim.testing;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sale through several instances at once: {@code users} users, each claiming until a final
 * answer ({@link Claimer}), taken in turn by {@code threadsPerInstance} client threads per
 * instance. Every final answer must be a 201 or a 410; anything else fails the sale.
 *
 * @param codes the code each winner got, by user
 * @param soldOut how many users were answered 410
 */
public record Sale(Map<String, String> codes, int soldOut) {

  public static Sale run(
      List<URI> instances, int threadsPerInstance, String campaign, String userPrefix, int users)
      throws Exception {
    Map<String, String> codes = new ConcurrentHashMap<>();
    AtomicInteger soldOut = new AtomicInteger();
    AtomicInteger nextUser = new AtomicInteger();
    ExecutorService clients = Executors.newFixedThreadPool(instances.size() * threadsPerInstance);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < instances.size() * threadsPerInstance; t++) {
        URI instance = instances.get(t % instances.size());
        done.add(
            clients.submit(
                () -> {
                  int u;
                  while ((u = nextUser.getAndIncrement()) < users) {
                    Claimer.Result result =
                        Claimer.claimUntilFinal(instance, campaign, userPrefix + u);
                    if (result.status() == 201) {
                      codes.put(result.user(), result.code());
                    } else if (result.status() == 410) {
                      soldOut.incrementAndGet();
                    } else {
                      throw new AssertionError("unexpected answer " + result.response());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(300, TimeUnit.SECONDS);
      }
    } finally {
      clients.shutdownNow();
    }
    return new Sale(Map.copyOf(codes), soldOut.get());
  }
}
