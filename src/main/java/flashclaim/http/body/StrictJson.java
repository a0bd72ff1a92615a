package flashclaim.http.body;

import io.micronaut.core.type.Argument;
import io.micronaut.serde.Decoder;
import io.micronaut.serde.Deserializer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Strict binding of request body fields: a field takes only a value of its own JSON type. Micronaut
 * Serde coerces by default ({@code true} to 1, {@code 1.5} to 1, {@code "5"} to 5, {@code 5} to
 * "5", {@code ["x"]} to "x"), which turns a malformed body into a different, valid-looking request;
 * with these deserializers (put on a field with {@code @Serdeable.Deserializable(using = ...)}) such
 * a body is answered with 400 instead, whose detail names the field. JSON {@code null} stays null,
 * for the domain to judge.
 */
public final class StrictJson {
  private StrictJson() {}

  /** A JSON string. */
  @Singleton
  public static final class Text implements Deserializer<String> {
    @Override
    public String deserialize(Decoder decoder, DecoderContext context, Argument<? super String> type)
        throws IOException {
      return text(decoder, type, decoder.decodeArbitrary());
    }
  }

  /** A JSON integer that fits an {@code int}: no fraction, no string, no boolean. */
  @Singleton
  public static final class WholeNumber implements Deserializer<Integer> {
    @Override
    public Integer deserialize(
        Decoder decoder, DecoderContext context, Argument<? super Integer> type) throws IOException {
      Object value = decoder.decodeArbitrary();
      if (value instanceof Integer number) {
        return number;
      }
      throw invalid(
          decoder,
          type,
          "expected a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE,
          value);
    }
  }

  /** A JSON array of strings; a null element stays null. */
  @Singleton
  public static final class TextList implements Deserializer<List<String>> {
    @Override
    public List<String> deserialize(
        Decoder decoder, DecoderContext context, Argument<? super List<String>> type)
        throws IOException {
      Object value = decoder.decodeArbitrary();
      if (!(value instanceof List<?> elements)) {
        throw invalid(decoder, type, "expected an array of strings", value);
      }
      List<String> texts = new ArrayList<>(elements.size());
      for (Object element : elements) {
        texts.add(element == null ? null : text(decoder, type, element));
      }
      return texts;
    }
  }

  /** An ISO-8601 instant as a JSON string, such as {@code 2030-01-01T00:00:00Z}. */
  @Singleton
  public static final class Timestamp implements Deserializer<Instant> {
    @Override
    public Instant deserialize(
        Decoder decoder, DecoderContext context, Argument<? super Instant> type) throws IOException {
      Object value = decoder.decodeArbitrary();
      try {
        return Instant.parse(text(decoder, type, value));
      } catch (DateTimeParseException e) {
        throw invalid(
            decoder, type, "expected an ISO-8601 instant such as 2030-01-01T00:00:00Z", value);
      }
    }
  }

  private static String text(Decoder decoder, Argument<?> field, Object value) throws IOException {
    if (value instanceof String text) {
      return text;
    }
    throw invalid(decoder, field, "expected a string", value);
  }

  /** The error of a value of the wrong type, prefixed with the field's name. */
  private static IOException invalid(
      Decoder decoder, Argument<?> field, String expected, Object value) {
    String name = field.getName();
    return decoder.createDeserializationException(
        name == null || name.isEmpty() ? expected : name + ": " + expected, value);
  }
}
