package flashclaim.admission;

import com.netflix.concurrency.limits.Limit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A ceiling over the adaptive limit of the claims that run at once: the limiter admits at most
 * the lower of the two. The adaptive limit follows the store's latency; the ceiling is lowered by
 * whoever sees that the instance itself falls behind (its event loops late: the requests it has
 * not read yet wait where no admission sees them), so that claims take less of the cores and
 * reading the rest, and refusing them cheaply, keeps up. Unbounded until lowered.
 */
public final class SlotCeiling implements Limit {
  /** No ceiling: the adaptive limit alone. */
  public static final int NONE = Integer.MAX_VALUE;

  private final Limit limit;
  private final List<Consumer<Integer>> listeners = new CopyOnWriteArrayList<>();
  private volatile int ceiling = NONE;

  public SlotCeiling(Limit limit) {
    this.limit = limit;
    limit.notifyOnChange(changed -> tell());
  }

  /** The adaptive limit's own value, without the ceiling. */
  public int adaptiveLimit() {
    return limit.getLimit();
  }

  /** The ceiling now, {@link #NONE} when there is none. */
  public int ceiling() {
    return ceiling;
  }

  /** Sets the ceiling (at least 1; {@link #NONE}: none); the limiter follows at once. */
  public void set(int slots) {
    int next = Math.max(1, slots);
    if (next != ceiling) {
      ceiling = next;
      tell();
    }
  }

  @Override
  public int getLimit() {
    return Math.min(limit.getLimit(), ceiling);
  }

  @Override
  public void notifyOnChange(Consumer<Integer> consumer) {
    listeners.add(consumer);
  }

  @Override
  public void onSample(long startTime, long rtt, int inflight, boolean didDrop) {
    limit.onSample(startTime, rtt, inflight, didDrop);
  }

  private void tell() {
    int now = getLimit();
    listeners.forEach(listener -> listener.accept(now));
  }
}
