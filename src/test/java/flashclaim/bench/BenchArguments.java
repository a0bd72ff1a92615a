package flashclaim.bench;

import java.util.HashMap;
import java.util.Map;

/**
 * The command line of a benchmark: {@code name=value} or {@code --name=value}; a bare name is
 * true.
 */
final class BenchArguments {
  private BenchArguments() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> given = new HashMap<>();
    for (String arg : args) {
      String[] kv = arg.replaceFirst("^--", "").split("=", 2);
      given.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    return given;
  }

  /** Prints the first line of a benchmark's output: when, on what machine, which store and command. */
  static void printBanner(String benchmark, String store, String[] args) {
    System.out.printf(
        "%s, %d cores, Java %s, store %s, command: %s %s%n",
        java.time.Instant.now(), Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), store, benchmark, String.join(" ", args));
  }
}
