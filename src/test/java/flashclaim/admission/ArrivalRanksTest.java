package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ArrivalRanksTest {
  private static final Instant T0 = Instant.parse("2026-11-27T08:00:00Z");

  /**
   * Against a plain count, over random adds and removes whose arrivals span from a second to over
   * an hour around the first (the tree grows many times, to both sides), and after the counts
   * empty and start again elsewhere.
   */
  @Test
  void countsTheArrivalsOfEarlierBucketsAsAPlainCountDoes() {
    for (long spanMs : new long[] {1_000, 60_000, 4_000_000}) {
      Random random = new Random(spanMs);
      ArrivalRanks ranks = new ArrivalRanks();
      List<Instant> counted = new ArrayList<>();
      for (int round = 0; round < 2; round++) {
        Instant start = T0.plusSeconds(round * 86_400L);
        ranks.add(start); // the first arrival counted places the buckets; it stays to the end
        counted.add(start);
        for (int step = 0; step < 5_000; step++) {
          if (counted.size() == 1 || random.nextInt(3) > 0) {
            Instant arrival = start.plusMillis((long) ((random.nextDouble() - 0.3) * spanMs));
            ranks.add(arrival);
            counted.add(arrival);
          } else {
            ranks.remove(counted.remove(1 + random.nextInt(counted.size() - 1)));
          }
          Instant probe = start.plusMillis((long) ((random.nextDouble() - 0.4) * spanMs));
          assertThat(ranks.before(probe)).isEqualTo(plainCount(counted, probe));
        }
        assertThat(ranks.size()).isEqualTo(counted.size());
        counted.forEach(ranks::remove);
        counted.clear();
        assertThat(ranks.before(start.plusMillis(spanMs))).isZero();
      }
    }
  }

  /** Arrivals in the same bucket are not before one another; an earlier bucket's are. */
  @Test
  void arrivalsOfOneBucketAreNotBeforeEachOther() {
    ArrivalRanks ranks = new ArrivalRanks();
    ranks.add(T0);
    ranks.add(T0.plusMillis(ArrivalRanks.BUCKET_MS - 1));
    assertThat(ranks.before(T0.plusMillis(ArrivalRanks.BUCKET_MS - 1))).isZero();
    assertThat(ranks.before(T0.plusMillis(ArrivalRanks.BUCKET_MS))).isEqualTo(2);
  }

  /**
   * An earlier arrival than the first moves the buckets to cover it; one beyond the most buckets
   * counts in the last, and each is removed from where it was counted.
   */
  @Test
  void arrivalsOutsideTheBucketsCountAtTheirEnds() {
    ArrivalRanks ranks = new ArrivalRanks();
    ranks.add(T0);
    Instant earlier = T0.minusSeconds(60);
    Instant farLater = T0.plusMillis(ArrivalRanks.BUCKET_MS * (ArrivalRanks.MAX_BUCKETS + 5L));
    ranks.add(earlier);
    ranks.add(farLater);
    assertThat(ranks.before(T0.plusMillis(ArrivalRanks.BUCKET_MS))).isEqualTo(2);
    assertThat(ranks.before(farLater.plusSeconds(60))).as("all, beyond the end").isEqualTo(3);
    ranks.remove(earlier);
    ranks.remove(farLater);
    assertThat(ranks.before(farLater)).isEqualTo(1);
  }

  private static int plainCount(List<Instant> counted, Instant probe) {
    long bucket = probe.toEpochMilli() / ArrivalRanks.BUCKET_MS;
    return (int) counted.stream()
        .filter(a -> a.toEpochMilli() / ArrivalRanks.BUCKET_MS < bucket)
        .count();
  }
}
