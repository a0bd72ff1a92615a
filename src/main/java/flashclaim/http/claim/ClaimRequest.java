package flashclaim.http.claim;

import flashclaim.campaign.CampaignId;
import flashclaim.claim.UserId;
import flashclaim.http.Arrival;
import flashclaim.http.ClaimRoute;
import flashclaim.http.FilterPaths;
import io.micronaut.http.HttpRequest;
import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A claim as its edge sees it: the campaign and the caller as sent (checked against their rules by
 * {@link #campaignId} and {@link #userId}), when the instance let it in, the tickets it sent back,
 * and its path for the answers.
 *
 * @param campaign the path variable of the {@link ClaimRoute} that names the campaign
 * @param user the token's subject
 * @param arrived when the request most likely reached the instance ({@link Arrival#of}): its
 *     deadline counts from there
 * @param seen when the first filter saw it ({@link Arrival#seen}): a new user's first arrival
 * @param tickets every {@value ClaimAdmission#TICKET} header the request carries
 * @param path the request's path
 */
record ClaimRequest(
    String campaign,
    String user,
    Instant arrived,
    Instant seen,
    List<String> tickets,
    String path) {

  /** The claim of an authenticated request to the claim route; empty for any other. */
  static Optional<ClaimRequest> of(HttpRequest<?> request, Clock clock) {
    Optional<String> user = request.getUserPrincipal().map(Principal::getName);
    Optional<String> campaign =
        FilterPaths.routeMarked(request, ClaimRoute.class)
            .map(
                route -> {
                  String variable =
                      route.getAnnotationMetadata().stringValue(ClaimRoute.class).orElse("id");
                  return route.getVariableValues().get(variable);
                })
            .map(String::valueOf);
    if (user.isEmpty() || campaign.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new ClaimRequest(
            campaign.get(),
            user.get(),
            Arrival.of(request, clock),
            Arrival.seen(request, clock),
            request.getHeaders().getAll(ClaimAdmission.TICKET),
            request.getPath()));
  }

  /** The campaign's id; throws {@link flashclaim.InvalidInputException} if it breaks its rules. */
  CampaignId campaignId() {
    return new CampaignId(campaign);
  }

  /** The caller's id; throws {@link flashclaim.InvalidInputException} if it breaks its rules. */
  UserId userId() {
    return new UserId(user);
  }
}
