package flashclaim.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The JIT is quiet once the last {@code answers} answers cost it less than {@code compileTime}
 * of compiling; never before that many answers, however idle it is.
 */
class JitQuietTest {
  private final AtomicLong answered = new AtomicLong();
  private final AtomicLong compileMillis = new AtomicLong();
  private final JitQuiet jit =
      new JitQuiet(200, Duration.ofMillis(20), answered::get, compileMillis::get);

  /** {@code answers} more answers, the JIT compiling for {@code compiling} ms meanwhile. */
  private boolean step(int answers, long compiling) {
    compileMillis.addAndGet(compiling);
    answered.addAndGet(answers);
    return jit.check();
  }

  @Test
  void quietOnceEnoughAnswersCostLittleCompiling() {
    assertThat(jit.check()).isFalse();
    for (int i = 0; i < 9; i++) {
      assertThat(step(20, 0)).as("fewer than 200 answers since the first check").isFalse();
    }
    assertThat(step(20, 0)).as("200 answers, no compiling").isTrue();
  }

  @Test
  void notQuietWhileTheAnswersStillMakeItCompile() {
    jit.check();
    for (int i = 0; i < 40; i++) {
      // 3 ms per 20 answers: 30 ms per 200, above the 20 ms
      assertThat(step(20, 3)).isFalse();
    }
    // 1 ms per 20 answers from now on: quiet once the last 200 answers hold enough of those
    int steps = 1;
    while (!step(20, 1)) {
      steps++;
    }
    // the last 10 steps cost 30 - 2k ms after k such steps: below 20 from k = 6
    assertThat(steps).isEqualTo(6);
  }

  @Test
  void aSlowWarmUpIsNotQuietBeforeItsAnswers() {
    jit.check();
    for (int i = 0; i < 199; i++) {
      // one answer at a time and no compiling: idle, not warm
      assertThat(step(1, 0)).isFalse();
    }
    assertThat(step(1, 0)).isTrue();
  }
}
