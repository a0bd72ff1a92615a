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

/** How a snapshot counts a user's records: {@link HolderSnapshots#holdsAtLeast}. */
class HolderSnapshotsTest {

  @Test
  void countsTheRecordsOfOneKeyAgainstTheLimit() {
    long[] keys = {-5, 1, 7, 7, 7, 9};
    assertThat(HolderSnapshots.holdsAtLeast(keys, 7, 1)).isTrue();
    assertThat(HolderSnapshots.holdsAtLeast(keys, 7, 3)).isTrue();
    assertThat(HolderSnapshots.holdsAtLeast(keys, 7, 4)).isFalse();
    assertThat(HolderSnapshots.holdsAtLeast(keys, 9, 1)).isTrue();
    assertThat(HolderSnapshots.holdsAtLeast(keys, 9, 2)).isFalse();
    assertThat(HolderSnapshots.holdsAtLeast(keys, -5, 1)).isTrue();
    assertThat(HolderSnapshots.holdsAtLeast(keys, 8, 1)).isFalse();
    assertThat(HolderSnapshots.holdsAtLeast(new long[0], 8, 1)).isFalse();
  }

  /** Whatever the keys, the answer is "the key occurs at least limit times". */
  @Property
  void agreesWithCounting(
      @ForAll @Size(max = 60) List<@LongRange(min = -4, max = 4) Long> records,
      @ForAll @LongRange(min = -5, max = 5) long key,
      @ForAll @IntRange(min = 1, max = 100) int limit) {
    long[] sorted = records.stream().mapToLong(Long::longValue).sorted().toArray();
    long count = Arrays.stream(sorted).filter(k -> k == key).count();
    assertThat(HolderSnapshots.holdsAtLeast(sorted, key, limit)).isEqualTo(count >= limit);
  }

  @Test
  void aUserKeyIsKeptAsItsFirst64Bits() {
    String key = "ffffffffffffffff" + "0".repeat(48);
    assertThat(HolderSnapshots.keyBits(key)).isEqualTo(-1L);
    assertThat(HolderSnapshots.keyBits("0000000000000001" + "f".repeat(48))).isEqualTo(1L);
  }
}
