package flashclaim.auth;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpRequest;
import io.micronaut.security.token.TokenAuthenticationFetcher;
import io.micronaut.security.token.reader.TokenResolver;
import io.micronaut.security.token.validator.TokenValidator;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * micronaut-security's bearer-token authentication, without the {@code TokenValidatedEvent} it
 * publishes for every request that carries a valid token: building that event resolves the
 * request's host and locale, a measurable part of a claim's CPU, and nothing here listens to it.
 */
@Factory
final class TokenFetching {

  @Singleton
  @Replaces(TokenAuthenticationFetcher.class)
  TokenAuthenticationFetcher tokenAuthenticationFetcher(
      List<TokenValidator<HttpRequest<?>>> validators, TokenResolver<HttpRequest<?>> resolver) {
    return new TokenAuthenticationFetcher(validators, resolver, event -> {});
  }
}
