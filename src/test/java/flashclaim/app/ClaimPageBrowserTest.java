package flashclaim.app;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.claim.UserId;
import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.FirestoreBackend;
import flashclaim.testing.HeadlessChromium;
import flashclaim.admission.FairAdmission;
import flashclaim.testing.HeldClaims;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.StoreBackend;
import flashclaim.testing.TestTickets;
import flashclaim.testing.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The reference claim page ({@code /app/}) end to end in a real headless Chromium with a phone's
 * window: pages of several users press "Claim coupon" in a small flash sale while other clients
 * claim through the API on another instance, and each page ends showing exactly what the store
 * says its user holds; before the start, the claim's 403 shows a countdown; when the service says
 * retry (503), the page waits for Retry-After and sends back the ticket it got, with the same
 * Idempotency-Key, until it gets the coupon. Screenshots go to {@code target/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClaimPageBrowserTest {
  static final Duration WAIT = Duration.ofSeconds(60);
  /** The instance the pages talk to works on this many requests at once; more get 503. */
  static final int PAGE_INSTANCE_CAPACITY = 3;
  static final Set<String> FINAL = Set.of("claimed", "held", "sold-out");

  private final StoreBackend store = new FirestoreBackend();
  private ServiceInstance pages;
  private ServiceInstance api;
  private HeadlessChromium chromium;
  private WebDriver browser;

  @BeforeAll
  void start() throws IOException {
    store.reset();
    pages =
        ServiceInstance.start(
            Map.of(
                HeldClaims.PROPERTY, "true",
                TestTickets.PROPERTY, "true",
                "flashclaim.admission.limit", "fixed",
                "flashclaim.admission.initial-limit", PAGE_INSTANCE_CAPACITY,
                "flashclaim.admission.max-queued", 0));
    api = ServiceInstance.start(Map.of());
    chromium = HeadlessChromium.phone(390, 844);
    browser = chromium.browser();
  }

  @AfterAll
  void stop() throws IOException {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      if (pages != null) {
        pages.close();
      }
      if (api != null) {
        api.close();
      }
    }
  }

  @BeforeEach
  void reset() {
    TestTickets.reset();
  }

  @Test
  void aSmallFlashSaleEndsWithEveryPageShowingWhatTheStoreHolds() throws Exception {
    int coupons = 8;
    Api.createCampaign(api.url(), "phone-sale", 1, coupons, null, Instant.now().plus(1, ChronoUnit.HOURS));
    Map<String, String> tabs = new LinkedHashMap<>();
    for (int i = 0; i < 4; i++) {
      String user = "page-user-" + i;
      tabs.put(user, openSignedIn(user, "phone-sale"));
      waitForText("remaining", "8");
      assertThat(text("status")).isEqualTo("OPEN");
      assertThat(text("countdown-label")).isEqualTo("Ends in");
    }
    screenshot("claim-page-open");

    // The pages press the button while ten other users claim through the API, on another
    // instance of the same store.
    ExecutorService others = Executors.newFixedThreadPool(10);
    List<Future<Claimer.Result>> apiClaims = new ArrayList<>();
    try {
      for (String tab : tabs.values()) {
        browser.switchTo().window(tab);
        element("claim").click();
      }
      for (int i = 0; i < 10; i++) {
        String user = "api-user-" + i;
        apiClaims.add(others.submit(() -> Claimer.claimUntilFinal(api.url(), "phone-sale", user)));
      }
      for (Future<Claimer.Result> claim : apiClaims) {
        assertThat(claim.get(120, TimeUnit.SECONDS).status()).isIn(201, 410);
      }
    } finally {
      others.shutdownNow();
    }

    List<StoreBackend.StoredClaim> held = store.claims("phone-sale");
    assertThat(held).hasSize(coupons);
    for (Map.Entry<String, String> tab : tabs.entrySet()) {
      browser.switchTo().window(tab.getValue());
      String state = waitForFinalState();
      Optional<String> code = heldCode(held, tab.getKey());
      if (code.isPresent()) {
        assertThat(state).as(tab.getKey()).isEqualTo("claimed");
        assertThat(text("code")).as(tab.getKey()).isEqualTo(code.get());
        assertThat(element("claim").isEnabled()).isFalse();
      } else {
        assertThat(state).as(tab.getKey()).isEqualTo("sold-out");
        assertThat(text("result-text")).startsWith("Sold out");
        assertThat(element("claim").isEnabled()).isFalse();
      }
      screenshot("claim-page-" + tab.getKey());
    }
    // The status of every page moves to sold out.
    for (String tab : tabs.values()) {
      browser.switchTo().window(tab);
      waitForText("status", "SOLD OUT");
      assertThat(text("remaining")).isEqualTo("0");
    }

    // A late user presses the button: sold out, and nothing is written for them.
    openSignedIn("late-page-user", "phone-sale");
    element("claim").click();
    assertThat(waitForFinalState()).isEqualTo("sold-out");
    assertThat(text("result-text")).isEqualTo("Sold out: every coupon has been claimed.");
    assertThat(element("coupon").isDisplayed()).isFalse();
    assertThat(element("claim").isEnabled()).as("410 is final").isFalse();
    assertThat(text("claim")).isEqualTo("Sold out");
    assertThat(heldCode(store.claims("phone-sale"), "late-page-user")).isEmpty();
    screenshot("claim-page-sold-out");

    // An API winner opens the page later: it shows the coupon the store holds for them.
    Claimer.Result winner =
        apiClaims.stream().map(ClaimPageBrowserTest::resultOf).filter(r -> r.status() == 201).findFirst().orElseThrow();
    openSignedIn(winner.user(), "phone-sale");
    assertThat(waitForFinalState()).isEqualTo("held");
    assertThat(text("code")).isEqualTo(heldCode(held, winner.user()).orElseThrow());
    assertThat(text("code")).isEqualTo(winner.code());
    screenshot("claim-page-held");
  }

  @Test
  void beforeTheStartTheClaimShowsACountdown() throws IOException {
    Instant starts = Instant.now().plus(2, ChronoUnit.HOURS);
    Api.createCampaign(api.url(), "phone-later", 1, 5, starts, starts.plus(1, ChronoUnit.HOURS));
    openSignedIn("early-bird", "phone-later");
    waitForText("status", "UPCOMING");
    assertThat(text("countdown-label")).isEqualTo("Starts in");
    assertThat(text("countdown")).matches("1:59:[0-5][0-9]|2:00:00");
    assertThat(text("remaining")).isEqualTo("5");

    element("claim").click();
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "never showed the countdown: " + text("result-text"))
        .until(d -> "not-open".equals(state()) && text("result-text").startsWith("Not open yet. Starts in 1:59:"));
    assertThat(store.claims("phone-later")).isEmpty();
    screenshot("claim-page-countdown");
  }

  @Test
  void toldToRetryThePageWaitsAndSendsBackItsTicketUntilItGetsTheCoupon() throws Exception {
    Api.createCampaign(api.url(), "phone-busy", 1, 3);
    openSignedIn("patient", "phone-busy");
    waitForText("remaining", "3");
    assertThat(element("countdown-box").isDisplayed()).as("no countdown for an open-ended campaign").isFalse();

    // Every claim slot of the page's instance is taken by a claim held in flight, and no claim may
    // wait: the page's claim is answered 503 with a ticket.
    Api.createCampaign(api.url(), "phone-hold", 1, PAGE_INSTANCE_CAPACITY);
    FairAdmission admission = pages.context().getBean(FairAdmission.class);
    HeldClaims.hold("phone-hold");
    ExecutorService holders = Executors.newFixedThreadPool(PAGE_INSTANCE_CAPACITY);
    try {
      for (int i = 0; i < PAGE_INSTANCE_CAPACITY; i++) {
        String holder = "holder-" + i;
        holders.submit(() -> Api.post(pages.url(), "/v1/campaigns/phone-hold/claims", Tokens.user(holder), null));
      }
      new WebDriverWait(browser, WAIT).until(d -> admission.inFlight() == PAGE_INSTANCE_CAPACITY);
      TestTickets.reset();
      element("claim").click();
      new WebDriverWait(browser, WAIT)
          .withMessage(() -> "never waited: " + state() + " " + text("result-text"))
          .until(d -> "waiting".equals(state()) && text("result-text").contains("retrying in"));
      screenshot("claim-page-waiting");
      // It retries after Retry-After, still refused: at least two answers with tickets.
      new WebDriverWait(browser, WAIT).until(d -> pageTaps().size() >= 2);
      HeldClaims.release("phone-hold");
      String state = waitForFinalState();
      assertThat(state).isEqualTo("claimed");
    } finally {
      HeldClaims.release("phone-hold");
      holders.shutdown();
    }

    List<TestTickets.Exchange> tap = pageTaps();
    assertThat(tap.get(tap.size() - 1).status()).isEqualTo(201);
    assertThat(tap.subList(0, tap.size() - 1)).allMatch(e -> e.status() == 503 && e.receivedTicket() != null);
    assertThat(tap.get(0).sentTicket()).as("a first tap has no ticket").isNull();
    for (int i = 1; i < tap.size(); i++) {
      assertThat(tap.get(i).sentTicket()).as("retry %d sends back the ticket it got", i).isEqualTo(tap.get(i - 1).receivedTicket());
      assertThat(tap.get(i).idempotencyKey()).as("one key per tap").isEqualTo(tap.get(0).idempotencyKey());
    }
    assertThat(tap.get(0).idempotencyKey()).isNotBlank();
    assertThat(text("code")).isEqualTo(heldCode(store.claims("phone-busy"), "patient").orElseThrow());
  }

  /** The claims the page sent (the holders' claims send no Idempotency-Key). */
  private static List<TestTickets.Exchange> pageTaps() {
    return TestTickets.exchanges().stream().filter(e -> e.idempotencyKey() != null).toList();
  }

  /** The page's files need no token and run only their own script, talking only to this service. */
  @Test
  void thePageIsServedWithoutATokenAndLockedDown() {
    for (String file : List.of("/app/", "/app/index.html", "/app/app.js", "/app/app.css")) {
      Api.Response page = Api.get(pages.url(), file, null);
      assertThat(page.status()).as(file).isEqualTo(200);
      assertThat(page.header("Content-Security-Policy"))
          .as(file)
          .contains("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'");
      assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }
    assertThat(Api.get(pages.url(), "/app/index.html", null).contentType()).startsWith("text/html");
  }

  /** Opens the page in a new tab, signs in as {@code user} and waits until it shows the campaign. */
  private String openSignedIn(String user, String campaign) {
    browser.switchTo().newWindow(WindowType.TAB);
    browser.get(pages.url().resolve("/app/#campaign=" + campaign).toString());
    new WebDriverWait(browser, WAIT).until(d -> element("sign-in-panel").isDisplayed());
    assertThat(element("campaign-id").getAttribute("value")).isEqualTo(campaign);
    element("token").sendKeys(Tokens.user(user));
    element("sign-in").click();
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> user + " never saw the claim panel: " + text("error"))
        .until(d -> element("claim-panel").isDisplayed() && !text("campaign-name").equals("…"));
    assertThat(text("campaign-name")).isEqualTo(campaign);
    return browser.getWindowHandle();
  }

  /** The code the store holds for {@code user}, if any. */
  private static Optional<String> heldCode(List<StoreBackend.StoredClaim> claims, String user) {
    String key = new UserId(user).key();
    List<String> codes = claims.stream().filter(c -> c.holder().startsWith(key)).map(StoreBackend.StoredClaim::code).toList();
    assertThat(codes).as(user + " holds at most one coupon").hasSizeLessThanOrEqualTo(1);
    return codes.stream().findFirst();
  }

  private String waitForFinalState() {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "the page never reached a final state: " + state() + " " + text("result-text"))
        .until(d -> FINAL.contains(state()));
    return state();
  }

  private String state() {
    return element("result").getAttribute("data-state");
  }

  private WebElement element(String id) {
    return browser.findElement(By.id(id));
  }

  private String text(String id) {
    return element(id).getText();
  }

  private void waitForText(String id, String expected) {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "#" + id + " never showed '" + expected + "': '" + text(id) + "'")
        .until(d -> text(id).equals(expected));
  }

  private void screenshot(String name) throws IOException {
    Files.write(Path.of("target", name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
  }

  private static Claimer.Result resultOf(Future<Claimer.Result> claim) {
    try {
      return claim.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
