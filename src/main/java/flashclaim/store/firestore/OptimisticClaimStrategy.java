package flashclaim.store.firestore;

import static flashclaim.store.firestore.FirestoreCalls.await;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.cloud.firestore.CollectionReference;
import com.google.cloud.firestore.DocumentReference;
import com.google.cloud.firestore.Precondition;
import com.google.cloud.firestore.Query;
import com.google.cloud.firestore.QueryDocumentSnapshot;
import com.google.cloud.firestore.WriteBatch;
import flashclaim.Deadline;
import flashclaim.StoreException;
import flashclaim.campaign.Campaign;
import flashclaim.campaign.CampaignId;
import flashclaim.campaign.CouponCode;
import flashclaim.claim.Claim;
import flashclaim.claim.ClaimStore;
import flashclaim.claim.UserId;
import io.grpc.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * The default claim strategy ({@code optimistic}): no query inside a transaction, no transaction at
 * all.
 *
 * <ol>
 *   <li>Probe: read unassigned coupons ordered by {@code randomFloat} (as many as the instance's
 *       claims took over the candidates' useful life, up to {@code candidates}) from a
 *       random point of [0, 1), outside any transaction (so it locks nothing). The claims of one
 *       instance share the result through a {@link CandidatePool}: each takes a different coupon,
 *       and instances start their probes at different points, so claims rarely want the same one.
 *       The pool probes again in the background when it runs low, so claims rarely wait for one.
 *   <li>Commit, one candidate at a time, a batch of two writes: the coupon's assignment guarded by
 *       the precondition "the coupon was last updated when the probe saw it", and the create of the
 *       user's claim record for the slot. A batch is atomic: both apply or neither (G5). If anyone
 *       assigned the coupon after the probe, its update time moved and the batch fails at once with
 *       FAILED_PRECONDITION (G1): a lost race costs one round trip and no lock wait. If the slot's
 *       record exists, another claim of the same user won (ALREADY_EXISTS, G2).
 *   <li>Sold out only on proof: when the probe from the random point finds nothing, a second probe
 *       over the whole range runs; that single query finding no unassigned coupon is what {@link
 *       ClaimStore.Attempt.NoneLeft} means (G3).
 * </ol>
 *
 * Losing every candidate probes again until the deadline, then gives up as {@code Contended} (G6).
 * No commit starts after the deadline or waits past it; a commit it cuts short may or may not have
 * landed, and either way both of its writes did or neither did (G5).
 */
final class OptimisticClaimStrategy extends FirestoreClaimStrategy {
  static final String NAME = "optimistic";

  private final int candidates;
  private final int refillBelow;
  private final int firstProbe;
  private final Duration candidateMaxAge;
  private final Executor probes;
  private final Cache<CampaignId, CandidatePool> pools;

  /**
   * @param probes where the pool's probes run, so that a refill ahead of need keeps no claim
   *     waiting; at most one probe per campaign is in flight, so a few threads serve them all
   */
  OptimisticClaimStrategy(
      ClaimDocuments docs,
      FirestoreClaimConfig config,
      Executor probes,
      Clock clock,
      ContentionCounters counters) {
    super(docs, clock, counters);
    this.candidates = Math.max(1, config.candidates());
    this.refillBelow = Math.max(0, Math.min(config.refillBelow(), candidates));
    this.firstProbe = Math.max(0, Math.min(config.firstProbe(), candidates));
    this.candidateMaxAge = config.candidateMaxAge();
    this.probes = probes;
    this.pools = Caffeine.newBuilder().maximumSize(Math.max(1, config.candidatePools())).build();
  }

  @Override
  public Attempt tryClaim(Campaign campaign, UserId user, int slot, Deadline deadline) {
    Instant started = clock.instant();
    String userKey = user.key();
    DocumentReference claimRef = docs.claimRef(campaign, userKey, slot);
    CollectionReference coupons = FirestoreLayout.coupons(docs.db(), campaign.id());
    CandidatePool pool = pool(campaign.id());
    while (!deadline.passed()) {
      CandidatePool.Candidate candidate = take(pool, started, deadline.instant(), coupons);
      if (candidate == CandidatePool.NONE_LEFT) {
        return new Attempt.NoneLeft();
      }
      if (candidate == CandidatePool.EMPTY_BEFORE) {
        Instant emptyFrom = pool.foundEmptyFrom();
        if (emptyFrom == null) {
          continue; // a probe since found coupons
        }
        return emptyFrom.isBefore(started)
            ? new Attempt.FoundEmptyBefore(emptyFrom)
            : new Attempt.NoneLeft();
      }
      if (candidate == null) {
        return new Attempt.Contended(true); // no probe of the pool returned in time
      }
      if (deadline.passed()) {
        pool.giveBack(candidate); // untried: another claim may use it
        break;
      }
      Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // Firestore keeps micros
      WriteBatch batch = docs.db().batch();
      batch.update(
          candidate.ref(),
          ClaimDocuments.assignment(claimRef.getId(), now),
          Precondition.updatedAt(candidate.updateTime()));
      batch.create(
          claimRef,
          ClaimDocuments.claimRecord(candidate.ref().getId(), candidate.code(), now));
      Status.Code result = docs.commit(batch::commit, "commit a claim", docs.timeout(deadline));
      switch (result) {
        case OK:
          return new Attempt.Won(
              new Claim(campaign.id(), new CouponCode(candidate.code()), slot, now));
        case ALREADY_EXISTS:
          pool.giveBack(candidate); // still free: the claim lost to its own user, not the coupon
          return new Attempt.SlotTaken();
        default:
          counters.lostRace(); // FAILED_PRECONDITION: someone took this coupon after the probe
      }
    }
    return new Attempt.Contended();
  }

  /** The probes run apart from the claims, which share them, and may end after those gave up. */
  @Override
  public Instant foundEmptyFrom(CampaignId campaign) {
    CandidatePool pool = pools.getIfPresent(campaign);
    return pool == null ? null : pool.foundEmptyFrom();
  }

  @Override
  public boolean runningOut(CampaignId campaign) {
    CandidatePool pool = pools.getIfPresent(campaign);
    return pool != null && pool.runningOut();
  }

  private CandidatePool pool(CampaignId campaign) {
    return pools.get(
        campaign,
        id ->
            new CandidatePool(
                candidateMaxAge, refillBelow, firstProbe, candidates, probes, clock, counters));
  }

  private CandidatePool.Candidate take(
      CandidatePool pool, Instant started, Instant deadline, CollectionReference coupons) {
    try {
      return pool.take(started, deadline, (limit, soldOutBefore) -> probe(coupons, limit, soldOutBefore));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while waiting for coupon candidates", e);
    }
  }

  /** One query of the pool, counted, within the store's call timeout. */
  private List<QueryDocumentSnapshot> read(Query query) {
    counters.query();
    return await(query::get, docs.timeout(), "find unassigned coupons").getDocuments();
  }

  /**
   * Unassigned coupons from a random point on, and when those are fewer than {@code limit}, the
   * rest from the start up to that point; when none lie beyond the point, one query over the whole
   * range, whose empty result proves none is left. After a sell-out only the proof runs: one query
   * instead of two for every claim of a sold-out storm. Near a sale's end a probe so reads all the
   * pool has left, up to {@code limit}, rather than the few beyond its point, and the claims need
   * not wait for one small probe after another.
   */
  private List<CandidatePool.Candidate> probe(
      CollectionReference coupons, int limit, boolean soldOutBefore) {
    Query unassigned =
        coupons.whereEqualTo(FirestoreLayout.IS_ASSIGNED, false).orderBy(FirestoreLayout.RANDOM_FLOAT);
    List<QueryDocumentSnapshot> found = List.of();
    if (!soldOutBefore) {
      double from = ThreadLocalRandom.current().nextDouble();
      found = read(unassigned.startAt(from).limit(limit));
      if (!found.isEmpty() && found.size() < limit) {
        found =
            Stream.concat(
                    found.stream(),
                    read(unassigned.endBefore(from).limit(limit - found.size())).stream())
                .toList();
      }
    }
    if (found.isEmpty()) {
      found = read(unassigned.limit(limit));
    }
    Instant seen = clock.instant();
    return found.stream()
        .map(
            doc ->
                new CandidatePool.Candidate(
                    doc.getReference(),
                    doc.getString(FirestoreLayout.CODE),
                    doc.getUpdateTime(),
                    seen))
        .toList();
  }
}
