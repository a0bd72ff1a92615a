package flashclaim.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import flashclaim.campaign.Stock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The store-wide rate of the dashboard's stock from its readings, on their own (the route test
 * reads real stores): however often the stock is read, the rate spans the window.
 */
class LiveStockTest {
  private static final Duration WINDOW = Duration.ofSeconds(10);
  private static final Instant START = Instant.parse("2026-11-23T10:00:00Z");

  private static void read(LiveStock.Entry entry, long assigned, long atMillis) {
    entry.add(new LiveStock.Sample(new Stock(1_000_000, assigned), START.plusMillis(atMillis)), WINDOW);
  }

  @Test
  void noRateBeforeReadingsASecondApart() {
    LiveStock.Entry entry = new LiveStock.Entry();
    read(entry, 0, 0);
    assertThat(entry.reading().assignedPerSecond()).isNull();
    read(entry, 0, 999);
    assertThat(entry.reading().assignedPerSecond()).isNull();
    read(entry, 10, 1000);
    assertThat(entry.reading().assignedPerSecond()).isEqualTo(10.0);
    assertThat(entry.reading().readAt()).isEqualTo(START.plusMillis(1000));
  }

  @Test
  void readingsEveryMillisecondStillGiveTheRateOverTheWindow() {
    LiveStock.Entry entry = new LiveStock.Entry();
    // 20 s of readings, one every millisecond, while 7 coupons are assigned per 10 ms (700/s).
    for (int ms = 0; ms <= 20_000; ms++) {
      read(entry, ms / 10 * 7L, ms);
      if (ms >= 1000) {
        assertThat(entry.reading().assignedPerSecond()).as("at %d ms", ms).isNotNull();
      }
    }
    LiveStock.Reading last = entry.reading();
    assertThat(last.stock().assigned()).isEqualTo(14_000);
    assertThat(last.readAt()).isEqualTo(START.plusMillis(20_000));
    assertThat(last.assignedPerSecond()).isCloseTo(700.0, within(1.0));
  }

  @Test
  void anOlderReadingThatEndsLateIsIgnored() {
    LiveStock.Entry entry = new LiveStock.Entry();
    read(entry, 0, 0);
    read(entry, 20, 2000);
    read(entry, 5, 1500);
    assertThat(entry.reading().stock().assigned()).isEqualTo(20);
    assertThat(entry.reading().assignedPerSecond()).isEqualTo(10.0);
  }
}
