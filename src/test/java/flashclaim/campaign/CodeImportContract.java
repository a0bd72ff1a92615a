package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.testing.Concurrently;
import flashclaim.testing.MovableClock;
import flashclaim.testing.StoreContract;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link CodeImports} on the real store, run by a subclass per store with no service: a file with
 * duplicates (within one batch, across batches, already in the pool) and invalid lines is reported
 * exactly and stocks each code once; an import cut off mid-file fails, and repeating it adds
 * exactly the rest; imports of one file from every client at once stock it exactly once; and the
 * states are bounded (one running import per id, {@code max-running} at once, finished ones
 * forgotten after {@code retention} or when {@code max-kept} is reached).
 */
public abstract class CodeImportContract extends StoreContract {
  private static final int BATCH = 1_000;

  private final MovableClock clock = new MovableClock(Instant.parse("2030-01-01T00:00:00Z"));

  private CodeImports imports(int client, int maxRunning, int maxKept) {
    return new CodeImports(
        clients().campaignStore(client),
        clients().couponStore(client),
        new CodeImportConfig(BATCH, 100, maxRunning, maxKept, Duration.ofMinutes(10)),
        clock);
  }

  private CodeImports imports(int client) {
    return imports(client, 4, 100);
  }

  private static InputStream text(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String lines(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> prefix + i + "\n").collect(Collectors.joining());
  }

  private long stock(CampaignId campaign) {
    return clients().couponStore(1).stock(campaign).total();
  }

  private static CodeImports.Report done(CodeImports.Outcome outcome) {
    assertThat(outcome).isInstanceOf(CodeImports.Outcome.Done.class);
    return ((CodeImports.Outcome.Done) outcome).report();
  }

  /**
   * 2,500 new codes in three batches, 300 of them twice (in the same batch and in a later one), 50
   * already in the pool, 150 invalid lines of which the first 100 are listed, and blank lines.
   */
  @Test
  void duplicatesAreSkippedAndInvalidLinesReportedExactly() throws IOException {
    CampaignId campaign = newCampaign(1, 0).id();
    clients().couponStore(0).add(campaign, List.of(new CouponCode("P0"), new CouponCode("P1")));
    StringBuilder file = new StringBuilder();
    for (int i = 0; i < 2_500; i++) {
      file.append("F").append(i).append('\n');
      if (i % 50 == 0) {
        file.append("\n  \n"); // blank: not counted
      }
      if (i < 150) {
        file.append("bad code ").append(i).append('\n');
      }
      if (i >= 1_000 && i < 1_300) {
        file.append("F").append(i - 1_000).append('\n'); // given again in a later batch
        file.append("F").append(i).append('\n'); // given again in the same batch
      }
      if (i < 2) {
        file.append("P").append(i).append('\n'); // already in the pool
      }
    }
    ImportId id = new ImportId("contract-1");

    CodeImports.Report report =
        done(imports(0).run(campaign, id, text(file.toString()), CodeFile.Format.LINES));

    CodeImports.Progress counts = report.progress();
    assertThat(counts)
        .isEqualTo(
            new CodeImports.Progress(
                id, CodeImports.State.DONE, 2_500 + 600 + 2 + 150, 2_500, 602, 150));
    assertThat(report.invalidLines()).hasSize(CodeImports.REPORTED_INVALID);
    // Line 1 is F0, then two blank lines, then the first bad line.
    assertThat(report.invalidLines().get(0).line()).isEqualTo(4);
    assertThat(report.invalidLines().get(0).reason()).startsWith("a coupon code must be");
    assertThat(stock(campaign)).isEqualTo(2_502);
    assertThat(imports(0).state(campaign, id)).isEmpty(); // another instance's memory
  }

  /** A CSV file: the code column only, quoted fields, rows without the column reported. */
  @Test
  void aCsvFileAddsItsCodeColumn() throws IOException {
    CampaignId campaign = newCampaign(1, 0).id();
    String csv = "\uFEFFpartner,code\r\nacme,\"Q1\"\r\n\"a, b\",Q2\r\nno-code\r\nacme,Q1\r\n";

    CodeImports.Report report =
        done(imports(1).run(campaign, new ImportId("csv"), text(csv), CodeFile.Format.CSV));

    assertThat(report.progress().added()).isEqualTo(2);
    assertThat(report.progress().skipped()).isEqualTo(1);
    assertThat(report.invalidLines())
        .containsExactly(
            new CodeImports.InvalidLine(
                4, "no 'code' column: the row has 1 field(s), the code is field 2"));
    assertThat(stock(campaign)).isEqualTo(2);
  }

  /**
   * The body breaks off after 2,300 of 5,000 lines: the import fails once the batch being written
   * has ended; the same file again adds exactly what is missing and skips what the first one added.
   */
  @Test
  void aFailedImportRepeatedAddsExactlyTheRest() throws IOException {
    CampaignId campaign = newCampaign(1, 0).id();
    String file = lines("R", 0, 5_000);
    byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
    int cut = lines("R", 0, 2_300).length();
    InputStream broken =
        new InputStream() {
          private int position;

          @Override
          public int read() throws IOException {
            if (position >= cut) {
              throw new IOException("connection reset");
            }
            return bytes[position++];
          }
        };
    ImportId id = new ImportId("resumed");
    CodeImports imports = imports(2);

    assertThatThrownBy(() -> imports.run(campaign, id, broken, CodeFile.Format.LINES))
        .isInstanceOf(IOException.class);

    CodeImports.Progress failed = imports.state(campaign, id).orElseThrow();
    assertThat(failed.state()).isEqualTo(CodeImports.State.FAILED);
    assertThat(failed.lines()).isEqualTo(2_300);
    long addedBefore = stock(campaign);
    assertThat(failed.added()).isEqualTo(addedBefore);
    assertThat(addedBefore).isBetween((long) BATCH, 2_300L);

    CodeImports.Report again =
        done(imports.run(campaign, id, text(file), CodeFile.Format.LINES));

    assertThat(again.progress().added()).isEqualTo(5_000 - addedBefore);
    assertThat(again.progress().skipped()).isEqualTo(addedBefore);
    assertThat(stock(campaign)).isEqualTo(5_000);
    assertThat(imports.state(campaign, id).orElseThrow().state()).isEqualTo(CodeImports.State.DONE);
  }

  /** The same 3,000-line file imported from every client at once: each code stocked once. */
  @Test
  void concurrentImportsOfOneFileStockEachCodeOnce() throws Exception {
    CampaignId campaign = newCampaign(1, 0).id();
    String file = lines("K", 0, 3_000);

    List<CodeImports.Report> reports =
        Concurrently.run(
            CLIENTS,
            i ->
                () ->
                    done(
                        imports(i)
                            .run(
                                campaign,
                                new ImportId("same-" + i),
                                text(file),
                                CodeFile.Format.LINES)));

    assertThat(reports.stream().mapToLong(r -> r.progress().added()).sum()).isEqualTo(3_000);
    assertThat(reports.stream().mapToLong(r -> r.progress().skipped()).sum())
        .isEqualTo(3_000L * (CLIENTS - 1));
    assertThat(stock(campaign)).isEqualTo(3_000);
  }

  /**
   * While an import waits for its body: its state says running with the lines read so far; the same
   * id is refused, and so is one more import than {@code max-running}; an unknown campaign is
   * answered without reading. Finished states are forgotten after {@code retention}, and the
   * oldest finished one when {@code max-kept} are kept.
   */
  @Test
  void importStatesAreBounded() throws Exception {
    CampaignId campaign = newCampaign(1, 0).id();
    CodeImports imports = imports(0, 1, 2);
    PipedOutputStream writer = new PipedOutputStream();
    PipedInputStream body = new PipedInputStream(writer, 1 << 16);
    ImportId held = new ImportId("held");
    CompletableFuture<CodeImports.Outcome> running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return imports.run(campaign, held, body, CodeFile.Format.LINES);
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    writer.write(lines("H", 0, 10).getBytes(StandardCharsets.UTF_8));
    writer.flush();
    CodeImports.Progress seen = awaitLines(imports, campaign, held, 10);
    assertThat(seen.state()).isEqualTo(CodeImports.State.RUNNING);

    assertThat(imports.run(campaign, held, text("X1\n"), CodeFile.Format.LINES))
        .isInstanceOf(CodeImports.Outcome.AlreadyRunning.class);
    assertThat(imports.run(campaign, new ImportId("other"), text("X1\n"), CodeFile.Format.LINES))
        .isInstanceOf(CodeImports.Outcome.Busy.class);
    InputStream unread =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("read the body of an import into an unknown campaign");
          }
        };
    assertThat(
            imports.run(
                new CampaignId("no-such-campaign"), held, unread, CodeFile.Format.LINES))
        .isInstanceOf(CodeImports.Outcome.UnknownCampaign.class);

    writer.close();
    assertThat(done(running.get()).progress().added()).isEqualTo(10);
    done(imports.run(campaign, new ImportId("second"), text("S1\n"), CodeFile.Format.LINES));
    done(imports.run(campaign, new ImportId("third"), text("T1\n"), CodeFile.Format.LINES));
    assertThat(imports.state(campaign, held)).isEmpty(); // the oldest of max-kept 2
    assertThat(imports.state(campaign, new ImportId("second"))).isPresent();

    clock.move(Duration.ofMinutes(10));
    assertThat(imports.state(campaign, new ImportId("third"))).isEmpty();
  }

  private static CodeImports.Progress awaitLines(
      CodeImports imports, CampaignId campaign, ImportId id, long lines) {
    for (int i = 0; i < 3_000; i++) {
      CodeImports.Progress progress = imports.state(campaign, id).orElse(null);
      if (progress != null && progress.lines() >= lines) {
        return progress;
      }
      Concurrently.sleep(10);
    }
    throw new AssertionError("the import did not read " + lines + " lines within 30 s");
  }
}
