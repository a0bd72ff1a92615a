package flashclaim.auth;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.testing.Api;
import flashclaim.testing.TestEmulator;
import flashclaim.testing.Tokens;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.security.token.jwt.signature.SignatureConfiguration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In {@code firebase} mode the local HS256 signature does not exist: a token signed with the local
 * secret (here, even the very secret the instance is configured with) is refused.
 */
class FirebaseModeTest {

  @Test
  void localTokensAreRefusedInFirebaseMode() {
    try (EmbeddedServer server =
        ApplicationContext.run(
            EmbeddedServer.class,
            Map.of(
                "micronaut.server.port", -1,
                "flashclaim.firestore.project-id", TestEmulator.PROJECT,
                "flashclaim.firestore.emulator-host", TestEmulator.host(),
                "flashclaim.auth.hs256-secret", Tokens.SECRET),
            "firebase")) {
      assertThat(server.getApplicationContext().getBeansOfType(SignatureConfiguration.class))
          .noneMatch(s -> s.getClass().getSimpleName().contains("Secret"));
      String forged = Tokens.mint("mallory", List.of("admin"), java.time.Duration.ofMinutes(5), Tokens.SECRET);
      Api.Response response = Api.get(server.getURI(), "/v1/admin/campaigns/any", forged);
      assertThat(response.status()).isEqualTo(401);
      assertThat(response.contentType()).startsWith("application/problem+json");
    }
  }
}
