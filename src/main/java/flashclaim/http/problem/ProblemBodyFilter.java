package flashclaim.http.problem;

import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import flashclaim.http.FilterOrder;

/**
 * Every error answer has a problem+json body, also those that parts of the framework send without
 * one, such as the 403 of its CORS filter to a request whose {@code Origin} is another site while
 * the service is addressed as {@code localhost}. It runs outside every other filter, so it sees
 * their answers too.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class ProblemBodyFilter implements Ordered {

  @Override
  public int getOrder() {
    return FilterOrder.PROBLEM_BODY;
  }

  @ResponseFilter
  void addProblem(HttpRequest<?> request, MutableHttpResponse<?> response) {
    if (response.code() < 400 || response.getBody().isPresent()) {
      return;
    }
    HttpStatus status = response.status();
    Problem problem =
        Problem.ofStatus(
            status,
            status.getCode() >= 500 ? "the request could not be processed" : status.getReason(),
            request.getPath());
    response.contentType(MediaType.of(Problem.MEDIA_TYPE)).body(problem);
  }
}
