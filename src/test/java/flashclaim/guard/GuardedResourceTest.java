package flashclaim.guard;

import static org.assertj.core.api.Assertions.assertThat;

import flashclaim.Sha256;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rule that names what a guard protects: canonical parent resource plus user prefix. */
class GuardedResourceTest {

  @Test
  void canonicalResourceIsTheRouteUpToItsFirstVariable() {
    assertThat(key(null, "/v1/campaigns/{id}/claims", Map.of("id", "42")))
        .contains("/v1/campaigns/42");
    assertThat(key(null, "/v1/admin/campaigns/{id}/coupons", Map.of("id", "42")))
        .contains("/v1/admin/campaigns/42");
    assertThat(key(null, "/campaigns/{c}/coupons/{k}/redeem", Map.of("c", "42", "k", "7")))
        .contains("/campaigns/42");
    assertThat(key(null, "/v1/admin/campaigns/{id:[a-z]+}", Map.of("id", "spring")))
        .contains("/v1/admin/campaigns/spring");
  }

  @Test
  void authenticatedCallersArePrefixed() {
    assertThat(key("alice", "/v1/campaigns/{id}/claims", Map.of("id", "42")))
        .contains("/alice/v1/campaigns/42");
    assertThat(key("bob", "/v1/campaigns/{id}/claims", Map.of("id", "42")))
        .contains("/bob/v1/campaigns/42");
    // A route without variables: the caller's own view of it (POST /me -> /{userId}/me).
    assertThat(key("alice", "/me", Map.of())).contains("/alice/me");
    assertThat(key("admin", "/v1/admin/campaigns", Map.of())).contains("/admin/v1/admin/campaigns");
  }

  @Test
  void callerIsOneSegmentSoNoPairCollides() {
    // "a/v1" on /x must not meet "a" on /v1/x.
    assertThat(key("a/v1", "/x/{id}", Map.of("id", "1")))
        .isNotEqualTo(key("a", "/v1/x/{id}", Map.of("id", "1")));
    assertThat(key("a/v1", "/x/{id}", Map.of("id", "1"))).contains("/a%2Fv1/x/1");
  }

  @Test
  void anonymousRequestOnRouteWithoutVariablesGuardsNothing() {
    assertThat(key(null, "/v1/webhooks/redemptions", Map.of())).isEmpty();
    assertThat(key(null, "/v1/things/{id}", Map.of("id", "9"))).contains("/v1/things/9");
  }

  @Test
  void lockIdIsTheSha256OfTheKey() {
    GuardedResource resource =
        GuardedResource.of("alice", "/v1/campaigns/{id}/claims", Map.of("id", "42")).orElseThrow();
    assertThat(resource.lockId()).isEqualTo(Sha256.hex("/alice/v1/campaigns/42")).hasSize(64);
  }

  private static Optional<String> key(String caller, String template, Map<String, Object> values) {
    return GuardedResource.of(caller, template, values).map(GuardedResource::key);
  }
}
