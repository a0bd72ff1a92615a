package flashclaim.testing;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A process of the test machine stopped with SIGSTOP, as a store that stops answering without
 * closing its connections; closing the pause continues it (SIGCONT).
 */
public final class Paused implements AutoCloseable {
  private final long pid;
  private boolean continued;

  private Paused(long pid) {
    this.pid = pid;
  }

  /** Stops the process {@code pid} until the pause is closed. */
  public static Paused process(long pid) {
    signal("STOP", pid);
    return new Paused(pid);
  }

  @Override
  public synchronized void close() {
    if (!continued) {
      continued = true;
      signal("CONT", pid);
    }
  }

  private static void signal(String signal, long pid) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("kill -" + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
