package flashclaim.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An answer decided for a request before its {@code Idempotency-Key} is looked at, to be given
 * only when the key holds nothing for the request: the idempotency filter then reads the key's
 * record instead of starting it, answers what the record holds (the stored result, or the refusal
 * of a key in use or used for another request) and otherwise this answer. It writes no record,
 * and neither the guard nor the controller runs. The claim edge marks the refusal of a user who
 * holds coupons of the campaign so, since a repeat of the claim that gave one of them is owed that
 * claim's answer.
 */
public final class UnlessReplayed {
  private static final String ANSWER = UnlessReplayed.class.getName() + ".answer";

  private UnlessReplayed() {}

  /** Marks the request: it is answered by {@code answer} unless its key holds a result. */
  public static void answer(HttpRequest<?> request, Supplier<HttpResponse<?>> answer) {
    request.setAttribute(ANSWER, answer);
  }

  /** The answer the request was marked with, if it was. */
  @SuppressWarnings("unchecked")
  public static Optional<Supplier<HttpResponse<?>>> of(HttpRequest<?> request) {
    return request
        .getAttribute(ANSWER, Supplier.class)
        .map(answer -> (Supplier<HttpResponse<?>>) answer);
  }
}
