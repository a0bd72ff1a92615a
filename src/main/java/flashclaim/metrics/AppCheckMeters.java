package flashclaim.metrics;

import flashclaim.appcheck.AppCheckKeys;
import flashclaim.appcheck.AppCheckMode;
import flashclaim.appcheck.AppCheckVerifier;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.function.ToDoubleFunction;

/**
 * Firebase App Check as meters, when it is on: {@value #TOKENS} counts the claims' tokens by
 * {@code result} ({@code valid}, {@code missing}, {@code invalid}), {@value #KEY_FETCHES} the
 * fetches of App Check's keys by {@code result} ({@code ok}, {@code failed}). In {@code monitor}
 * mode, the share of {@code valid} is what tells when {@code enforce} is safe to switch on.
 */
@Singleton
@Requires(beans = MeterRegistry.class)
final class AppCheckMeters implements MeterBinder {
  static final String TOKENS = "flashclaim.appcheck.tokens";
  static final String KEY_FETCHES = "flashclaim.appcheck.key.fetches";

  private final AppCheckVerifier verifier;
  private final AppCheckKeys keys;

  AppCheckMeters(AppCheckVerifier verifier, AppCheckKeys keys) {
    this.verifier = verifier;
    this.keys = keys;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (verifier.mode() == AppCheckMode.OFF) {
      return;
    }
    tokens(registry, "valid", AppCheckVerifier::validCount);
    tokens(registry, "missing", AppCheckVerifier::missingCount);
    tokens(registry, "invalid", AppCheckVerifier::invalidCount);
    FunctionCounter.builder(KEY_FETCHES, keys, AppCheckKeys::fetchedCount)
        .description("fetches of App Check's public keys")
        .tag("result", "ok")
        .register(registry);
    FunctionCounter.builder(KEY_FETCHES, keys, AppCheckKeys::failedFetchCount)
        .description("fetches of App Check's public keys")
        .tag("result", "failed")
        .register(registry);
  }

  private void tokens(MeterRegistry registry, String result, ToDoubleFunction<AppCheckVerifier> count) {
    FunctionCounter.builder(TOKENS, verifier, count)
        .description("App Check tokens of claims, by what their check found")
        .tag("result", result)
        .register(registry);
  }
}
