package flashclaim.http.claim;

import flashclaim.InvalidInputException;
import flashclaim.Sha256;
import flashclaim.admission.ClaimPacing;
import flashclaim.appcheck.AppCheckMode;
import flashclaim.appcheck.AppCheckVerifier;
import flashclaim.campaign.CampaignId;
import flashclaim.claim.ClaimService;
import flashclaim.claim.UserId;
import flashclaim.http.Arrival;
import flashclaim.http.edge.RequestIdFilter;
import flashclaim.http.shed.LoadShedFilter;
import flashclaim.idempotency.IdempotencyConfig;
import flashclaim.idempotency.IdempotencyKey;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micronaut.context.BeanProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.http.HttpResponse;
import io.micronaut.json.JsonMapper;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.token.validator.TokenValidator;
import flashclaim.appcheck.AppCheckVerdict;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The door of the claim route: the first step of a claim, run by {@link DoorHandler} on the event
 * loop as soon as the request's head is read, before the framework routes it, runs its filters or
 * checks its token. In a flash sale most claims are refused (two of three at three times an
 * instance's capacity), and a refusal through the whole pipeline cost 38-40 % of the CPU of a claim
 * served; the door answers the refusals it knows from memory for a fraction of that, and lets every
 * other request through untouched, to be answered by the pipeline as before.
 *
 * <p>It answers only a {@code POST} to the one spelling of a claim's path, without a body, on a
 * keep-alive HTTP/1.1 connection with no earlier request still unanswered, while the instance is not
 * draining; and then, in the claim edge's order ({@link ClaimEdgeFilter}), with the same answers:
 *
 * <ol>
 *   <li><b>Pacing</b>: a retry sooner than its caller was told ({@link ClaimPacingFilter}), 429
 *       {@code retry-too-soon}, held for the wait left as the pacing filter holds it. Like the
 *       pacing filter, before the token is known.
 *   <li><b>A verified caller</b>: the claim edge or the door let the same credentials (and App
 *       Check tokens, in {@code enforce} mode) through for the same campaign before, and the token
 *       has not expired ({@link KnownCallers}); or the framework's token validators accept the
 *       token now, at once (a key set still being fetched sends the claim on), and App Check
 *       admits its tokens at once. Any other claim goes through: the door never lets a stranger
 *       change the line or the book, nor tells one anything but what authentication would. In App
 *       Check's {@code monitor} mode, where every claim is to be counted, all go through.
 *   <li><b>Ids</b> that keep their rules (else the pipeline answers 400).
 *   <li><b>Answers without the store</b> ({@link ClaimService#decideWithoutStore}): 403 for a
 *       campaign not open, 410 for a pool proven empty, not to one who may be owed the answer of an
 *       earlier claim (a holder whose claim carries an Idempotency-Key). A proof waits for a shared
 *       read of the pool's additions, at most until the claim's deadline: the door holds the
 *       request meanwhile, without a thread ({@link DoorHandler}).
 *   <li><b>Refused at once by fair admission</b> ({@link ClaimAdmission#refuseAtOnce}): 503 {@code
 *       overloaded} with the caller's ticket, booked and counted as admission would.
 * </ol>
 *
 * Every answer carries the {@code X-Request-Id} and is remembered by pacing as the pipeline's are.
 * A claim that none of these answers (it would be admitted or wait, or anything is unknown) goes
 * on to the pipeline as it came.
 */
@Singleton
final class ClaimDoor {
  private static final String PATH_START = "/v1/campaigns/";
  private static final String PATH_END = "/claims";
  private static final byte[] NO_APP_CHECK = new byte[0];
  private static final CompletableFuture<Optional<FullHttpResponse>> PASS =
      CompletableFuture.completedFuture(Optional.empty());
  private static final CompletableFuture<Optional<HttpResponse<?>>> NOTHING =
      CompletableFuture.completedFuture(Optional.empty());
  private static final String BEARER = "Bearer ";
  /** A bearer token in the JWS compact form: three base64url parts. */
  private static final Pattern JWS =
      Pattern.compile(BEARER + "[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

  private final DoorConfig config;
  private final KnownCallers callers;
  private final ClaimPacing pacing;
  private final ClaimAdmission admission;
  private final ClaimService claims;
  private final LoadShedFilter shed;
  private final AppCheckVerifier appCheck;
  private final IdempotencyConfig idempotency;
  private final JsonMapper json;
  private final List<TokenValidator<io.micronaut.http.HttpRequest<?>>> validators;
  private final Map<Integer, LongAdder> answered = new ConcurrentHashMap<>();
  private final LongAdder passed = new LongAdder();

  ClaimDoor(
      DoorConfig config,
      KnownCallers callers,
      ClaimPacing pacing,
      ClaimAdmission admission,
      ClaimService claims,
      LoadShedFilter shed,
      AppCheckVerifier appCheck,
      IdempotencyConfig idempotency,
      JsonMapper json,
      List<TokenValidator<io.micronaut.http.HttpRequest<?>>> validators) {
    this.config = config;
    this.callers = callers;
    this.pacing = pacing;
    this.admission = admission;
    this.claims = claims;
    this.shed = shed;
    this.appCheck = appCheck;
    this.idempotency = idempotency;
    this.json = json;
    this.validators = validators;
  }

  /**
   * Remembers the caller of a claim the claim edge let through authentication, App Check and the
   * rules of its ids ({@link KnownCallers}), until its token expires: its next claims may be
   * answered here.
   */
  void verified(io.micronaut.http.HttpRequest<?> request, ClaimRequest claim) {
    if (!config.enabled() || appCheck.mode() == AppCheckMode.MONITOR) {
      return;
    }
    String credentials = request.getHeaders().get(HttpHeaderNames.AUTHORIZATION);
    Optional<Instant> expiry =
        request.getUserPrincipal(Authentication.class).flatMap(ClaimDoor::expiry);
    if (credentials == null || expiry.isEmpty() || !claimShaped(request.getPath())) {
      return;
    }
    byte[] digest =
        request
            .getAttribute(ClaimPacingFilter.DIGEST, byte[].class)
            .orElseGet(() -> ClaimPacing.digest(credentials, request.getPath()));
    callers.remember(
        digest,
        appCheckDigest(request.getHeaders().getAll(ClaimEdgeFilter.APP_CHECK)),
        claim.user(),
        expiry.get());
  }

  /**
   * The caller of {@code credentials}, when the framework's token validators (those of
   * authentication, with every rule of {@code flashclaim.auth}) accept its bearer token at once,
   * and App Check, in {@code enforce} mode, admits {@code appCheckTokens} at once; the caller is
   * then remembered. Empty when either refuses, or would answer only later (a key set being
   * fetched): the claim goes through the pipeline, which checks it again and answers. Only a
   * bearer token in the JWS compact form is read here, a form every reader of the pipeline reads
   * alike.
   */
  private Optional<Authentication> verifiedNow(String credentials, List<String> appCheckTokens) {
    if (!JWS.matcher(credentials).matches()) {
      return Optional.empty();
    }
    if (appCheck.mode() == AppCheckMode.ENFORCE) {
      CompletableFuture<AppCheckVerdict> verdict = appCheck.inspect(appCheckTokens);
      if (!verdict.isDone()
          || verdict.isCompletedExceptionally()
          || !appCheck.admits(verdict.join())) {
        return Optional.empty();
      }
    }
    String token = credentials.substring(BEARER.length());
    for (TokenValidator<io.micronaut.http.HttpRequest<?>> validator : validators) {
      CompletableFuture<Authentication> validated =
          Mono.from(validator.validateToken(token, null)).toFuture();
      if (!validated.isDone()) {
        validated.cancel(true);
        return Optional.empty();
      }
      if (validated.isCompletedExceptionally() || validated.join() == null) {
        continue;
      }
      return Optional.of(validated.join());
    }
    return Optional.empty();
  }

  /** When the token of {@code user} expires, from its {@code exp} claim. */
  private static Optional<Instant> expiry(Authentication user) {
    Object exp = user.getAttributes().get("exp");
    if (exp instanceof java.util.Date date) {
      return Optional.of(date.toInstant());
    } else if (exp instanceof Instant instant) {
      return Optional.of(instant);
    } else if (exp instanceof Number seconds) {
      return Optional.of(Instant.ofEpochSecond(seconds.longValue()));
    }
    return Optional.empty();
  }

  /** The answer to {@code request} at the door; empty lets it through to the pipeline. */
  CompletableFuture<Optional<FullHttpResponse>> answer(HttpRequest request) {
    if (!config.enabled() || shed.isDraining() || !claimShaped(request)) {
      return PASS;
    }
    CompletableFuture<Optional<HttpResponse<?>>> decided = decide(request);
    return decided.isDone() && !decided.isCompletedExceptionally()
        ? CompletableFuture.completedFuture(toNetty(decided.join(), request))
        : decided.handle(
            (answer, error) -> error == null ? toNetty(answer, request) : Optional.empty());
  }

  /** The answer as Netty writes it, counted; nothing, counted as passed, when there is none. */
  private Optional<FullHttpResponse> toNetty(Optional<HttpResponse<?>> answer, HttpRequest request) {
    if (answer.isEmpty()) {
      passed.increment();
      return Optional.empty();
    }
    HttpResponse<?> response = answer.get();
    answered.computeIfAbsent(response.code(), code -> new LongAdder()).increment();
    if (appCheck.mode() == AppCheckMode.ENFORCE && response.code() != 429) {
      appCheck.countValid(); // as the claim edge would have counted its token
    }
    return Optional.of(toNetty(response, request.headers().get(RequestIdFilter.HEADER)));
  }

  /**
   * The answer to a claim-shaped request, done at once unless it waits for the shared read that a
   * pool proven empty needs; empty lets it through.
   */
  private CompletableFuture<Optional<HttpResponse<?>>> decide(HttpRequest request) {
    HttpHeaders headers = request.headers();
    String path = request.uri();
    String campaign = path.substring(PATH_START.length(), path.length() - PATH_END.length());
    if (CampaignId.isReserved(campaign)) {
      return NOTHING; // the warm-up's: the pipeline answers 404 to all but it, first
    }
    List<String> credentials = headers.getAll(HttpHeaderNames.AUTHORIZATION);
    if (credentials.size() != 1) {
      return NOTHING; // anonymous: refused by the route's security rule
    }
    byte[] digest = ClaimPacing.digest(credentials.get(0), path);
    long key = ClaimPacing.key(digest);
    List<String> tickets = headers.getAll(ClaimAdmission.TICKET);
    if (pacing.enabled()) {
      var tooSoon = pacing.tooSoon(key);
      if (tooSoon.isPresent()) {
        return tooSoon
            .get()
            .thenApply(left -> Optional.of(ClaimPacingFilter.tooSoon(path, left, tickets)));
      }
    }
    if (appCheck.mode() == AppCheckMode.MONITOR) {
      return NOTHING;
    }
    List<String> appCheckTokens = headers.getAll(ClaimEdgeFilter.APP_CHECK);
    byte[] appCheckDigest = appCheckDigest(appCheckTokens);
    Optional<String> user = callers.user(digest, appCheckDigest);
    if (user.isEmpty()) {
      Optional<Authentication> verified = verifiedNow(credentials.get(0), appCheckTokens);
      Optional<Instant> expiry = verified.flatMap(ClaimDoor::expiry);
      if (expiry.isEmpty()) {
        return NOTHING;
      }
      callers.remember(digest, appCheckDigest, verified.get().getName(), expiry.get());
      user = Optional.of(verified.get().getName());
    }
    CampaignId campaignId;
    UserId userId;
    try {
      campaignId = new CampaignId(campaign);
      userId = new UserId(user.get());
    } catch (InvalidInputException e) {
      return NOTHING;
    }
    String frontEnd = shed.frontEndHeader();
    Arrival.Times arrival = shed.arrivalNow(frontEnd.isEmpty() ? List.of() : headers.getAll(frontEnd));
    ClaimRequest claim =
        new ClaimRequest(campaign, user.get(), arrival.came(), arrival.seen(), tickets, path);
    return claims
        .decideWithoutStore(campaignId, userId, claim.arrived())
        .thenApply(refusal -> afterWithoutStore(refusal, claim, campaignId, headers, key));
  }

  /** The answer once the answers without the store are known: theirs, or fair admission's. */
  private Optional<HttpResponse<?>> afterWithoutStore(
      Optional<ClaimService.Refusal> refusal,
      ClaimRequest claim,
      CampaignId campaignId,
      HttpHeaders headers,
      long key) {
    if (refusal.isPresent()) {
      if (refusal.get().holdsCoupons() && carriesKey(headers)) {
        return Optional.empty();
      }
      admission.answeredBefore(claim);
      return Optional.of(
          ClaimAnswers.of(
              claims.answered(campaignId, refusal.get(), claim.arrived()),
              claim.campaign(),
              claim.path()));
    }
    Optional<HttpResponse<?>> refused = admission.refuseAtOnce(claim);
    refused.ifPresent(response -> ClaimPacingFilter.remember(pacing, key, response));
    return refused;
  }

  /**
   * Whether the request could be a claim the door answers: a {@code POST} to the one spelling of a
   * claim's path (no query, no escapes), without a body, keep-alive, not failed in decoding.
   */
  private static boolean claimShaped(HttpRequest request) {
    if (request.method() != HttpMethod.POST
        || !request.decoderResult().isSuccess()
        || !claimShaped(request.uri())
        || !HttpUtil.isKeepAlive(request)
        || request.protocolVersion() != HttpVersion.HTTP_1_1) {
      return false;
    }
    HttpHeaders headers = request.headers();
    List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
    return !headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
        && !headers.contains(HttpHeaderNames.EXPECT)
        && (lengths.isEmpty() || lengths.size() == 1 && lengths.get(0).strip().equals("0"));
  }

  /** Whether {@code path} is the one spelling of a claim's path: no query, no escapes. */
  private static boolean claimShaped(String path) {
    return path.startsWith(PATH_START)
        && path.endsWith(PATH_END)
        && path.length() > PATH_START.length() + PATH_END.length()
        && path.indexOf('/', PATH_START.length()) == path.length() - PATH_END.length()
        && path.indexOf('?') < 0
        && path.indexOf('%') < 0;
  }

  /** Whether the claim carries an Idempotency-Key that the idempotency filter would look at. */
  private boolean carriesKey(HttpHeaders headers) {
    return idempotency.enabled() && headers.contains(IdempotencyKey.HEADER);
  }

  /**
   * What {@link KnownCallers} knows a caller's App Check tokens by: nothing when App Check is off,
   * else the SHA-256 of every token presented, in order.
   */
  byte[] appCheckDigest(List<String> tokens) {
    if (appCheck.mode() == AppCheckMode.OFF) {
      return NO_APP_CHECK;
    }
    MessageDigest digest = Sha256.digest();
    for (String token : tokens) {
      digest.update(token.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
    }
    return digest.digest();
  }

  /** The pipeline's answer as Netty writes it: its status, headers and JSON body, and an id. */
  private FullHttpResponse toNetty(HttpResponse<?> response, String givenId) {
    byte[] body;
    try {
      body = response.getBody().isPresent() ? json.writeValueAsBytes(response.getBody().get()) : new byte[0];
    } catch (IOException e) {
      throw new IllegalStateException("an answer's body could not be written", e);
    }
    FullHttpResponse netty =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.valueOf(response.code()),
            Unpooled.wrappedBuffer(body));
    response.getHeaders().forEach((name, values) -> netty.headers().add(name, values));
    netty.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
    netty.headers().set(RequestIdFilter.HEADER, RequestIdFilter.idOf(givenId));
    return netty;
  }

  /** Claims answered at the door with {@code status}, so far. */
  long answered(int status) {
    LongAdder count = answered.get(status);
    return count == null ? 0 : count.sum();
  }

  /** Claim-shaped requests let through to the pipeline, so far. */
  long passed() {
    return passed.sum();
  }

  /** Callers remembered now (an estimate). */
  long callers() {
    return callers.size();
  }

  /**
   * The door's meters. Apart from the door, which the meters' registry must not wait for: the door
   * needs the store, whose client is measured by that registry.
   */
  @Singleton
  static final class Meters implements MeterBinder {
    private final BeanProvider<ClaimDoor> door;

    Meters(BeanProvider<ClaimDoor> door) {
      this.door = door;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
      for (int status : new int[] {403, 404, 410, 429, 503}) {
        FunctionCounter.builder(
                "flashclaim.http.door.answers", door, d -> d.get().answered(status))
            .description("Claims answered at the claim door, before the framework, by status")
            .tag("status", Integer.toString(status))
            .register(registry);
      }
      FunctionCounter.builder("flashclaim.http.door.passed", door, d -> d.get().passed())
          .description("Claim-shaped requests the claim door let through to the pipeline")
          .register(registry);
      Gauge.builder("flashclaim.http.door.callers", door, d -> d.get().callers())
          .description("Verified callers the claim door remembers")
          .register(registry);
    }
  }
}
