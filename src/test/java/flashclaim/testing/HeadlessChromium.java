package flashclaim.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium for the page tests: Debian's {@code chromium} and {@code
 * chromium-driver}, given explicitly so that Selenium Manager never looks for (or downloads)
 * either, with a profile of its own that is deleted on close.
 */
public final class HeadlessChromium implements AutoCloseable {
  public static final String BINARY = envOr("CHROMIUM_BINARY", "/usr/bin/chromium");
  public static final String DRIVER = envOr("CHROMEDRIVER", "/usr/bin/chromedriver");

  private final ChromeDriverService service;
  private final WebDriver browser;
  private final Path profile;

  private HeadlessChromium(ChromeDriverService service, WebDriver browser, Path profile) {
    this.service = service;
    this.browser = browser;
    this.profile = profile;
  }

  /** Starts a desktop browser whose windows are {@code width} x {@code height} CSS pixels. */
  public static HeadlessChromium start(int width, int height) throws IOException {
    return start(width, height, new ChromeOptions());
  }

  /** As {@link #start(int, int)}, saving what its pages download into {@code downloads}. */
  public static HeadlessChromium withDownloads(int width, int height, Path downloads)
      throws IOException {
    ChromeOptions options = new ChromeOptions();
    options.setExperimentalOption(
        "prefs",
        Map.of(
            "download.default_directory", downloads.toAbsolutePath().toString(),
            "download.prompt_for_download", false));
    return start(width, height, options);
  }

  /**
   * Starts a browser that shows pages as a phone of {@code width} x {@code height} CSS pixels
   * does (Chromium's mobile emulation: a desktop window cannot be narrower than 500 pixels).
   */
  public static HeadlessChromium phone(int width, int height) throws IOException {
    ChromeOptions options = new ChromeOptions();
    options.setExperimentalOption(
        "mobileEmulation",
        Map.of("deviceMetrics", Map.of("width", width, "height", height, "pixelRatio", 2.0, "touch", true)));
    return start(width, height, options);
  }

  private static HeadlessChromium start(int width, int height, ChromeOptions options)
      throws IOException {
    for (String file : List.of(BINARY, DRIVER)) {
      if (!new File(file).canExecute()) {
        throw new IllegalStateException(
            file
                + " is missing: the browser tests need Debian's Chromium and its driver."
                + " Install them with `sudo apt-get install -y chromium chromium-driver` (.ci/run does"
                + " it in CI), or point CHROMIUM_BINARY and CHROMEDRIVER at another Chromium and"
                + " its matching chromedriver.");
      }
    }
    Path profile = Files.createTempDirectory("flashclaim-chromium-");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER))
            .usingAnyFreePort()
            .build();
    options.setBinary(BINARY);
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        // without these, Chromium's own connections are refused on a closed network
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        // pages in background tabs keep their timers (polls, countdowns, retries) running
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        "--window-size=" + width + "," + height,
        "--user-data-dir=" + profile);
    try {
      return new HeadlessChromium(service, new ChromeDriver(service, options), profile);
    } catch (RuntimeException e) {
      service.stop();
      deleteTree(profile);
      throw e;
    }
  }

  public WebDriver browser() {
    return browser;
  }

  @Override
  public void close() throws IOException {
    try {
      browser.quit();
    } finally {
      service.stop();
      deleteTree(profile);
    }
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  private static void deleteTree(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
