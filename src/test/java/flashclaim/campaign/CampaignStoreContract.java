package flashclaim.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flashclaim.InvalidInputException;
import flashclaim.claim.ClaimStore;
import flashclaim.testing.Concurrently;
import flashclaim.testing.StoreContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of campaign management on a {@link CampaignStore}, run against the real store by a
 * subclass per store, with {@value #CLIENTS} store clients and no service: the list is newest first
 * and its cursor pages through it without a gap or a repeat; a change writes the next version and
 * its record together, a refused one writes nothing; concurrent changes from every client are
 * applied one after the other (each judged on the version before it, each recorded once); the
 * change rules hold on the store's own data (a limit that cannot drop once a coupon is assigned);
 * the change records page newest first.
 */
public abstract class CampaignStoreContract extends StoreContract {

  private CampaignService service(int client) {
    return new CampaignService(
        clients().campaignStore(client),
        clients().couponStore(client),
        new SeedingConfig(100_000, 500, 8, Duration.ofMinutes(5)),
        new CampaignCacheConfig(Duration.ofSeconds(1), 100),
        Clock.systemUTC(),
        Runnable::run);
  }

  private static CampaignPatch patch(CampaignId id, Map<String, Object> body) {
    return CampaignPatch.of(id, body, OptionalLong.empty());
  }

  private Campaign stored(CampaignId id) {
    return clients().campaignStore(2).find(id).orElseThrow();
  }

  /**
   * Campaigns created "later" than any other of the store (in the far future, later with every
   * run): the first pages of the list, whatever else the store holds. Two share a creation instant,
   * so the id breaks the tie.
   */
  @Test
  void theListIsNewestFirstAndItsCursorPagesWithoutGapOrRepeat() {
    Instant base =
        Instant.parse("9000-01-01T00:00:00Z")
            .plusSeconds(System.currentTimeMillis() / 1000 * 4)
            .truncatedTo(ChronoUnit.SECONDS);
    List<Campaign> ours = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      Instant createdAt = base.plusSeconds(i == 6 ? 5 : i).plusNanos(i * 1_000L);
      Campaign campaign =
          new Campaign(newCampaignId(), "listed " + i, 1, null, null, i == 6 ? ours.get(5).createdAt() : createdAt);
      assertThat(clients().campaignStore(i).create(campaign)).isTrue();
      ours.add(campaign);
    }
    List<Campaign> expected =
        ours.stream()
            .sorted(
                Comparator.comparing(Campaign::createdAt)
                    .thenComparing(c -> c.id().value())
                    .reversed())
            .toList();

    List<Campaign> seen = new ArrayList<>();
    Optional<CampaignPage.After> after = Optional.empty();
    int pages = 0;
    do {
      CampaignPage page = clients().campaignStore(pages).list(3, after);
      assertThat(page.campaigns()).hasSizeLessThanOrEqualTo(3);
      if (page.next().isPresent()) {
        assertThat(page.campaigns()).hasSize(3);
        Campaign last = page.campaigns().get(2);
        assertThat(page.next()).contains(new CampaignPage.After(last.createdAt(), last.id()));
      }
      seen.addAll(page.campaigns());
      after = page.next();
      pages++;
    } while (after.isPresent() && seen.stream().filter(ours::contains).count() < ours.size());

    Set<CampaignId> ids = new HashSet<>();
    seen.forEach(c -> assertThat(ids.add(c.id())).as("listed twice: %s", c.id()).isTrue());
    for (int i = 1; i < seen.size(); i++) {
      Campaign newer = seen.get(i - 1);
      Campaign older = seen.get(i);
      assertThat(
              older.createdAt().isBefore(newer.createdAt())
                  || (older.createdAt().equals(newer.createdAt())
                      && older.id().value().compareTo(newer.id().value()) < 0))
          .as("%s listed after %s", older.id(), newer.id())
          .isTrue();
    }
    assertThat(seen.stream().filter(ours::contains).toList()).isEqualTo(expected);
    assertThat(clients().campaignStore(0).list(100, Optional.of(new CampaignPage.After(
        Campaign.EARLIEST, new CampaignId("a"))))
        .campaigns()).isEmpty();
  }

  /** A change writes the next version and its record (who, when, before, after) together. */
  @Test
  void aChangeWritesTheNextVersionAndItsRecord() {
    Campaign campaign = newCampaign(1, 3);
    Instant endsAt = Instant.parse("2999-01-01T00:00:00.123456Z");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", "renamed");
    body.put("paused", true);
    body.put("endsAt", endsAt.toString());
    body.put("perUserLimit", 2);

    Campaign changed = service(0).patch(campaign.id(), patch(campaign.id(), body), "alice").orElseThrow();

    Campaign expected =
        new Campaign(campaign.id(), "renamed", 2, null, endsAt, campaign.createdAt(), true, 1);
    assertThat(changed).isEqualTo(expected);
    assertThat(stored(campaign.id())).isEqualTo(expected);
    ChangePage changes = clients().campaignStore(1).changes(campaign.id(), 10, OptionalLong.empty());
    assertThat(changes.nextBelow()).isEmpty();
    assertThat(changes.changes()).hasSize(1);
    CampaignChange change = changes.changes().get(0);
    assertThat(change.version()).isEqualTo(1);
    assertThat(change.by()).isEqualTo("alice");
    assertThat(change.at()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
    Map<String, Object> before = new LinkedHashMap<>();
    before.put("name", "contract");
    before.put("endsAt", null);
    before.put("perUserLimit", 1);
    before.put("paused", false);
    assertThat(change.before()).isEqualTo(before);
    assertThat(change.after())
        .isEqualTo(Map.of("name", "renamed", "endsAt", endsAt, "perUserLimit", 2, "paused", true));

    // Nothing to change: nothing written.
    assertThat(service(1).patch(campaign.id(), patch(campaign.id(), Map.of("paused", true)), "bob"))
        .contains(expected);
    assertThat(clients().campaignStore(0).changes(campaign.id(), 10, OptionalLong.empty()).changes())
        .hasSize(1);
    // An unknown campaign.
    CampaignId unknown = newCampaignId();
    assertThat(service(0).patch(unknown, patch(unknown, Map.of("paused", true)), "alice")).isEmpty();
  }

  /** What the rules refuse leaves the campaign and its records as they were. */
  @Test
  void aRefusedChangeWritesNothing() {
    Campaign campaign = newCampaign(3, 4);
    CampaignId id = campaign.id();
    assertThat(claim(1, campaign, "holder", 0)).isInstanceOf(ClaimStore.Attempt.Won.class);

    // A coupon is assigned: the limit may rise, never drop (even paused).
    assertThat(service(0).patch(id, patch(id, Map.of("paused", true)), "a")).isPresent();
    assertThatThrownBy(() -> service(1).patch(id, patch(id, Map.of("perUserLimit", 2)), "a"))
        .isInstanceOfSatisfying(
            CampaignChangeRefused.class,
            e -> assertThat(e.reason()).isEqualTo(CampaignChangeRefused.Reason.LIMIT_LOCKED));
    // endsAt not after startsAt
    Map<String, Object> window = new LinkedHashMap<>();
    window.put("startsAt", "2030-01-02T00:00:00Z");
    window.put("endsAt", "2030-01-01T00:00:00Z");
    assertThatThrownBy(() -> service(2).patch(id, patch(id, window), "a"))
        .isInstanceOf(InvalidInputException.class);
    // an ended campaign does not reopen without "reopen": true
    assertThat(service(0).patch(id, patch(id, Map.of("endsAt", "2001-01-01T00:00:00Z")), "a"))
        .isPresent();
    assertThatThrownBy(
            () -> service(1).patch(id, patch(id, Map.of("endsAt", "2999-01-01T00:00:00Z")), "a"))
        .isInstanceOfSatisfying(
            CampaignChangeRefused.class,
            e -> assertThat(e.reason()).isEqualTo(CampaignChangeRefused.Reason.ENDED));
    assertThat(stored(id).version()).isEqualTo(2);
    assertThat(stored(id).perUserLimit()).isEqualTo(3);
    assertThat(stored(id).endsAt()).isEqualTo(Instant.parse("2001-01-01T00:00:00Z"));
    assertThat(clients().campaignStore(2).changes(id, 10, OptionalLong.empty()).changes())
        .extracting(CampaignChange::version)
        .containsExactly(2L, 1L);

    // With the flag, it reopens; the limit rises.
    Map<String, Object> reopen = new LinkedHashMap<>();
    reopen.put("endsAt", null);
    reopen.put("reopen", true);
    reopen.put("perUserLimit", 5);
    assertThat(service(2).patch(id, patch(id, reopen), "a").orElseThrow())
        .extracting(Campaign::endsAt, Campaign::perUserLimit, Campaign::version)
        .containsExactly(null, 5, 3L);

    // Before any coupon is assigned and while claims cannot be served, the limit may drop.
    Campaign fresh = newCampaign(4, 2);
    assertThatThrownBy(
            () -> service(0).patch(fresh.id(), patch(fresh.id(), Map.of("perUserLimit", 1)), "a"))
        .isInstanceOf(CampaignChangeRefused.class); // open and not paused
    Map<String, Object> pauseAndLower = new LinkedHashMap<>();
    pauseAndLower.put("paused", true);
    pauseAndLower.put("perUserLimit", 1);
    assertThatThrownBy(() -> service(0).patch(fresh.id(), patch(fresh.id(), pauseAndLower), "a"))
        .isInstanceOf(CampaignChangeRefused.class); // judged on the campaign as it was: open
    service(1).patch(fresh.id(), patch(fresh.id(), Map.of("paused", true)), "a");
    assertThat(service(2).patch(fresh.id(), patch(fresh.id(), Map.of("perUserLimit", 1)), "a"))
        .map(Campaign::perUserLimit)
        .contains(1);
  }

  /**
   * Changes from every client at once are applied one after the other: each is judged on the version
   * the one before it left and recorded once, and the records chain (each one's before is the
   * after of the one before it).
   */
  @Test
  void concurrentChangesApplyOneAfterTheOtherAndEachIsRecordedOnce() throws Exception {
    Campaign campaign = newCampaign(1, 0);
    CampaignId id = campaign.id();
    int changes = 12;
    List<Optional<Campaign>> results =
        Concurrently.run(
            changes,
            i -> () -> service(i).patch(id, patch(id, Map.of("name", "by " + i)), "admin-" + i));

    assertThat(results).allMatch(Optional::isPresent);
    assertThat(results.stream().map(r -> r.get().version()).toList())
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.rangeClosed(1, changes).boxed().toList());
    assertThat(stored(id).version()).isEqualTo(changes);
    List<CampaignChange> records =
        clients().campaignStore(0).changes(id, 100, OptionalLong.empty()).changes();
    assertThat(records).extracting(CampaignChange::version).containsExactlyElementsOf(
        java.util.stream.LongStream.iterate(changes, v -> v >= 1, v -> v - 1).boxed().toList());
    for (int i = 0; i + 1 < records.size(); i++) {
      assertThat(records.get(i).before().get("name"))
          .isEqualTo(records.get(i + 1).after().get("name"));
    }
    assertThat(records.get(records.size() - 1).before().get("name")).isEqualTo("contract");
    assertThat(records.get(0).after().get("name")).isEqualTo(stored(id).name());
  }

  /** Of changes that name the same version (If-Match), exactly one applies; the others are refused. */
  @Test
  void ofChangesThatNameOneVersionExactlyOneApplies() throws Exception {
    Campaign campaign = newCampaign(1, 0);
    CampaignId id = campaign.id();
    List<String> outcomes =
        Concurrently.run(
            9,
            i ->
                () -> {
                  try {
                    service(i)
                        .patch(
                            id,
                            CampaignPatch.of(id, Map.of("name", "v0 by " + i), OptionalLong.of(0)),
                            "admin");
                    return "applied";
                  } catch (CampaignChangeRefused e) {
                    assertThat(e.reason())
                        .isEqualTo(CampaignChangeRefused.Reason.VERSION_MISMATCH);
                    return "refused";
                  }
                });

    assertThat(outcomes).containsOnlyOnce("applied");
    assertThat(stored(id).version()).isEqualTo(1);
    assertThat(clients().campaignStore(1).changes(id, 10, OptionalLong.empty()).changes())
        .hasSize(1);
  }

  /** The change records page newest first; the position of a page's last record starts the next. */
  @Test
  void theChangeRecordsPageNewestFirst() {
    Campaign campaign = newCampaign(1, 0);
    CampaignId id = campaign.id();
    for (int i = 1; i <= 5; i++) {
      service(i).patch(id, patch(id, Map.of("name", "name " + i)), "admin");
    }
    List<List<Long>> pages = new ArrayList<>();
    OptionalLong below = OptionalLong.empty();
    do {
      ChangePage page = clients().campaignStore(pages.size()).changes(id, 2, below);
      pages.add(page.changes().stream().map(CampaignChange::version).toList());
      below = page.nextBelow();
    } while (below.isPresent());

    assertThat(pages).containsExactly(List.of(5L, 4L), List.of(3L, 2L), List.of(1L));
    assertThat(clients().campaignStore(0).changes(newCampaignId(), 2, OptionalLong.empty()).changes())
        .isEmpty();
  }
}
