package flashclaim.campaign;

import flashclaim.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Coupon codes read from a file as it streams in, one entry at a time, holding at most one line.
 * The file is UTF-8 (a byte-order mark is dropped, a malformed byte becomes U+FFFD and so an
 * invalid code); lines end with LF, CRLF or CR; blank lines are skipped.
 *
 * <ul>
 *   <li>{@link Format#LINES}: one code per line, surrounding white space ignored.
 *   <li>{@link Format#CSV}: RFC 4180 rows, the first non-blank one a header that names a {@code
 *       code} column (in any case); the other columns are ignored. A field may be quoted, with
 *       {@code ""} for a quote and line ends inside it; unquoted fields are stripped of white space.
 *       A row of empty fields only counts as blank.
 * </ul>
 *
 * <p>A line (a row, with its quoted line ends) longer than {@code maxLineLength} characters is
 * invalid and not kept: the rest of it is read and dropped. Line numbers count the physical lines
 * of the file from 1, the header included; an entry has the number of the line it starts on.
 */
public final class CodeFile {

  /** How the codes are laid out. */
  public enum Format {
    LINES,
    CSV
  }

  /** What one line of the file holds. */
  public sealed interface Entry {
    long line();
  }

  /** A valid code. */
  public record Code(long line, CouponCode code) implements Entry {}

  /** A line that holds no valid code, and why. */
  public record Invalid(long line, String reason) implements Entry {}

  private static final String CODE_COLUMN = "code";
  private static final int NO_COLUMN = -1;

  private final Reader in;
  private final Format format;
  private final int maxLineLength;
  private final char[] buffer = new char[8192];
  private int position;
  private int limit;
  private boolean started;
  /** The physical line of the next character. */
  private long line = 1;
  private int codeColumn = NO_COLUMN;

  private CodeFile(InputStream in, Format format, int maxLineLength) {
    this.in =
        new InputStreamReader(
            in,
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE));
    this.format = format;
    this.maxLineLength = maxLineLength;
  }

  /** Reads {@code in} in {@code format}; lines longer than {@code maxLineLength} are invalid. */
  public static CodeFile of(InputStream in, Format format, int maxLineLength) {
    if (maxLineLength < 1) {
      throw new IllegalArgumentException("maxLineLength must be at least 1");
    }
    return new CodeFile(in, format, maxLineLength);
  }

  /**
   * The next entry, or null at the end of the file.
   *
   * @throws InvalidInputException when a CSV file's header has no {@code code} column
   * @throws IOException when the stream fails
   */
  public Entry next() throws IOException {
    while (true) {
      Row row = readRow();
      if (row == null) {
        return null;
      }
      if (row.blank()) {
        continue;
      }
      if (format == Format.CSV && codeColumn == NO_COLUMN) {
        codeColumn = codeColumn(row);
        continue;
      }
      return entry(row);
    }
  }

  private Entry entry(Row row) {
    if (row.tooLong()) {
      return new Invalid(row.line(), "longer than " + maxLineLength + " characters");
    }
    if (row.unterminated()) {
      return new Invalid(row.line(), "a quoted field is not closed before the end of the file");
    }
    String value;
    if (format == Format.CSV) {
      if (row.fields().size() <= codeColumn) {
        return new Invalid(
            row.line(),
            "no 'code' column: the row has "
                + row.fields().size()
                + " field(s), the code is field "
                + (codeColumn + 1));
      }
      value = row.fields().get(codeColumn);
    } else {
      value = row.fields().get(0);
    }
    try {
      return new Code(row.line(), new CouponCode(value));
    } catch (InvalidInputException e) {
      return new Invalid(row.line(), e.getMessage());
    }
  }

  private int codeColumn(Row header) {
    if (!header.tooLong() && !header.unterminated()) {
      for (int i = 0; i < header.fields().size(); i++) {
        if (header.fields().get(i).equalsIgnoreCase(CODE_COLUMN)) {
          return i;
        }
      }
    }
    throw new InvalidInputException(
        null,
        "the CSV header (line "
            + header.line()
            + ") must name a 'code' column; send one code per line as text/plain instead");
  }

  /** One row as read: its fields (one for {@link Format#LINES}), unless it was too long. */
  private record Row(long line, List<String> fields, boolean tooLong, boolean unterminated) {
    boolean blank() {
      return !tooLong && !unterminated && fields.stream().allMatch(String::isEmpty);
    }
  }

  /** Reads one row, up to and including its line end; null at the end of the file. */
  private Row readRow() throws IOException {
    long start = line;
    boolean csv = format == Format.CSV;
    List<String> fields = new ArrayList<>(csv ? 4 : 1);
    StringBuilder field = new StringBuilder();
    boolean quoted = false; // inside a quoted field
    boolean wasQuoted = false; // the current field was quoted: taken as is
    boolean any = false;
    int length = 0;
    while (true) {
      int c = read();
      if (c < 0) {
        if (!any) {
          return null;
        }
        fields.add(value(field, wasQuoted));
        return new Row(start, fields, length > maxLineLength, quoted);
      }
      any = true;
      if (quoted) {
        if (c == '"') {
          if (peek() == '"') {
            read();
          } else {
            quoted = false;
            continue;
          }
        } else if (c == '\r' || c == '\n') {
          lineEnd(c);
        }
      } else if (c == '\r' || c == '\n') {
        lineEnd(c);
        fields.add(value(field, wasQuoted));
        return new Row(start, fields, length > maxLineLength, false);
      } else if (csv && c == ',') {
        length++;
        if (length <= maxLineLength) { // a row of commas alone keeps no more than its limit
          fields.add(value(field, wasQuoted));
        }
        field.setLength(0);
        wasQuoted = false;
        continue;
      } else if (csv && c == '"' && field.toString().isBlank()) {
        field.setLength(0);
        quoted = true;
        wasQuoted = true;
        continue;
      }
      length++;
      if (length <= maxLineLength) {
        field.append((char) c);
      }
    }
  }

  private static String value(StringBuilder field, boolean quoted) {
    return quoted ? field.toString() : field.toString().strip();
  }

  /** Counts a line end; a CR followed by LF is one. */
  private void lineEnd(int c) throws IOException {
    if (c == '\r' && peek() == '\n') {
      read();
    }
    line++;
  }

  private int read() throws IOException {
    int c = peek();
    if (c >= 0) {
      position++;
    }
    return c;
  }

  private int peek() throws IOException {
    while (position >= limit) {
      int n = in.read(buffer, 0, buffer.length);
      if (n < 0) {
        return -1;
      }
      position = 0;
      limit = n;
      if (!started) {
        started = true;
        if (n > 0 && buffer[0] == '\uFEFF') {
          position = 1;
        }
      }
    }
    return buffer[position];
  }
}
