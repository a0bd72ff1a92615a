package flashclaim.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.core.util.PathMatcher;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuardConfigTest {

  private static GuardConfig covering(String... routes) {
    return new GuardConfig(true, List.of(routes), Duration.ofSeconds(30), Duration.ofSeconds(1));
  }

  @Test
  void theDefaultPatternsCoverEveryAdminCampaignRouteAndNoClaim() {
    GuardConfig config = covering("/v1/admin/campaigns", "/v1/admin/campaigns/**");

    assertThat(config.covers("/v1/admin/campaigns")).isTrue();
    assertThat(config.covers("/v1/admin/campaigns/spring")).isTrue();
    assertThat(config.covers("/v1/admin/campaigns/spring/coupons")).isTrue();
    assertThat(config.covers("/v1/campaigns/spring/claims")).isFalse();
    assertThat(config.covers("/v1/admin/campaignsX")).isFalse();
    assertThat(config.covers("/v1/admin")).isFalse();
  }

  @Test
  void coversExactlyWhatTheAntMatcherMatches() {
    List<String> patterns =
        List.of("/v1/*/campaigns/?x/*", "/v2/**/coupons", "/v3/{id}", "**", "/v1/admin/campaigns");
    List<String> paths =
        List.of(
            "/v1/admin/campaigns/ax/spring",
            "/v1/admin/campaigns/x/spring",
            "/v2/a/b/coupons",
            "/v3/a/b/coupons",
            "/v3/spring",
            "/v1/admin/campaigns",
            "/",
            "");
    for (String pattern : patterns) {
      for (String path : paths) {
        assertThat(covering(pattern).covers(path))
            .as("%s covers %s", pattern, path)
            .isEqualTo(PathMatcher.ANT.matches(pattern, path));
      }
    }
    assertThat(covering().covers("/v1/admin/campaigns")).isFalse();
  }
}
