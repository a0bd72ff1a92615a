package flashclaim.admission;

import java.time.Instant;
import java.util.TreeMap;

/**
 * The share of refused users who come back when they were told, as one instance sees it: the users
 * told to come back in a second are compared with the returning claims (with a ticket) that the
 * instance sees in the second after it, both summed over the last seconds with weights that fall
 * by {@link #DECAY} a second, since a client told a time comes back within the whole second after
 * it (Retry-After rounds up). Behind a load balancer that spreads users evenly, an instance sees
 * about as many returns as it told. The appointment book scales its step by this share, so users
 * who never come back (they gave up, or their client drops the ticket) keep no turn that later
 * users must wait behind.
 *
 * <p>Not thread-safe: {@link FairAdmission} calls it under its lock. Memory: one counter per second
 * of the times told, at most {@code max-retry-after} of them.
 */
final class ShowUps {
  /**
   * Fewer users told to come back than this (weighted) say nothing about the share: it is 1 again
   * once the users due fall below it (about 8 s after a hundred a second stopped).
   */
  static final int MIN_TOLD = 20;
  /** Seconds without a claim after which nothing told is still due (over max-retry-after). */
  static final long MAX_GAP = 120;
  /** How much of the sums is kept from one second to the next. */
  static final double DECAY = 0.7;
  /**
   * Shares above this are taken as 1: returns spread over two seconds and over the instances of a
   * fleet make the count dip to 0.84 when every user comes back (AdmissionModel, 3 instances).
   */
  static final double NOISE = 0.8;

  /** Users told to come back, by the epoch second of the time they were told. */
  private final TreeMap<Long, long[]> told = new TreeMap<>();
  private long second = Long.MIN_VALUE;
  private long backThisSecond;
  private double toldSum;
  private double backSum;
  private double share = 1;
  /**
   * Users told to come back in the second before the last one that ended, the returns in that last
   * second, and the returns in the second before it (the second they were due in).
   */
  private long lastTold;
  private long lastBack;
  private long backBefore;

  /** A refused user was told, {@code now}, to come back at {@code at}. */
  void told(Instant now, Instant at) {
    roll(now);
    told.computeIfAbsent(at.getEpochSecond(), s -> new long[1])[0]++;
  }

  /** A refused user came back (a claim with a valid ticket). */
  void back(Instant now) {
    roll(now);
    backThisSecond++;
  }

  /**
   * Whether at least {@link #MIN_TOLD} users were told to come back in the second before the last
   * one that ended, and none came back in that second nor in the last one. Both count: a user due
   * early in a second, told a Retry-After rounded up to whole seconds, comes back in that same
   * second; seen only in the second after, a book whose users all came back as told would be
   * given up as if none had (AdmissionModel, a sale whose first two seconds drained four times
   * slower than the rest: FIFO 0.36).
   */
  boolean nobodyCameBack(Instant now) {
    roll(now);
    return lastTold >= MIN_TOLD && lastBack == 0 && backBefore == 0;
  }

  /**
   * The share of users told to come back who did, between 0 and 1; 1 until measured, and 1 while
   * it is above {@link #NOISE}, which counting returns second by second gives when everyone comes
   * back.
   */
  double share(Instant now) {
    roll(now);
    return share > NOISE ? 1 : share;
  }

  /** Ends the seconds before {@code now}'s that have not ended yet, one by one. */
  private void roll(Instant now) {
    long current = now.getEpochSecond();
    if (current <= second) {
      return;
    }
    if (second == Long.MIN_VALUE || current - second > MAX_GAP) {
      // nothing told is still due after so long: start again
      told.clear();
      toldSum = 0;
      backSum = 0;
      share = 1;
      lastTold = 0;
      lastBack = 0;
      backBefore = 0;
    } else {
      for (long ended = second; ended < current; ended++) {
        long[] due = told.remove(ended - 1);
        lastTold = due == null ? 0 : due[0];
        backBefore = lastBack;
        lastBack = ended == second ? backThisSecond : 0;
        toldSum = toldSum * DECAY + lastTold;
        backSum = backSum * DECAY + lastBack;
        // too few told (weighted) say nothing: a share measured on users who went away seconds
        // ago (a sale that ended, a burst that gave up) must not cut the next sale's turns
        share = toldSum >= MIN_TOLD ? Math.min(1, backSum / toldSum) : 1;
      }
    }
    second = current;
    backThisSecond = 0;
  }
}
