package flashclaim.auth;

import static flashclaim.auth.AuthConfig.setting;

import flashclaim.admission.AdmissionConfig;
import flashclaim.redemption.WebhookConfig;
import io.micronaut.context.exceptions.ConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Development secrets only on a local store: the development values of the service's secrets are
 * published (in the code, in bin/mint-token), so anyone can sign with them. An instance may use one
 * only where no real data is, on a Firestore emulator or the embedded PostgreSQL; anywhere else it
 * refuses to start, naming every such setting.
 */
final class DevelopmentSecrets {

  /**
   * A secret as configured, and the published development value it must not have on a real store.
   */
  record Secret(String property, String configured, String development) {
    boolean isDevelopment() {
      return development.equals(configured);
    }
  }

  /** Where the data is: a description for the message, and whether it is a local store. */
  record Store(String description, boolean local) {

    /** The store that {@code flashclaim.store} selects: as its adapter says, if there is one. */
    static Store of(String store, Optional<StoreLocation> location) {
      return location
          .map(l -> new Store(l.description(), l.local()))
          .orElseGet(() -> new Store("store '" + store + "'", false));
    }
  }

  private DevelopmentSecrets() {}

  /** The secrets this instance uses, one entry each. */
  static List<Secret> configured(
      TokenPolicy policy, AuthConfig auth, WebhookConfig webhooks, AdmissionConfig admission) {
    List<Secret> secrets = new ArrayList<>();
    if (policy.mode() == AuthMode.LOCAL) {
      secrets.add(
          new Secret(AuthConfig.HS256_SECRET, auth.hs256Secret(), AuthConfig.DEVELOPMENT_SECRET));
    }
    secrets.add(
        new Secret(
            "flashclaim.webhooks.secret", webhooks.secret(), WebhookConfig.DEVELOPMENT_SECRET));
    secrets.add(
        new Secret(
            "flashclaim.admission.ticket-secret",
            admission.ticketSecret(),
            AdmissionConfig.DEVELOPMENT_SECRET));
    return secrets;
  }

  /** Why this instance must not start with these secrets on this store, or nothing when it may. */
  static Optional<String> refusal(List<Secret> secrets, Store store) {
    List<String> development =
        secrets.stream().filter(Secret::isDevelopment).map(s -> setting(s.property())).toList();
    if (store.local() || development.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        String.join(" and ", development)
            + (development.size() == 1 ? " is" : " are")
            + " the published development value, which only a local store (a Firestore emulator or"
            + " the embedded PostgreSQL) accepts, but this instance uses "
            + store.description()
            + ": set "
            + (development.size() == 1 ? "it" : "each")
            + " to a secret of your own");
  }

  /** Refuses to start when {@link #refusal} gives a reason. */
  static void check(List<Secret> secrets, Store store) {
    refusal(secrets, store)
        .ifPresent(
            reason -> {
              throw new ConfigurationException(reason);
            });
  }
}
