package flashclaim.testing;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

/**
 * A file of {@code count} lines made as it is read, 1,000 lines at a time, so that a test or a
 * benchmark can upload a large file without holding it; a hook runs once, when line {@code hookAt}
 * is about to be made.
 */
public final class GeneratedLines extends InputStream {
  private final int count;
  private final IntFunction<String> line;
  private final int hookAt;
  private final Runnable hook;
  private int next;
  private byte[] current = new byte[0];
  private int position;

  public GeneratedLines(int count, IntFunction<String> line, int hookAt, Runnable hook) {
    this.count = count;
    this.line = line;
    this.hookAt = hookAt;
    this.hook = hook;
  }

  public GeneratedLines(int count, IntFunction<String> line) {
    this(count, line, -1, () -> {});
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] into, int offset, int length) {
    if (length == 0) {
      return 0;
    }
    if (position >= current.length) {
      if (next >= count) {
        return -1;
      }
      if (next == hookAt) {
        hook.run();
      }
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 1_000 && next < count; i++) {
        lines.append(line.apply(next++)).append('\n');
      }
      current = lines.toString().getBytes(StandardCharsets.UTF_8);
      position = 0;
    }
    int n = Math.min(length, current.length - position);
    System.arraycopy(current, position, into, offset, n);
    position += n;
    return n;
  }
}
