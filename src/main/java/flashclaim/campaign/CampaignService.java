package flashclaim.campaign;

import flashclaim.Deadline;
import flashclaim.InvalidInputException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/** Admin use cases on campaigns and their pools, and the cached campaign lookup of the claim path. */
@Singleton
public class CampaignService {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  static final int GENERATED_LENGTH = 12;

  private final CampaignStore campaigns;
  private final CouponStore coupons;
  private final SeedingConfig seeding;
  private final Duration cacheTtl;
  private final Clock clock;
  private final Executor refreshes;
  private final SecureRandom random = new SecureRandom();
  private final Cache<CampaignId, Cached> cache;

  public CampaignService(
      CampaignStore campaigns,
      CouponStore coupons,
      SeedingConfig seeding,
      CampaignCacheConfig cacheConfig,
      Clock clock,
      @Named("store") Executor refreshes) {
    this.campaigns = campaigns;
    this.coupons = coupons;
    this.seeding = seeding;
    this.cacheTtl = cacheConfig.campaignCacheTtl();
    this.clock = clock;
    this.refreshes = refreshes;
    this.cache = Caffeine.newBuilder().maximumSize(cacheConfig.campaignCacheSize()).build();
  }

  /**
   * Creates a campaign.
   *
   * @return the campaign, or empty when the id is taken
   * @throws InvalidInputException for a {@link CampaignId#isReserved() reserved} id
   */
  public Optional<Campaign> create(
      CampaignId id, String name, Integer perUserLimit, Instant startsAt, Instant endsAt) {
    if (id.isReserved()) {
      throw new InvalidInputException(
          "id", "campaign ids starting with '" + CampaignId.RESERVED_PREFIX + "' are reserved");
    }
    Campaign campaign =
        new Campaign(
            id,
            name,
            perUserLimit == null ? 1 : perUserLimit,
            startsAt,
            endsAt,
            clock.instant());
    return campaigns.create(campaign) ? Optional.of(campaign) : Optional.empty();
  }

  /**
   * Campaigns newest first, {@code limit} at a time from {@code after}, each with its stock (the
   * stock route's read: counts, never the coupons themselves). The service's own campaigns
   * ({@link CampaignId#isReserved()}) are left out.
   */
  public StockPage list(int limit, Optional<CampaignPage.After> after) {
    CampaignPage page = campaigns.list(limit, after);
    List<CampaignStock> stocks = new ArrayList<>(page.campaigns().size());
    for (Campaign campaign : page.campaigns()) {
      if (campaign.id().isReserved()) {
        continue;
      }
      stocks.add(new CampaignStock(campaign, coupons.stock(campaign.id())));
    }
    return new StockPage(stocks, page.next());
  }

  /**
   * Changes the campaign by {@code patch} for {@code by} (the admin's subject), recording the change
   * in the same write, and drops this instance's cached copy; other instances read the change
   * within {@code campaign-cache-ttl}. The rules are {@link CampaignPatch}'s.
   *
   * @return the campaign after the patch (unchanged when the patch changes nothing); empty for an
   *     unknown campaign
   */
  public Optional<Campaign> patch(CampaignId id, CampaignPatch patch, String by) {
    // Read before the store's write begins (a PostgreSQL transaction holds its connection and the
    // row meanwhile), and only for a patch that may lower the limit. Coupons assigned after this
    // read were assigned under the limit as it was: the rule keeps nobody above the new one only
    // because a lower limit is taken while claims cannot be served.
    long assignedBefore =
        patch.sets(CampaignPatch.Field.PER_USER_LIMIT) ? coupons.stock(id).assigned() : 0;
    LongSupplier assigned = () -> assignedBefore;
    Optional<Campaign> result =
        campaigns.update(
            id,
            current -> {
              Instant now = clock.instant();
              return patch
                  .applyTo(current, now, assigned)
                  .map(
                      next ->
                          new CampaignStore.Update(
                              next, CampaignChange.between(current, next, by, now)));
            });
    cache.invalidate(id);
    return result;
  }

  /** The campaign's recorded changes, newest first; empty for an unknown campaign. */
  public Optional<ChangePage> changes(CampaignId id, int limit, OptionalLong below) {
    if (campaigns.find(id).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(campaigns.changes(id, limit, below));
  }

  /**
   * The campaign, read through a short per-instance cache ({@code campaign-cache-ttl}, counted from
   * before the read): a cached copy is at most that old, so a change (a pause) reaches every
   * instance within it, and the claim path saves one store read per request. A copy past half its
   * lifetime is read again in the background, once, by the first lookup that finds it so ({@link
   * #cached}): under steady claims it is replaced before it expires, and the claims never wait for
   * the read nor miss the answers given without the store. Absence is not cached, so a campaign is
   * visible as soon as it is created.
   */
  public Optional<Campaign> find(CampaignId id) {
    return find(id, Deadline.none());
  }

  /** {@link #find(CampaignId)}, with a store read (on a cache miss) bounded by {@code deadline}. */
  public Optional<Campaign> find(CampaignId id, Deadline deadline) {
    Optional<Campaign> cached = cached(id);
    if (cached.isPresent()) {
      return cached;
    }
    return read(id, deadline);
  }

  /** Reads the campaign from the store and caches it until {@code campaign-cache-ttl} after now. */
  private Optional<Campaign> read(CampaignId id, Deadline deadline) {
    Instant now = clock.instant();
    Optional<Campaign> found = campaigns.find(id, deadline);
    found.ifPresentOrElse(
        campaign ->
            cache.put(
                id, new Cached(campaign, now.plus(cacheTtl.dividedBy(2)), now.plus(cacheTtl))),
        () -> cache.invalidate(id));
    return found;
  }

  /**
   * The campaign as {@link #find(CampaignId)} would answer it from the cache; empty on a miss. A
   * copy past half its lifetime starts one background read that replaces it.
   */
  public Optional<Campaign> cached(CampaignId id) {
    Cached cached = cache.getIfPresent(id);
    Instant now = clock.instant();
    if (cached == null || !now.isBefore(cached.expiresAt())) {
      return Optional.empty();
    }
    if (!now.isBefore(cached.refreshAt()) && cached.refreshing().compareAndSet(false, true)) {
      try {
        refreshes.execute(() -> refresh(id, cached));
      } catch (RuntimeException e) { // the executor refused it: the next lookup tries again
        cached.refreshing().set(false);
      }
    }
    return Optional.of(cached.campaign());
  }

  private void refresh(CampaignId id, Cached stale) {
    try {
      read(id, Deadline.none());
    } catch (RuntimeException e) { // a store fault: the copy expires as it would have
      stale.refreshing().set(false);
    }
  }

  /**
   * Whether this instance has found the campaign in the store, without reading it: campaigns are
   * never deleted, so a known campaign exists. Ids that anyone can make up are never known, which
   * is what lets per-campaign state (metrics, live figures) admit known campaigns only.
   */
  public boolean isKnown(CampaignId id) {
    return cache.asMap().containsKey(id);
  }

  /** Stock of an existing campaign. */
  public Optional<CampaignStock> stock(CampaignId id) {
    return campaigns.find(id).map(c -> new CampaignStock(c, coupons.stock(id)));
  }

  /** Adds the given codes; empty when the campaign does not exist. */
  public Optional<CouponStore.AddResult> addCodes(CampaignId id, List<CouponCode> codes) {
    checkBatchSize(codes.size());
    if (campaigns.find(id).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(coupons.add(id, codes));
  }

  /** Adds {@code count} generated codes with the prefix; empty for an unknown campaign. */
  public Optional<CouponStore.AddResult> generate(CampaignId id, int count, CodePrefix prefix) {
    if (count < 1) {
      throw new InvalidInputException("generate.count", "count must be at least 1");
    }
    checkBatchSize(count);
    if (campaigns.find(id).isEmpty()) {
      return Optional.empty();
    }
    List<CouponCode> codes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      codes.add(prefix.code(randomSuffix()));
    }
    return Optional.of(coupons.add(id, codes));
  }

  private void checkBatchSize(int size) {
    if (size > seeding.maxCodesPerRequest()) {
      throw new TooManyCodesException(size, seeding.maxCodesPerRequest());
    }
  }

  /**
   * {@value #GENERATED_LENGTH} characters of the 32-letter alphabet, 5 bits each, from one 64-bit
   * draw: one call of the (synchronized) SecureRandom per code, not one per character.
   */
  private String randomSuffix() {
    long bits = random.nextLong();
    char[] chars = new char[GENERATED_LENGTH];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = ALPHABET[(int) (bits & 31)];
      bits >>>= 5;
    }
    return new String(chars);
  }

  /** A campaign with its stock. */
  public record CampaignStock(Campaign campaign, Stock stock) {}

  /** A page of campaigns with their stock, and where the next page starts. */
  public record StockPage(List<CampaignStock> campaigns, Optional<CampaignPage.After> next) {}

  private record Cached(
      Campaign campaign, Instant refreshAt, Instant expiresAt, AtomicBoolean refreshing) {
    Cached(Campaign campaign, Instant refreshAt, Instant expiresAt) {
      this(campaign, refreshAt, expiresAt, new AtomicBoolean());
    }
  }
}
