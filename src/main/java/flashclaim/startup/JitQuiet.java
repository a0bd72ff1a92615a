package flashclaim.startup;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.LongSupplier;

/**
 * Whether the JIT compiler has settled on the traffic the warm-up sends: its last {@code answers}
 * answered requests cost the compiler threads less than {@code compileTime} of compiling. Code
 * that more of the same requests still make the JIT compile is not warm yet; once they make it
 * compile next to nothing, the instance answers them at the speed it will keep. Counted by
 * answers rather than by time, so that a warm-up slowed by busy cores is not taken for a quiet one
 * (fewer requests a second reach the compile thresholds later, and compile less a second).
 *
 * <p>{@link #check} is called from one thread.
 */
final class JitQuiet {
  private final long answers;
  private final long compileMillis;
  private final LongSupplier answered;
  private final LongSupplier compiled;
  /** The checks since the last one at least {@code answers} answers ago, oldest first. */
  private final Deque<Sample> samples = new ArrayDeque<>();

  /**
   * @param answered the warm-up's requests answered so far
   * @param compiled the compiler threads' time spent compiling so far, in milliseconds (the JVM's
   *     {@code CompilationMXBean.getTotalCompilationTime})
   */
  JitQuiet(long answers, Duration compileTime, LongSupplier answered, LongSupplier compiled) {
    this.answers = answers;
    this.compileMillis = compileTime.toMillis();
    this.answered = answered;
    this.compiled = compiled;
  }

  /**
   * Notes the JIT's time so far, and tells whether it is quiet: since the latest check at least
   * {@code answers} answers ago, it compiled for less than {@code compileTime}.
   */
  boolean check() {
    Sample now = new Sample(answered.getAsLong(), compiled.getAsLong());
    samples.addLast(now);
    // Keep the latest check that is at least {@code answers} answers old, and those after it.
    while (samples.size() > 2) {
      Iterator<Sample> oldest = samples.iterator();
      oldest.next();
      if (now.answers() - oldest.next().answers() < answers) {
        break;
      }
      samples.removeFirst();
    }
    Sample start = samples.peekFirst();
    return now.answers() - start.answers() >= answers
        && now.compileMillis() - start.compileMillis() < compileMillis;
  }

  private record Sample(long answers, long compileMillis) {}
}
