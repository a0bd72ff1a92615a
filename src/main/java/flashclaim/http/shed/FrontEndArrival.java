package flashclaim.http.shed;

import flashclaim.http.HttpConfig;
import io.micronaut.http.HttpRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * When a trusted front end (a load balancer or reverse proxy in front of every instance) received a
 * request, read from the header it sets on every request ({@code
 * flashclaim.http.front-end-arrival-header}, e.g. {@code X-Request-Start}; off when empty).
 *
 * <p>The value is a time since the epoch, optionally after {@code t=}: seconds with a fraction
 * (nginx's {@code t=$msec}), or whole milliseconds, microseconds (Apache's {@code %t}) or
 * nanoseconds, told apart by their size as request-queueing monitors do. A value that is not such a
 * number, that lies more than {@code front-end-arrival-max-age} before the moment the first filter
 * runs, or that is sent more than once, is ignored (the request counts as arriving when its first
 * filter runs); one later than that moment (the front end's clock ahead of the instance's) counts
 * as that moment. So a client that could set the header itself, past a front end that does not
 * replace it, gains at most {@code max-age} of place.
 *
 * <p>It also counts how long the requests it read waited between the front end and the first
 * filter: in the front end's queue, in the network, and unread in the instance's sockets.
 */
final class FrontEndArrival {
  private static final int MAX_LENGTH = 40;

  private final String header;
  private final Duration maxAge;
  private final LongAdder read = new LongAdder();
  private final LongAdder waitedNanos = new LongAdder();

  FrontEndArrival(HttpConfig config) {
    this.header = config.frontEndArrivalHeader().strip();
    this.maxAge = config.frontEndArrivalMaxAge();
  }

  /** True when a header is configured. */
  boolean enabled() {
    return !header.isEmpty();
  }

  /**
   * When the front end received {@code request}, no later than {@code now}; empty when the header
   * is off, missing, malformed, repeated or older than the maximum age.
   */
  Optional<Instant> of(HttpRequest<?> request, Instant now) {
    return enabled() ? of(request.getHeaders().getAll(header), now) : Optional.empty();
  }

  /** The header this reads; empty when off. */
  String header() {
    return header;
  }

  /** As {@link #of(HttpRequest, Instant)}, from every value of the header the request carries. */
  Optional<Instant> of(List<String> values, Instant now) {
    if (!enabled() || values.size() != 1) {
      return Optional.empty();
    }
    Optional<Instant> stamp =
        parse(values.get(0))
            .filter(at -> !at.isBefore(now.minus(maxAge)))
            .map(at -> at.isAfter(now) ? now : at);
    stamp.ifPresent(
        at -> {
          read.increment();
          waitedNanos.add(Duration.between(at, now).toNanos());
        });
    return stamp;
  }

  /** Requests whose front end's time of arrival was read. */
  long readCount() {
    return read.sum();
  }

  /** Seconds those requests waited between the front end and the first filter, all together. */
  double waitedSeconds() {
    return waitedNanos.sum() / 1e9;
  }

  /** The epoch time in {@code value}, by the rules above; empty if it is not one. */
  static Optional<Instant> parse(String value) {
    String text = value.strip();
    if (text.startsWith("t=")) {
      text = text.substring(2);
    }
    if (text.isEmpty() || text.length() > MAX_LENGTH || !text.matches("[0-9]+(\\.[0-9]+)?")) {
      return Optional.empty();
    }
    BigDecimal number = new BigDecimal(text);
    // 1e11 s is the year 5138, 1e11 ms 1973: the size tells seconds, ms, us and ns apart
    BigDecimal seconds;
    if (number.compareTo(BigDecimal.valueOf(100_000_000_000L)) < 0) {
      seconds = number;
    } else if (number.compareTo(new BigDecimal("1e14")) < 0) {
      seconds = number.movePointLeft(3);
    } else if (number.compareTo(new BigDecimal("1e17")) < 0) {
      seconds = number.movePointLeft(6);
    } else if (number.compareTo(new BigDecimal("1e20")) < 0) {
      seconds = number.movePointLeft(9);
    } else {
      return Optional.empty();
    }
    return Optional.of(Instant.EPOCH.plusNanos(seconds.movePointRight(9).longValue()));
  }
}
