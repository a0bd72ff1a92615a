package flashclaim.store.firestore.warmup;

import com.google.cloud.firestore.Firestore;
import flashclaim.store.firestore.FirestoreConfig;
import flashclaim.store.firestore.FirestoreFactory;
import flashclaim.campaign.CampaignId;
import io.grpc.ClientInterceptor;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Warms a campaign's {@code claims} collection before its sale ({@link WarmUp}); run by {@code
 * bin/warm-up}:
 *
 * <pre>java -cp flashclaim.jar flashclaim.store.firestore.warmup.WarmUpMain --campaign ID --target-rate N</pre>
 *
 * The Firestore client is the service's ({@link FirestoreFactory}): the emulator at {@code
 * FIRESTORE_EMULATOR_HOST} when set, else the project with Application Default Credentials.
 * Exit status: 0 done, 1 more than {@link #MAX_ERROR_FRACTION} of the writes failed or documents
 * are left, 2 refused (options, or a campaign that cannot be warmed).
 */
public final class WarmUpMain {
  static final String PROJECT_ENV = "GOOGLE_CLOUD_PROJECT";
  static final String EMULATOR_HOST_ENV = "FIRESTORE_EMULATOR_HOST";

  /** The fraction of failed writes above which the warm-up counts as failed. */
  static final double MAX_ERROR_FRACTION = 0.01;

  static final String USAGE =
      """
      usage: bin/warm-up --campaign ID --target-rate N [options]
      Writes synthetic traffic into campaigns/ID/claims before the campaign opens, ramping up as
      Firestore advises (500/50/5): each write creates or deletes a document with a random 64-hex
      id (the key range of claim records) holding warmUp: true; the collection ends empty.
        --project P        Google Cloud project (default: $GOOGLE_CLOUD_PROJECT)
        --campaign ID      the campaign; it must exist, open later (startsAt) and have no claims
        --target-rate N    writes per second to reach (about the planned claims per second)
        --start-rate N     writes per second of the first step (default 500)
        --growth F         factor from one step to the next, above 1, at most 1.5 (default 1.5)
        --step D           duration of each step, at least 1s (default 5m)
        --hold D           duration at the target rate at the end (default: one step)
      Durations: 300s, 5m, 1h. FIRESTORE_EMULATOR_HOST (host:port) selects an emulator; else
      Application Default Credentials are used. Ctrl-C stops and deletes what was written.
      Exit status: 0 done, 1 too many failed writes or documents left, 2 refused.""";

  private WarmUpMain() {}

  /**
   * What the command line asks for.
   *
   * @param project the Google Cloud project
   * @param campaign the campaign to warm
   * @param schedule the ramp
   */
  record Options(String project, CampaignId campaign, WarmUpSchedule schedule) {

    /**
     * Reads the options.
     *
     * @throws IllegalArgumentException with one line saying what is wrong
     */
    static Options parse(String[] args, Map<String, String> env) {
      String project = env.get(PROJECT_ENV);
      String campaign = null;
      Long target = null;
      long start = 500;
      double growth = WarmUpSchedule.MAX_GROWTH;
      Duration step = Duration.ofMinutes(5);
      Duration hold = null;
      for (int i = 0; i < args.length; i++) {
        String option = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(
              option.startsWith("--") ? option + " needs a value" : "unknown argument " + option);
        }
        String value = args[++i];
        switch (option) {
          case "--project" -> project = value;
          case "--campaign" -> campaign = value;
          case "--target-rate" -> target = number(option, value);
          case "--start-rate" -> start = number(option, value);
          case "--growth" -> growth = factor(option, value);
          case "--step" -> step = duration(option, value);
          case "--hold" -> hold = duration(option, value);
          default -> throw new IllegalArgumentException("unknown option " + option);
        }
      }
      if (project == null || project.isBlank()) {
        throw new IllegalArgumentException("--project is required (or " + PROJECT_ENV + ")");
      }
      if (campaign == null) {
        throw new IllegalArgumentException("--campaign is required");
      }
      if (target == null) {
        throw new IllegalArgumentException("--target-rate is required");
      }
      CampaignId id;
      try {
        id = new CampaignId(campaign);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("--campaign: " + e.getMessage());
      }
      return new Options(
          project, id, new WarmUpSchedule(start, growth, step, target, hold == null ? step : hold));
    }

    private static long number(String option, String value) {
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " must be a whole number, not " + value);
      }
    }

    private static double factor(String option, String value) {
      try {
        return Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + " must be a number, not " + value);
      }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    private static Duration duration(String option, String value) {
      Matcher m = DURATION.matcher(value);
      if (!m.matches()) {
        throw new IllegalArgumentException(
            option + " must be a duration like 300s, 5m or 1h, not " + value);
      }
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      };
    }
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println(USAGE);
      return;
    }
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch finished = new CountDownLatch(1);
    // Ctrl-C: the JVM exits once this hook returns, so it waits for the deletes of the warm-up.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stop.set(true);
                  try {
                    finished.await(2, TimeUnit.MINUTES);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }));
    int status;
    try {
      status = run(args, System.getenv(), System.out, System.err, stop::get, List.of());
    } finally {
      finished.countDown();
    }
    System.exit(status);
  }

  /** Runs the command; returns its exit status. */
  static int run(
      String[] args,
      Map<String, String> env,
      PrintStream out,
      PrintStream err,
      BooleanSupplier stop,
      List<ClientInterceptor> interceptors) {
    Options options;
    try {
      options = Options.parse(args, env);
    } catch (IllegalArgumentException e) {
      err.println("warm-up: " + e.getMessage() + " (--help for usage)");
      return 2;
    }
    WarmUp.Outcome outcome;
    try (Firestore db = client(options.project(), env, interceptors)) {
      outcome = warmUp(db, options, out, stop);
    } catch (IllegalArgumentException e) {
      err.println("warm-up: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("warm-up: " + e.getMessage());
      return 1;
    }
    if (outcome instanceof WarmUp.Outcome.Refused refused) {
      err.println("warm-up: refused: " + refused.reason());
    }
    return status(outcome);
  }

  /** Warms the campaign up as the options say. */
  static WarmUp.Outcome warmUp(Firestore db, Options options, PrintStream out, BooleanSupplier stop) {
    return new WarmUp(db, out).run(options.campaign(), options.schedule(), stop);
  }

  /** The exit status of an outcome. */
  static int status(WarmUp.Outcome outcome) {
    if (outcome instanceof WarmUp.Outcome.Ran ran) {
      long writes = ran.writes() + ran.cleanupWrites();
      boolean tooManyErrors = ran.errors() > MAX_ERROR_FRACTION * Math.max(1, writes);
      return tooManyErrors || ran.left() > 0 ? 1 : 0;
    }
    return 2;
  }

  /**
   * The service's Firestore client for {@code project}: against {@code FIRESTORE_EMULATOR_HOST}
   * when set, else with Application Default Credentials; a {@code demo-} project without an
   * emulator host is refused, as the service refuses it without its embedded emulator.
   */
  static Firestore client(String project, Map<String, String> env, List<ClientInterceptor> interceptors) {
    FirestoreConfig config =
        new FirestoreConfig(
            project, env.get(EMULATOR_HOST_ENV), "auto", null, 0, null, null, WarmUp.CALL_TIMEOUT);
    if (config.wantsEmbeddedEmulator()) {
      throw new IllegalArgumentException(
          "project " + project + " is a local (demo-) project: set " + EMULATOR_HOST_ENV);
    }
    return new FirestoreFactory().firestore(config, Optional.empty(), interceptors);
  }

  /** A duration for people: 5m, 90s, 1h30m. */
  static String format(Duration d) {
    long s = d.toSeconds();
    StringBuilder text = new StringBuilder();
    if (s >= 3600) {
      text.append(s / 3600).append('h');
    }
    if (s % 3600 >= 60) {
      text.append(s % 3600 / 60).append('m');
    }
    if (s % 60 > 0 || text.length() == 0) {
      text.append(s % 60).append('s');
    }
    return text.toString();
  }
}
