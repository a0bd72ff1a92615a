package flashclaim.http.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import flashclaim.campaign.Campaign;
import flashclaim.claim.ClaimOutcome;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;

/**
 * The 403 {@code campaign-not-open} of a claim outside the campaign's window: a {@link Problem}
 * with the window as extension members {@code startsAt} and {@code endsAt} (absent where the
 * window is open-ended), so that an app shows a countdown instead of an error.
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CampaignNotOpen(
    String type,
    String title,
    int status,
    String detail,
    String instance,
    @Nullable Instant startsAt,
    @Nullable Instant endsAt) {

  public static MutableHttpResponse<CampaignNotOpen> response(ClaimOutcome.NotOpen notOpen, String path) {
    String detail =
        notOpen.window() == Campaign.Window.NOT_STARTED
            ? "the campaign starts at " + notOpen.startsAt()
            : "the campaign ended at " + notOpen.endsAt();
    ProblemType type = ProblemType.CAMPAIGN_NOT_OPEN;
    Problem problem = type.problem(detail, path);
    return HttpResponse.<CampaignNotOpen>status(type.status())
        .contentType(MediaType.of(Problem.MEDIA_TYPE))
        .body(
            new CampaignNotOpen(
                problem.type(),
                problem.title(),
                problem.status(),
                problem.detail(),
                problem.instance(),
                notOpen.startsAt(),
                notOpen.endsAt()));
  }
}
