package flashclaim.http.problem;

import flashclaim.InvalidInputException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A value that breaks a domain rule: 400 with the offending field. The answer of a route that
 * throws an {@link InvalidInputException} ({@link ErrorRoutes}) and of the filters that check
 * headers.
 */
public final class InvalidInput {
  private InvalidInput() {}

  /** The 400 of a value that breaks a rule. */
  public static MutableHttpResponse<Problem> response(HttpRequest<?> request, InvalidInputException e) {
    return ProblemType.INVALID_REQUEST
        .problem(e.getMessage(), request.getPath())
        .withErrors(List.of(new Problem.FieldError(e.field(), e.getMessage())))
        .response();
  }

  /**
   * The framework's message without what only concerns the server: the chain of "Failed to
   * convert argument ... due to:" wrappers, the parser's source location, Java type names.
   */
  public static String readable(String message) {
    if (message == null) {
      return null;
    }
    String text = message;
    int cause = text.lastIndexOf(DUE_TO);
    if (cause >= 0) {
      text = text.substring(cause + DUE_TO.length());
    }
    int location = text.indexOf("\n at [Source");
    if (location >= 0) {
      text = text.substring(0, location);
    }
    return JAVA_TYPE.matcher(text).replaceAll("a value").trim();
  }

  private static final String DUE_TO = "due to: ";
  private static final Pattern JAVA_TYPE =
      Pattern.compile("`?\\b(?:java|io|com|org|flashclaim)\\.[\\w.$]+`?");
}
