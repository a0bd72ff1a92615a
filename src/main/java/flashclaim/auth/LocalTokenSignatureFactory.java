package flashclaim.auth;

import com.nimbusds.jose.JWSAlgorithm;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.security.token.jwt.signature.SignatureConfiguration;
import io.micronaut.security.token.jwt.signature.secret.SecretSignature;
import io.micronaut.security.token.jwt.signature.secret.SecretSignatureConfiguration;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts HS256 tokens signed with the local secret, only in {@code local} mode: in {@code
 * firebase} mode this bean does not exist, so a token signed with a known development secret can
 * never pass there.
 */
@Factory
@Requires(property = "flashclaim.auth.mode", value = "local", defaultValue = "local")
final class LocalTokenSignatureFactory {
  private static final Logger LOG = LoggerFactory.getLogger(LocalTokenSignatureFactory.class);

  @Singleton
  @Named("local")
  SignatureConfiguration localSignature(AuthConfig config) {
    if (config.hs256Secret().getBytes(StandardCharsets.UTF_8).length < 32) {
      throw new IllegalStateException("flashclaim.auth.hs256-secret must be at least 32 bytes");
    }
    if (AuthConfig.DEVELOPMENT_SECRET.equals(config.hs256Secret())) {
      LOG.warn("Local tokens use the development secret: set FLASHCLAIM_AUTH_HS256_SECRET.");
    }
    SecretSignatureConfiguration secret = new SecretSignatureConfiguration("local");
    secret.setSecret(config.hs256Secret());
    secret.setJwsAlgorithm(JWSAlgorithm.HS256);
    return new SecretSignature(secret);
  }
}
