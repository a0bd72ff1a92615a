package flashclaim.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.Claimer;
import flashclaim.testing.HeadlessChromium;
import flashclaim.testing.ServiceInstance;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard end to end in a real headless Chromium (Debian's {@code chromium} and {@code
 * chromium-driver}): it loads without a token, refuses a forged and a non-admin token with a
 * readable error, signs in with an admin token, shows a campaign's stock, and its numbers and its
 * chart move to the exact new values while claims arrive through the API. Waits are bounded
 * {@link WebDriverWait}s on the page's own text, never sleeps.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final int COUPONS = 50;

  private ServiceInstance service;
  private HeadlessChromium chromium;
  private WebDriver browser;

  @BeforeAll
  void start() throws IOException {
    TestEmulator.reset();
    service = ServiceInstance.start(Map.of("flashclaim.claim.deadline", "30s"));
    chromium = HeadlessChromium.start(1200, 1000);
    browser = chromium.browser();
  }

  @AfterAll
  void stop() throws IOException {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      if (service != null) {
        service.close();
      }
    }
  }

  @Test
  void showsTheCampaignAndItsNumbersMoveWhileClaimsArrive() throws Exception {
    Api.createCampaign(service.url(), "browser-sale", 1, COUPONS);
    browser.get(service.url().resolve("/dashboard/").toString());
    visible("sign-in-panel");

    // Refused tokens: readable errors, still signed out.
    signIn(Tokens.mint("admin", List.of("admin"), Duration.ofHours(1), "forged-secret-not-the-services-0123456789abcdef"));
    assertThat(waitForText("error", "(401)")).contains("Not signed in");
    signIn(Tokens.user("alice"));
    assertThat(waitForText("error", "(403)")).contains("no admin role");
    assertThat(element("app").isDisplayed()).isFalse();
    assertThat(sessionToken()).isNull();

    signIn(Tokens.admin());
    visible("app");
    assertThat(element("error").isDisplayed()).isFalse();

    // An unknown campaign: a readable 404.
    show("no-such-campaign");
    assertThat(waitForText("error", "(404)")).contains("no-such-campaign");

    show("browser-sale");
    waitForNumbers(Map.of("total", "50", "assigned", "0", "remaining", "50", "outcome-claimed", "0"));
    assertThat(element("campaign-name").getText()).isEqualTo("browser-sale");
    assertThat(element("error").isDisplayed()).isFalse();

    // 7 users claim, one of them twice: the page moves to the exact new values.
    for (int i = 0; i < 7; i++) {
      assertThat(claim("early-" + i)).isEqualTo(201);
    }
    assertThat(claim("early-0")).isEqualTo(200);
    waitForNumbers(
        Map.of(
            "total", "50",
            "assigned", "7",
            "remaining", "43",
            "outcome-claimed", "7",
            "outcome-already-held", "1",
            "outcome-sold-out", "0"));
    new WebDriverWait(browser, WAIT)
        .withMessage("this instance's claims per second never showed the claims")
        .until(d -> !List.of("–", "0.0").contains(element("instance-rate").getText()));

    // The rest of the pool is claimed by 4 concurrent clients while the page polls; then two late
    // users are told "sold out".
    ExecutorService users = Executors.newFixedThreadPool(4);
    try {
      List<Future<Claimer.Result>> results = new ArrayList<>();
      for (int i = 0; i < COUPONS - 7; i++) {
        String user = "user-" + i;
        results.add(users.submit(() -> Claimer.claimUntilFinal(service.url(), "browser-sale", user)));
      }
      for (Future<Claimer.Result> result : results) {
        assertThat(result.get(120, TimeUnit.SECONDS).status()).isEqualTo(201);
      }
    } finally {
      users.shutdownNow();
    }
    assertThat(claim("late-1")).isEqualTo(410);
    assertThat(claim("late-2")).isEqualTo(410);
    waitForNumbers(
        Map.of(
            "assigned", "50",
            "remaining", "0",
            "outcome-claimed", "50",
            "outcome-already-held", "1",
            "outcome-sold-out", "2"));

    // The chart's readings went from the full pool to empty, never up.
    @SuppressWarnings("unchecked")
    List<Number> remaining =
        (List<Number>)
            ((JavascriptExecutor) browser).executeScript("return series.map(p => p.remaining);");
    assertThat(remaining.get(0).intValue()).isEqualTo(50);
    assertThat(remaining.get(remaining.size() - 1).intValue()).isZero();
    assertThat(remaining).extracting(Number::intValue).contains(43).isSortedAccordingTo(Comparator.reverseOrder());
    Boolean drawn =
        (Boolean)
            ((JavascriptExecutor) browser)
                .executeScript(
                    "const c = document.getElementById('chart');"
                        + "const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                        + "for (let i = 3; i < px.length; i += 4) { if (px[i] !== 0) return true; }"
                        + "return false;");
    assertThat(drawn).as("the chart has been drawn").isTrue();
    // For a look at what the page showed (CI keeps target/ of a failed run).
    Files.write(
        Path.of("target", "dashboard-browser-test.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    // Sign out: back to the sign-in form, the token gone from the tab.
    element("sign-out").click();
    visible("sign-in-panel");
    assertThat(sessionToken()).isNull();
  }

  private int claim(String user) {
    return Api.post(service.url(), "/v1/campaigns/browser-sale/claims", Tokens.user(user), null).status();
  }

  private void signIn(String token) {
    WebElement field = element("token");
    field.clear();
    field.sendKeys(token);
    element("sign-in").click();
  }

  private void show(String campaign) {
    WebElement field = element("campaign-id");
    field.clear();
    field.sendKeys(campaign);
    element("show").click();
  }

  private Object sessionToken() {
    return ((JavascriptExecutor) browser)
        .executeScript("return sessionStorage.getItem('flashclaim.dashboard.token');");
  }

  private WebElement element(String id) {
    return browser.findElement(By.id(id));
  }

  private void visible(String id) {
    new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
  }

  /** Waits until the element's text contains {@code part}; returns the text. */
  private String waitForText(String id, String part) {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "#" + id + " never contained '" + part + "': '" + element(id).getText() + "'")
        .until(d -> element(id).getText().contains(part));
    return element(id).getText();
  }

  /** Waits until every element shows exactly its expected text, all in the same rendering. */
  private void waitForNumbers(Map<String, String> expected) {
    new WebDriverWait(browser, WAIT)
        .withMessage(() -> "the page never showed " + expected + "; it shows " + shown(expected))
        .until(d -> shown(expected).equals(expected));
  }

  private Map<String, String> shown(Map<String, String> ids) {
    Map<String, String> shown = new java.util.TreeMap<>();
    ids.keySet().forEach(id -> shown.put(id, element(id).getText()));
    return shown;
  }
}
