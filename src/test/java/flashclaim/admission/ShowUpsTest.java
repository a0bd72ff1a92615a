package flashclaim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The share of refused users who come back, second by second: users told to come back in one
 * second are matched with the returns of the next.
 */
class ShowUpsTest {
  private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

  @Test
  void theShareIsOneUntilMeasuredAndWhileEveryoneComesBack() {
    ShowUps showUps = new ShowUps();
    assertThat(showUps.share(T0)).isEqualTo(1);
    for (int s = 0; s < 10; s++) {
      Instant now = T0.plusSeconds(s);
      for (int i = 0; i < 100; i++) {
        showUps.told(now, now.plusMillis(900)); // back within the next second
        if (s > 0) {
          showUps.back(now.plusMillis(500));
        }
      }
    }
    assertThat(showUps.share(T0.plusSeconds(10))).isEqualTo(1);
  }

  @Test
  void usersWhoNeverComeBackTakeTheShareToZero() {
    ShowUps showUps = new ShowUps();
    for (int s = 0; s < 6; s++) {
      Instant now = T0.plusSeconds(s);
      for (int i = 0; i < 100; i++) {
        showUps.told(now, now.plusMillis(900));
      }
    }
    assertThat(showUps.share(T0.plusSeconds(6))).isZero();
  }

  /**
   * A share measured on users who went away (a sale that ended, its clients gone) says nothing
   * about the next users once nobody has been due for a while: it is 1 again, and the next sale's
   * new users are told the book's whole reach. Until then it holds.
   */
  @Test
  void aShareFromUsersWhoWentAwayIsForgottenOnceNobodyIsDue() {
    ShowUps showUps = new ShowUps();
    for (int s = 0; s < 6; s++) {
      Instant now = T0.plusSeconds(s);
      for (int i = 0; i < 100; i++) {
        showUps.told(now, now.plusMillis(900));
      }
    }
    assertThat(showUps.share(T0.plusSeconds(8))).as("two seconds later").isZero();
    assertThat(showUps.share(T0.plusSeconds(20))).as("nobody due for 13 s").isEqualTo(1);
  }

  @Test
  void whenAQuarterComeBackTheShareIsAQuarter() {
    ShowUps showUps = new ShowUps();
    tellAndSeeBack(showUps, 20, 100, 25);
    assertThat(showUps.share(T0.plusSeconds(20))).isCloseTo(0.25, within(0.01));
  }

  /** A share just under 1 is the noise of counting returns per second: taken as 1. */
  @Test
  void aShareAboveTheNoiseIsTakenAsOne() {
    ShowUps showUps = new ShowUps();
    tellAndSeeBack(showUps, 20, 100, 90);
    assertThat(showUps.share(T0.plusSeconds(20))).isEqualTo(1);
  }

  /**
   * Users told to come back in a second, none of whom came back in the next: they went away, also
   * when no claim at all came meanwhile. One who came back, or too few told, say otherwise.
   */
  @Test
  void nobodyCameBackWhenUsersWereDueAndNoneReturned() {
    ShowUps showUps = new ShowUps();
    for (int i = 0; i < 30; i++) {
      showUps.told(T0, T0.plusMillis(1_500)); // due in the second after T0's
    }
    assertThat(showUps.nobodyCameBack(T0.plusMillis(2_500))).as("the second of returns not over").isFalse();
    assertThat(showUps.nobodyCameBack(T0.plusSeconds(3))).as("no claim since T0").isTrue();

    ShowUps oneBack = new ShowUps();
    for (int i = 0; i < 30; i++) {
      oneBack.told(T0, T0.plusMillis(1_500));
    }
    oneBack.back(T0.plusMillis(2_100));
    assertThat(oneBack.nobodyCameBack(T0.plusSeconds(3))).isFalse();

    ShowUps few = new ShowUps();
    few.told(T0, T0.plusMillis(1_500));
    assertThat(few.nobodyCameBack(T0.plusSeconds(3))).isFalse();
  }

  /**
   * Users due early in a second who come back in that same second (a Retry-After rounded up to
   * whole seconds brings them back less than a second after their time) came back: the book is not
   * given up for them in the second after, when nobody is due.
   */
  @Test
  void usersBackInTheSecondTheyWereDueInCameBack() {
    ShowUps showUps = new ShowUps();
    for (int i = 0; i < 30; i++) {
      showUps.told(T0, T0.plusMillis(1_100)); // due early in the second after T0's
    }
    for (int i = 0; i < 30; i++) {
      showUps.back(T0.plusMillis(1_300 + i)); // and back within it
    }
    assertThat(showUps.nobodyCameBack(T0.plusMillis(2_100))).isFalse();
    assertThat(showUps.nobodyCameBack(T0.plusMillis(3_100))).isFalse();
  }

  /**
   * For {@code seconds} seconds, tells {@code told} users a second to come back within that second,
   * and sees {@code back} of the users of the second before come back.
   */
  private static void tellAndSeeBack(ShowUps showUps, int seconds, int told, int back) {
    for (int s = 0; s < seconds; s++) {
      Instant now = T0.plusSeconds(s);
      for (int i = 0; i < told; i++) {
        showUps.told(now, now);
      }
      for (int i = 0; s > 0 && i < back; i++) {
        showUps.back(now.plusMillis(10));
      }
    }
  }

  /** Few users told say nothing; after minutes without claims the share starts again at 1. */
  @Test
  void fewUsersOrAGapSayNothing() {
    ShowUps showUps = new ShowUps();
    for (int s = 0; s < 5; s++) {
      showUps.told(T0.plusSeconds(s), T0.plusSeconds(s));
    }
    assertThat(showUps.share(T0.plusSeconds(5))).as("one a second is too few").isEqualTo(1);

    for (int s = 5; s < 10; s++) {
      for (int i = 0; i < 100; i++) {
        showUps.told(T0.plusSeconds(s), T0.plusSeconds(s));
      }
    }
    assertThat(showUps.share(T0.plusSeconds(10))).isZero();
    assertThat(showUps.share(T0.plusSeconds(200))).as("after minutes without claims").isEqualTo(1);
  }
}
