package flashclaim.campaign;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Imports of codes from a file into a campaign's pool, streamed: the file is read as it arrives
 * ({@link CodeFile}) and its codes are added in batches of {@code flashclaim.seeding.files.batch-size}
 * by {@link CouponStore#add}, one batch written while the next is read. An import holds about two
 * batches and the first {@value #REPORTED_INVALID} invalid lines, whatever the size of the file.
 *
 * <p>A code given twice, in the file or already in the pool, is skipped: {@link CouponStore#add} is
 * idempotent by code. So an import that failed (the client went away, the store failed) is repeated
 * as it is: what the first one added is skipped, the rest is added.
 *
 * <p>The state of each import is kept in this instance's memory only, for {@link #state}: at most
 * {@code max-kept} of them, each finished one for {@code retention}. In a fleet, the client asks
 * the instance that runs its import (the one its upload reached) for the state.
 */
@Singleton
public class CodeImports {
  /** How many invalid lines a report lists with their line numbers; all are counted. */
  public static final int REPORTED_INVALID = 100;

  private final CampaignStore campaigns;
  private final CouponStore coupons;
  private final CodeImportConfig config;
  private final Clock clock;
  private final ExecutorService writers;
  private final Map<Key, Tracked> imports = new LinkedHashMap<>();

  public CodeImports(
      CampaignStore campaigns, CouponStore coupons, CodeImportConfig config, Clock clock) {
    this.campaigns = campaigns;
    this.coupons = coupons;
    this.config = config;
    this.clock = clock;
    AtomicInteger n = new AtomicInteger();
    this.writers =
        Executors.newFixedThreadPool(
            config.maxRunning(),
            r -> {
              Thread t = new Thread(r, "code-import-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @PreDestroy
  void close() {
    writers.shutdownNow();
  }

  /** Where an import stands. */
  public enum State {
    RUNNING,
    DONE,
    FAILED
  }

  /**
   * An import's counts: {@code lines} read that are not blank (nor a CSV header), of which {@code
   * added} were new codes, {@code skipped} codes already in the pool or earlier in the file, and
   * {@code invalid} held no valid code. Once done, {@code lines = added + skipped + invalid}; while
   * running, {@code added} and {@code skipped} count the batches written so far.
   */
  public record Progress(
      ImportId id, State state, long lines, long added, long skipped, long invalid) {}

  /** A line without a valid code. */
  public record InvalidLine(long line, String reason) {}

  /** The end of an import: its counts and the first {@value #REPORTED_INVALID} invalid lines. */
  public record Report(Progress progress, List<InvalidLine> invalidLines) {}

  /** How an import ended, when it did not fail. */
  public sealed interface Outcome {
    /** The whole file was read and its codes added. */
    record Done(Report report) implements Outcome {}

    /** No campaign has the id; nothing was read. */
    record UnknownCampaign() implements Outcome {}

    /** An import with the same id into the campaign is running; nothing was read. */
    record AlreadyRunning() implements Outcome {}

    /** {@code max-running} imports are running on this instance; nothing was read. */
    record Busy() implements Outcome {}
  }

  /**
   * Reads {@code file} to its end and adds its codes to the campaign's pool, as import {@code id};
   * blocks until done. The campaign is looked up, and the import registered, before a byte is read.
   * A failure ends the import {@link State#FAILED} once the batch being written has ended, and is
   * thrown.
   *
   * @throws IOException when the file cannot be read to its end
   * @throws flashclaim.InvalidInputException when a CSV file's header names no {@code code} column
   * @throws flashclaim.StoreException when the store fails
   */
  public Outcome run(CampaignId campaign, ImportId id, InputStream file, CodeFile.Format format)
      throws IOException {
    if (campaigns.find(campaign).isEmpty()) {
      return new Outcome.UnknownCampaign();
    }
    Tracked tracked;
    synchronized (imports) {
      Optional<Outcome> refused = refusal(new Key(campaign, id));
      if (refused.isPresent()) {
        return refused.get();
      }
      tracked = new Tracked(id);
      imports.put(new Key(campaign, id), tracked);
    }
    Batches batches = new Batches(campaign, tracked);
    try {
      List<InvalidLine> invalid = read(CodeFile.of(file, format, config.maxLineLength()), batches);
      batches.finish();
      tracked.end(State.DONE, clock.instant());
      return new Outcome.Done(new Report(tracked.progress(), invalid));
    } catch (IOException | RuntimeException e) {
      batches.settle();
      tracked.end(State.FAILED, clock.instant());
      throw e;
    }
  }

  /** The import's state, while it runs and for {@code retention} after. */
  public Optional<Progress> state(CampaignId campaign, ImportId id) {
    synchronized (imports) {
      forgetExpired();
      return Optional.ofNullable(imports.get(new Key(campaign, id))).map(Tracked::progress);
    }
  }

  private List<InvalidLine> read(CodeFile file, Batches batches) throws IOException {
    List<InvalidLine> invalid = new ArrayList<>();
    Tracked tracked = batches.tracked;
    for (CodeFile.Entry entry = file.next(); entry != null; entry = file.next()) {
      tracked.lines.incrementAndGet();
      if (entry instanceof CodeFile.Code code) {
        batches.add(code.code());
      } else if (entry instanceof CodeFile.Invalid bad) {
        tracked.invalid.incrementAndGet();
        if (invalid.size() < REPORTED_INVALID) {
          invalid.add(new InvalidLine(bad.line(), bad.reason()));
        }
      }
    }
    return invalid;
  }

  /** Why a new import under {@code key} may not start now; holds the lock of {@link #imports}. */
  private Optional<Outcome> refusal(Key key) {
    forgetExpired();
    Tracked earlier = imports.get(key);
    if (earlier != null && earlier.state == State.RUNNING) {
      return Optional.of(new Outcome.AlreadyRunning());
    }
    imports.remove(key); // a finished one is replaced, and counts as the newest
    long running = imports.values().stream().filter(t -> t.state == State.RUNNING).count();
    if (running >= config.maxRunning()) {
      return Optional.of(new Outcome.Busy());
    }
    Iterator<Tracked> oldest = imports.values().iterator();
    while (imports.size() >= config.maxKept() && oldest.hasNext()) {
      if (oldest.next().state != State.RUNNING) {
        oldest.remove();
      }
    }
    return Optional.empty();
  }

  private void forgetExpired() {
    Instant now = clock.instant();
    imports
        .values()
        .removeIf(t -> t.endedAt != null && !now.isBefore(t.endedAt.plus(config.retention())));
  }

  private record Key(CampaignId campaign, ImportId id) {}

  /** One import's state, written by its threads, read by any. */
  private static final class Tracked {
    final ImportId id;
    final AtomicLong lines = new AtomicLong();
    final AtomicLong added = new AtomicLong();
    final AtomicLong skipped = new AtomicLong();
    final AtomicLong invalid = new AtomicLong();
    volatile State state = State.RUNNING;
    volatile Instant endedAt;

    Tracked(ImportId id) {
      this.id = id;
    }

    void end(State end, Instant at) {
      endedAt = at;
      state = end;
    }

    Progress progress() {
      State now = state;
      return new Progress(id, now, lines.get(), added.get(), skipped.get(), invalid.get());
    }
  }

  /**
   * The codes of one import on their way to the store: the batch being filled, and at most one
   * batch being written meanwhile on {@link #writers}.
   */
  private final class Batches {
    private final CampaignId campaign;
    private final Tracked tracked;
    private List<CouponCode> filling;
    private CompletableFuture<Void> writing = CompletableFuture.completedFuture(null);

    Batches(CampaignId campaign, Tracked tracked) {
      this.campaign = campaign;
      this.tracked = tracked;
      this.filling = new ArrayList<>(config.batchSize());
    }

    void add(CouponCode code) {
      filling.add(code);
      if (filling.size() >= config.batchSize()) {
        write();
      }
    }

    /** Writes what is left and waits until every batch is written. */
    void finish() {
      if (!filling.isEmpty()) {
        write();
      }
      awaitWriting();
    }

    /** Waits for the batch being written, if any, ignoring how it ends. */
    void settle() {
      writing.exceptionally(e -> null).join();
    }

    /** Waits for the previous batch, then starts writing the one filled. */
    private void write() {
      awaitWriting();
      List<CouponCode> batch = filling;
      filling = new ArrayList<>(config.batchSize());
      writing =
          CompletableFuture.runAsync(
              () -> {
                CouponStore.AddResult result = coupons.add(campaign, batch);
                tracked.added.addAndGet(result.added());
                tracked.skipped.addAndGet(result.skipped());
              },
              writers);
    }

    private void awaitWriting() {
      try {
        writing.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    }
  }
}
