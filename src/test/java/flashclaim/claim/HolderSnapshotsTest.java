package flashclaim.claim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** How a snapshot counts a user's records: {@link HolderSnapshots#countUpTo}. */
class HolderSnapshotsTest {

  @Test
  void countsTheRecordsOfOneKeyUpToTheLimit() {
    long[] keys = {-5, 1, 7, 7, 7, 9};
    assertThat(HolderSnapshots.countUpTo(keys, 7, 1)).isEqualTo(1);
    assertThat(HolderSnapshots.countUpTo(keys, 7, 3)).isEqualTo(3);
    assertThat(HolderSnapshots.countUpTo(keys, 7, 4)).isEqualTo(3);
    assertThat(HolderSnapshots.countUpTo(keys, 9, 1)).isEqualTo(1);
    assertThat(HolderSnapshots.countUpTo(keys, 9, 2)).isEqualTo(1);
    assertThat(HolderSnapshots.countUpTo(keys, -5, 1)).isEqualTo(1);
    assertThat(HolderSnapshots.countUpTo(keys, 8, 1)).isEqualTo(0);
    assertThat(HolderSnapshots.countUpTo(new long[0], 8, 1)).isEqualTo(0);
  }

  /** Whatever the keys, the answer is how often the key occurs, at most the limit. */
  @Property
  void agreesWithCounting(
      @ForAll @Size(max = 60) List<@LongRange(min = -4, max = 4) Long> records,
      @ForAll @LongRange(min = -5, max = 5) long key,
      @ForAll @IntRange(min = 1, max = 100) int limit) {
    long[] sorted = records.stream().mapToLong(Long::longValue).sorted().toArray();
    long count = Arrays.stream(sorted).filter(k -> k == key).count();
    assertThat(HolderSnapshots.countUpTo(sorted, key, limit)).isEqualTo((int) Math.min(count, limit));
  }

  @Test
  void aUserKeyIsKeptAsItsFirst64Bits() {
    String key = "ffffffffffffffff" + "0".repeat(48);
    assertThat(HolderSnapshots.keyBits(key)).isEqualTo(-1L);
    assertThat(HolderSnapshots.keyBits("0000000000000001" + "f".repeat(48))).isEqualTo(1L);
  }
}
