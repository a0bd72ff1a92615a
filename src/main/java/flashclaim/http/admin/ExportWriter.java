package flashclaim.http.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.results.ClaimExport;
import flashclaim.results.CouponRecord;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.JsonMapper;
import io.micronaut.serde.annotation.Serdeable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import reactor.core.publisher.SynchronousSink;

/**
 * Writes an export as chunks of about {@code chunkBytes}: each call of {@link #emit} reads rows
 * from the store until the chunk is full and hands it on, so rows are read only as fast as the
 * connection takes them (the publisher emits one chunk per request of its subscriber) and memory
 * holds one chunk. CSV is RFC 4180 (a header row, CRLF line ends, a field in double quotes when it
 * holds a comma, a double quote or a line break); NDJSON is one JSON object per line.
 */
final class ExportWriter {
  static final String CSV_HEADER = "code,user,claimedAt,redemption,orderId";

  private final ClaimExport export;
  private final ExportFormat format;
  private final JsonMapper json;
  private final int chunkBytes;
  private final ByteArrayOutputStream chunk;
  private boolean started;
  private byte[] first;

  ExportWriter(ClaimExport export, ExportFormat format, JsonMapper json, int chunkBytes) {
    this.export = export;
    this.format = format;
    this.json = json;
    this.chunkBytes = chunkBytes;
    this.chunk = new ByteArrayOutputStream(chunkBytes + 512);
  }

  /**
   * Reads the first chunk now, before the answer's status is sent: a store that fails on the first
   * rows (the slowest: a large sorted read) is answered as any store failure, 503.
   */
  void start() {
    first = next();
  }

  /** Emits the next chunk, or completes when every row was written. */
  void emit(SynchronousSink<byte[]> sink) {
    byte[] bytes = first != null ? first : next();
    first = null;
    if (bytes.length > 0) {
      sink.next(bytes);
    } else {
      sink.complete();
    }
  }

  /** The next chunk; empty when every row was written. */
  private byte[] next() {
    chunk.reset();
    if (!started) {
      started = true;
      if (format == ExportFormat.CSV) {
        line(CSV_HEADER);
      }
    }
    while (chunk.size() < chunkBytes && export.hasNext()) {
      write(export.next());
    }
    return chunk.toByteArray();
  }

  /** Ends the read: after the last chunk, or when the client went away. */
  void close() {
    export.close();
  }

  private void write(CouponRecord row) {
    if (format == ExportFormat.CSV) {
      line(
          csv(row.code())
              + ','
              + csv(row.user())
              + ','
              + csv(row.claimedAt() == null ? null : row.claimedAt().toString())
              + ','
              + row.state().wireName()
              + ','
              + csv(row.orderId()));
    } else {
      try {
        json.writeValue(chunk, Row.of(row));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      chunk.write('\n');
    }
  }

  private void line(String text) {
    chunk.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    chunk.write('\r');
    chunk.write('\n');
  }

  /** A CSV field: empty for null, in double quotes (doubled inside) when it needs them. */
  private static String csv(String value) {
    if (value == null) {
      return "";
    }
    if (value.chars().noneMatch(c -> c == ',' || c == '"' || c == '\r' || c == '\n')) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }

  /** One line of the NDJSON export; {@code orderId} is null unless redeemed. */
  @Serdeable
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Row(
      String code, String user, Instant claimedAt, String redemption, @Nullable String orderId) {
    static Row of(CouponRecord record) {
      return new Row(
          record.code(),
          record.user(),
          record.claimedAt(),
          record.state().wireName(),
          record.orderId());
    }
  }
}
