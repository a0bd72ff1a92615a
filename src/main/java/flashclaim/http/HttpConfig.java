package flashclaim.http;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Tunables of the HTTP layer ({@code flashclaim.http.*}).
 *
 * @param maxInFlight requests under {@code /v1} other than claims that one instance works on at
 *     once; more are shed with 503 and Retry-After instead of queueing without bound (claims have
 *     the adaptive limit of {@code flashclaim.admission.*})
 * @param retryAfter the Retry-After of such a shed request, of a request refused while the
 *     instance stops, and of a store that did not answer
 * @param lagProbeInterval how often each event loop is probed for how late it runs a task that was
 *     due (the {@code flashclaim.http.event.loop.lag} meter): a loop that falls behind delays every
 *     request on it before any filter sees it
 * @param arrivalCountsLoopLag a request's deadline counts from the moment its first filter ran
 *     less how far behind its event loop was then: the time it waited unread is part of its wait,
 *     as the client measures it. False: from the moment its first filter ran. (A new user's first
 *     arrival, their place in line, is that moment either way.)
 * @param frontEndArrivalHeader the header in which a trusted front end (load balancer, reverse
 *     proxy) tells when it received each request, e.g. {@code X-Request-Start} (nginx: {@code
 *     proxy_set_header X-Request-Start t=$msec}; HAProxy: {@code http-request set-header
 *     X-Request-Start t=%[date(0,ms)]}); empty: off. When set, a request's place in the order of
 *     arrival (a new user's place in line, and the turn they are told) is that moment, so that
 *     requests keep the order in which the front end received them however long each waited on its
 *     way (its deadline still counts from when this instance read it). Set it only if the front end
 *     sets the header on every request and replaces any value a client sent: a client that can set
 *     it gains up to {@code front-end-arrival-max-age} of place
 * @param frontEndArrivalMaxAge a front end's time of arrival older than this (when the first
 *     filter runs) is ignored
 * @param maxConnections open HTTP connections one instance holds at most: at this many it stops
 *     accepting new ones (they wait in the kernel's accept queue, and beyond it are not
 *     connected) until one closes. Keeps the process's open files for the store's connections
 *     and its own, whoever opens connections; keep it well below the open files limit ({@code
 *     ulimit -n}) and above a front end's connections to the instance. 0: no bound
 * @param closeWhenFull while {@code max-connections} are open, an answer that leaves its
 *     connection owing nothing (every request it sent answered) says {@code Connection: close},
 *     and the connection is closed once the answer is written: clients that keep their
 *     connections after their answers (a sold-out storm through a pool that opens a connection
 *     whenever all are busy) free the bound as fast as they are answered, and the connections
 *     waiting in the accept queue are let in, instead of after {@code
 *     micronaut.server.idle-timeout}. The client reads the close with its answer, so no request is
 *     sent on a connection being closed. False: connections stay open
 * @param headTimeout the longest a request's head (its request line and headers) may take to
 *     arrive: counted from the connection's accept for its first request, and from the first byte
 *     of each later one. A connection past it is closed without an answer (no request was read to
 *     answer), so that connections opened and left silent, or fed a head a byte at a time, do not
 *     hold the instance's connections ({@code max-connections}) for {@code
 *     micronaut.server.idle-timeout} or longer. Time the service itself spends not reading (a
 *     claim held at the door, answers owed) is not counted against the client. 0: off
 */
@ConfigurationProperties("flashclaim.http")
public record HttpConfig(
    @Bindable(defaultValue = "256") int maxInFlight,
    @Bindable(defaultValue = "1s") Duration retryAfter,
    @Bindable(defaultValue = "100ms") Duration lagProbeInterval,
    @Bindable(defaultValue = "true") boolean arrivalCountsLoopLag,
    @Bindable(defaultValue = "") String frontEndArrivalHeader,
    @Bindable(defaultValue = "30s") Duration frontEndArrivalMaxAge,
    @Bindable(defaultValue = "10000") int maxConnections,
    @Bindable(defaultValue = "true") boolean closeWhenFull,
    @Bindable(defaultValue = "10s") Duration headTimeout) {

  /** Refuses a configuration that cannot work: the service does not start with it. */
  public HttpConfig {
    if (maxConnections < 0) {
      throw new IllegalStateException("flashclaim.http.max-connections must not be negative");
    }
    if (headTimeout.isNegative()) {
      throw new IllegalStateException("flashclaim.http.head-timeout must not be negative");
    }
  }
}
