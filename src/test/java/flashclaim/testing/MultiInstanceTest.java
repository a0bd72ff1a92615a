package flashclaim.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the concurrency tests: {@value #INSTANCES} service instances (separate application
 * contexts, fewer where a subclass says so with {@link #instanceCount()}) sharing one store, a pool
 * of client threads, and checks that read the store directly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MultiInstanceTest {
  public static final int INSTANCES = 3;
  private static final int CLIENT_THREADS = 48;

  protected final List<ServiceInstance> instances = new ArrayList<>();
  protected ExecutorService clients;
  private int campaignCounter;

  /** The store the instances share. */
  protected abstract StoreBackend backend();

  /** Properties of every instance on top of the backend's, e.g. a claim strategy. */
  protected Map<String, Object> instanceProperties() {
    return Map.of();
  }

  /** How many instances start before all tests: {@value #INSTANCES}, or fewer for a subclass. */
  protected int instanceCount() {
    return INSTANCES;
  }

  /** Starts one more instance on the same store and configuration. */
  protected ServiceInstance startInstance() {
    return startInstance(Map.of());
  }

  /** Starts one more instance on the same store, with some properties changed. */
  protected ServiceInstance startInstance(Map<String, Object> overrides) {
    Map<String, Object> properties = new HashMap<>(backend().properties());
    properties.putAll(instanceProperties());
    properties.putAll(overrides);
    return ServiceInstance.start(properties);
  }

  @BeforeAll
  void startInstances() {
    for (int i = 0; i < instanceCount(); i++) {
      instances.add(startInstance());
    }
    clients = Executors.newFixedThreadPool(CLIENT_THREADS);
  }

  @AfterAll
  void stopInstances() {
    clients.shutdownNow();
    instances.forEach(ServiceInstance::close);
  }

  @BeforeEach
  void resetStore() {
    backend().reset();
  }

  /** Creates a campaign through instance 0 and seeds it with generated codes. */
  protected String newCampaign(int perUserLimit, int coupons) {
    String id = getClass().getSimpleName().toLowerCase() + "-" + (++campaignCounter);
    Api.createCampaign(instances.get(0).url(), id, perUserLimit, coupons);
    return id;
  }

  /** The base URL of instance {@code i} modulo the number of instances. */
  protected URI instance(int i) {
    return instances.get(i % instances.size()).url();
  }

  /** Runs {@code n} tasks at once on the client threads and returns their results in order. */
  protected <T> List<T> runAll(int n, IntFunction<Callable<T>> task) throws Exception {
    return runAll(n, clients, task);
  }

  /** Runs {@code n} tasks, at most {@code parallelism} at a time. */
  protected <T> List<T> runAll(int n, int parallelism, IntFunction<Callable<T>> task)
      throws Exception {
    ExecutorService limited = Executors.newFixedThreadPool(parallelism);
    try {
      return runAll(n, limited, task);
    } finally {
      limited.shutdownNow();
    }
  }

  private static <T> List<T> runAll(int n, ExecutorService pool, IntFunction<Callable<T>> task)
      throws Exception {
    List<Future<T>> futures = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      futures.add(pool.submit(task.apply(i)));
    }
    List<T> results = new ArrayList<>(n);
    for (Future<T> f : futures) {
      results.add(f.get(300, TimeUnit.SECONDS));
    }
    return results;
  }

  /**
   * Claims of {@code campaign} at once, {@code first.size() * INSTANCES} of each kind, through the
   * instances in turn: every user of {@code first} through every instance with the Idempotency-Key
   * of their first claim ({@code "first-" + user}), then the same with a new key each, then as many
   * users who hold nothing, with keys; all named with {@code prefix}. The results come in that
   * order; each of the first kind is asserted to be the user's first answer replayed, the same
   * status and body.
   */
  protected List<Claimer.Result> repeatWithKeys(
      String campaign, Map<String, Api.Response> first, String prefix) throws Exception {
    List<String> users = List.copyOf(first.keySet());
    int each = users.size() * INSTANCES;
    List<Claimer.Result> results =
        runAll(
            3 * each,
            n -> {
              String user = n < 2 * each ? users.get(n % each / INSTANCES) : prefix + "stranger-" + n;
              String key = n < each ? "first-" + user : prefix + "key-" + n;
              return () -> Claimer.claimUntilFinal(instance(n), campaign, user, key);
            });
    for (int n = 0; n < each; n++) {
      Api.Response repeat = results.get(n).response();
      String what = results.get(n).user() + " through instance " + n % INSTANCES;
      Api.Response answer = first.get(results.get(n).user());
      assertThat(repeat.status()).as("repeat of %s", what).isEqualTo(answer.status());
      assertThat(repeat.body()).as("repeat of %s", what).isEqualTo(answer.body());
      assertThat(repeat.header("Idempotency-Replayed")).as("repeat of %s", what).isEqualTo("true");
    }
    return results;
  }

  /**
   * G1, G2, G5 read from the store: each assigned coupon has exactly one claim record that names it
   * and its holder, each claim record names an assigned coupon of that holder, no coupon is named
   * twice. A negative expected count is not checked.
   */
  protected void assertStoreConsistent(String campaign, int expectedAssigned) {
    List<StoreBackend.StoredCoupon> coupons = backend().coupons(campaign);
    List<StoreBackend.StoredClaim> claims = backend().claims(campaign);
    Map<String, StoreBackend.StoredCoupon> couponById = new HashMap<>();
    coupons.forEach(c -> couponById.put(c.id(), c));
    List<StoreBackend.StoredCoupon> assigned =
        coupons.stream().filter(StoreBackend.StoredCoupon::assigned).toList();
    if (expectedAssigned >= 0) {
      assertThat(assigned).hasSize(expectedAssigned);
    }
    assertThat(claims).hasSameSizeAs(assigned);
    Set<String> namedCoupons = new HashSet<>();
    for (StoreBackend.StoredClaim claim : claims) {
      assertThat(namedCoupons.add(claim.couponId())).as("coupon named twice: " + claim).isTrue();
      StoreBackend.StoredCoupon coupon = couponById.get(claim.couponId());
      assertThat(coupon).as("claim names a missing coupon: " + claim).isNotNull();
      assertThat(coupon.assigned()).as(claim.toString()).isTrue();
      assertThat(coupon.holder()).as(claim.toString()).isEqualTo(claim.holder());
      assertThat(coupon.code()).isEqualTo(claim.code());
    }
    assertThat(assigned.stream().map(StoreBackend.StoredCoupon::id).collect(Collectors.toSet()))
        .isEqualTo(namedCoupons);
  }

  /** The service's own audit agrees: ok, with this many assigned coupons and claim records. */
  protected void assertAuditOk(String campaign, int assigned) {
    Api.Response audit =
        Api.get(instance(1), "/v1/admin/campaigns/" + campaign + "/audit", Tokens.admin());
    assertThat(audit.status()).isEqualTo(200);
    Map<String, Object> report = audit.json();
    assertThat(report.get("ok")).as(audit.body()).isEqualTo(true);
    assertThat(((Number) report.get("assigned")).intValue()).isEqualTo(assigned);
    assertThat(((Number) report.get("claims")).intValue()).isEqualTo(assigned);
  }
}
