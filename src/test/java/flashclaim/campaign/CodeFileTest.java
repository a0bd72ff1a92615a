package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.InvalidInputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How {@link CodeFile} reads both formats: line numbers, blank lines, a byte-order mark, CRLF and
 * CR, quoted CSV fields, rows without the code column, lines over the limit (kept to the limit,
 * also a row of commas alone) and a header without a code column.
 */
class CodeFileTest {
  private static final int LIMIT = 40;

  private static List<String> read(String text, CodeFile.Format format) throws IOException {
    return read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), format);
  }

  /** Each entry as {@code line:code} or {@code line!reason}. */
  private static List<String> read(InputStream in, CodeFile.Format format) throws IOException {
    CodeFile file = CodeFile.of(in, format, LIMIT);
    List<String> entries = new ArrayList<>();
    for (CodeFile.Entry e = file.next(); e != null; e = file.next()) {
      entries.add(
          e instanceof CodeFile.Code code
              ? e.line() + ":" + code.code().value()
              : e.line() + "!" + ((CodeFile.Invalid) e).reason());
    }
    return entries;
  }

  @Test
  void linesWithBomCrlfCrBlanksAndWhiteSpace() throws IOException {
    String text = "\uFEFFA1\r\n  A2  \r\n\r\n\tA3\rA4\n\n   \nA5";

    assertThat(read(text, CodeFile.Format.LINES))
        .containsExactly("1:A1", "2:A2", "4:A3", "5:A4", "8:A5");
  }

  @Test
  void invalidLinesAreReportedWithTheirNumbers() throws IOException {
    String text = "ok-1\nnot ok\n" + "x".repeat(LIMIT + 1) + "\n-dash\nok-2\n";

    List<String> entries = read(text, CodeFile.Format.LINES);

    assertThat(entries).hasSize(5);
    assertThat(entries.get(0)).isEqualTo("1:ok-1");
    assertThat(entries.get(1)).startsWith("2!a coupon code must be");
    assertThat(entries.get(2)).isEqualTo("3!longer than " + LIMIT + " characters");
    assertThat(entries.get(3)).startsWith("4!a coupon code must be");
    assertThat(entries.get(4)).isEqualTo("5:ok-2");
  }

  @Test
  void csvTakesTheCodeColumnWithQuotesAndIgnoresTheOthers() throws IOException {
    String text =
        "\uFEFFname,\"Code\",note\r\n"
            + "first,C1,plain\r\n"
            + "\"second, with comma\",\"C2\",\"say \"\"hi\"\"\"\r\n"
            + ",,\r\n"
            + "\"third\nspans two lines\", C3 ,x\r\n"
            + "only-one-field\r\n"
            + "fourth,,x\r\n"
            + "fifth,C5\r\n";

    List<String> entries = read(text, CodeFile.Format.CSV);

    assertThat(entries.get(0)).isEqualTo("2:C1");
    assertThat(entries.get(1)).isEqualTo("3:C2");
    assertThat(entries.get(2)).isEqualTo("5:C3");
    assertThat(entries.get(3))
        .isEqualTo("7!no 'code' column: the row has 1 field(s), the code is field 2");
    assertThat(entries.get(4)).startsWith("8!a coupon code must be");
    assertThat(entries.get(5)).isEqualTo("9:C5");
    assertThat(entries).hasSize(6);
  }

  @Test
  void overlongCsvRowsAndUnclosedQuotesAreInvalid() throws IOException {
    String text = "code\n" + ",".repeat(1_000_000) + "\nC1\n\"C2\n";

    assertThat(read(text, CodeFile.Format.CSV))
        .containsExactly(
            "2!longer than " + LIMIT + " characters",
            "3:C1",
            "4!a quoted field is not closed before the end of the file");
  }

  @Test
  void aCsvHeaderWithoutCodeIsRefused() {
    assertThatThrownBy(() -> read("\n\nname,coupon\nA,B\n", CodeFile.Format.CSV))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("line 3");
  }

  @Test
  void emptyFilesHoldNothing() throws IOException {
    assertThat(read("", CodeFile.Format.LINES)).isEmpty();
    assertThat(read("\uFEFF\r\n\n", CodeFile.Format.CSV)).isEmpty();
    assertThat(read("code\r\n", CodeFile.Format.CSV)).isEmpty();
  }

  @Test
  void malformedUtf8IsAnInvalidCode() throws IOException {
    byte[] bytes = {'A', (byte) 0xC3, '\n', 'B', '\n'};

    List<String> entries = read(new ByteArrayInputStream(bytes), CodeFile.Format.LINES);

    assertThat(entries.get(0)).startsWith("1!a coupon code must be");
    assertThat(entries.get(1)).isEqualTo("2:B");
  }
}
