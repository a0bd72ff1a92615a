package flashclaim.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Bearer tokens as anyone can make them: any header, claims, algorithm and key, signed or not. The
 * tests build valid tokens and forgeries alike with it.
 */
final class TokenForge {
  private TokenForge() {}

  /** Claims of a token valid for an hour: subject, roles, issued a moment ago. */
  static JWTClaimsSet.Builder claims(String sub, List<String> roles) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .subject(sub)
        .claim("roles", roles)
        .issueTime(Date.from(now.minusSeconds(5)))
        .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
  }

  /**
   * {@code claims} signed with an HMAC algorithm (HS256, HS384, HS512) and {@code secret} of any
   * length; {@code kid} in the header when not null.
   */
  static String hmac(JWSAlgorithm algorithm, byte[] secret, String kid, JWTClaimsSet claims) {
    JWSHeader header = new JWSHeader.Builder(algorithm).keyID(kid).type(JOSEObjectType.JWT).build();
    String signingInput = header.toBase64URL() + "." + encode(claims.toString());
    String javaName = "HmacSHA" + algorithm.getName().substring(2);
    try {
      Mac mac = Mac.getInstance(javaName);
      mac.init(new SecretKeySpec(secret, javaName));
      byte[] signature = mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + Base64URL.encode(signature);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String hmac(JWSAlgorithm algorithm, String secret, JWTClaimsSet claims) {
    return hmac(algorithm, secret.getBytes(StandardCharsets.UTF_8), null, claims);
  }

  /**
   * {@code claims} signed with an RSA algorithm and {@code key}, naming {@code kid} in the header.
   */
  static String rsa(JWSAlgorithm algorithm, RSAKey key, String kid, JWTClaimsSet claims) {
    try {
      return sign(
          new JWSHeader.Builder(algorithm).keyID(kid).build(), claims, new RSASSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A token with this header and payload as given, and this signature part (may be empty). */
  static String raw(String headerJson, String payloadJson, String signature) {
    return encode(headerJson) + "." + encode(payloadJson) + "." + signature;
  }

  /** An unsigned token: header {@code {"alg":"<spelling>"}}, the claims, an empty signature. */
  static String unsigned(String algSpelling, JWTClaimsSet claims) {
    return raw("{\"alg\":\"" + algSpelling + "\",\"typ\":\"JWT\"}", claims.toString(), "");
  }

  /** A new RSA key pair. */
  static RSAKey newRsaKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sign(JWSHeader header, JWTClaimsSet claims, JWSSigner signer)
      throws JOSEException {
    SignedJWT jwt = new SignedJWT(header, claims);
    jwt.sign(signer);
    return jwt.serialize();
  }

  private static String encode(String json) {
    return Base64URL.encode(json.getBytes(StandardCharsets.UTF_8)).toString();
  }
}
