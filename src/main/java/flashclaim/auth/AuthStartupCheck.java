package flashclaim.auth;

import flashclaim.admission.AdmissionConfig;
import flashclaim.redemption.WebhookConfig;
import io.micronaut.context.BeanContext;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import io.micronaut.security.token.jwt.signature.ReactiveSignatureConfiguration;
import io.micronaut.security.token.jwt.signature.SignatureConfiguration;
import io.micronaut.security.token.jwt.signature.jwks.JwksSignatureConfiguration;
import java.util.Optional;

/**
 * Refuses to start, before anything else starts (the embedded emulator, the store clients), on a
 * configuration under which a forged token or webhook could pass: security switched off, an auth
 * mode that is not documented, a mode without its signature configuration or with more keys than
 * its own, and published development secrets on a store that is not local ({@link
 * DevelopmentSecrets}). Each refusal names the setting to change.
 */
@Context
@Order(Ordered.HIGHEST_PRECEDENCE)
final class AuthStartupCheck {

  AuthStartupCheck(
      TokenPolicy policy,
      AuthConfig auth,
      WebhookConfig webhooks,
      AdmissionConfig admission,
      Optional<StoreLocation> location,
      @Property(name = "flashclaim.store", defaultValue = "firestore") String store,
      @Property(name = "micronaut.security.enabled", defaultValue = "true") boolean securityEnabled,
      BeanContext beans) {
    if (!securityEnabled) {
      throw new ConfigurationException(
          "micronaut.security.enabled is false, which would open every route to anyone: remove it");
    }
    requireOnlyTheModesSignature(policy.mode(), beans);
    DevelopmentSecrets.check(
        DevelopmentSecrets.configured(policy, auth, webhooks, admission),
        DevelopmentSecrets.Store.of(store, location));
  }

  /**
   * Exactly the signature configuration {@link TokenSignatures} makes for the mode: none would
   * leave the library accepting unsigned tokens, any other (from {@code
   * micronaut.security.token.jwt.signatures.*}) another key to sign tokens with.
   */
  private static void requireOnlyTheModesSignature(AuthMode mode, BeanContext beans) {
    int imperative = beans.getBeansOfType(SignatureConfiguration.class).size();
    int reactive = beans.getBeansOfType(ReactiveSignatureConfiguration.class).size();
    int keySets = beans.getBeansOfType(JwksSignatureConfiguration.class).size();
    boolean exact =
        switch (mode) {
          case LOCAL -> imperative == 1 && reactive == 0 && keySets == 0;
          case FIREBASE -> imperative == 0 && reactive == 1 && keySets == 1;
        };
    if (!exact) {
      throw new ConfigurationException(
          mode.value()
              + " mode needs exactly its own signature configuration (from flashclaim.auth.*), but"
              + " there are "
              + (imperative + reactive)
              + ": remove micronaut.security.token.jwt.signatures.* from the configuration");
    }
  }
}
