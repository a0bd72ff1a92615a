package flashclaim.http.problem;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.ConversionErrorHandler;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.UriRouteMatch;
import jakarta.inject.Singleton;

/**
 * A path segment that its route cannot read as the value it stands for (an unknown selector of a
 * management endpoint, such as {@code /health/nothing}) names no resource: 404 {@code not-found},
 * without the framework's message, which would name Java types. A value from anywhere else that
 * cannot be converted stays the framework's 400 {@code invalid-request}.
 */
@Singleton
@Replaces(ConversionErrorHandler.class)
final class UnreadablePathHandler extends ConversionErrorHandler {

  UnreadablePathHandler(ErrorResponseProcessor<?> responseProcessor) {
    super(responseProcessor);
  }

  @Override
  public HttpResponse<?> handle(HttpRequest request, ConversionErrorException exception) {
    if (RouteAttributes.getRouteMatch(request).orElse(null) instanceof UriRouteMatch<?, ?> route
        && route.getVariableValues().containsKey(exception.getArgument().getName())) {
      return ProblemType.NOT_FOUND.response("no resource has this path", request.getPath());
    }
    return super.handle(request, exception);
  }
}
