package flashclaim.testing;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Redemption webhooks as a shop system sends them: signed with HMAC-SHA256 over "t.body". */
public final class Webhooks {
  /** The webhook secret the test instances are configured with. */
  public static final String SECRET = "test-webhook-secret-for-flashclaim-tests-0123456789";
  public static final String PATH = "/v1/webhooks/redemptions";
  public static final String HEADER = "X-Flashclaim-Signature";

  private Webhooks() {}

  /** The signature header of {@code body} signed at {@code t} (unix seconds) with {@code secret}. */
  public static String signature(byte[] body, long t, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
      return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The signature header of {@code body} signed now with the test secret. */
  public static String signature(String body) {
    return signature(body.getBytes(StandardCharsets.UTF_8), Instant.now().getEpochSecond(), SECRET);
  }

  /** Delivers {@code body} signed now with the test secret. */
  public static Api.Response deliver(URI base, String body) {
    return deliver(base, body, signature(body));
  }

  /** Delivers {@code body} with the given signature header (none when null). */
  public static Api.Response deliver(URI base, String body, String signature) {
    HttpRequest.Builder request =
        Api.request(base, PATH, null)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (signature != null) {
      request.header(HEADER, signature);
    }
    return Api.send(request.build());
  }

  /** A delivery body; {@code campaignId} is left out when null. */
  public static String body(String campaignId, String code, String orderId, String event) {
    return "{"
        + (campaignId == null ? "" : "\"campaignId\":\"" + campaignId + "\",")
        + "\"code\":\"" + code + "\",\"orderId\":\"" + orderId + "\",\"event\":\"" + event + "\"}";
  }
}
