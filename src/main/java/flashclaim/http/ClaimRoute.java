package flashclaim.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the claim route, the one way it is recognised ({@link FilterPaths#isClaim}): its requests
 * pass its pacing (429 to a retry sooner than its 503 said) and the claim edge (App Check, answers
 * without the store, fair admission by first arrival with a ticket on every 503) instead of the
 * fixed bound of the other API routes.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ClaimRoute {

  /** The path variable that names the campaign, which a ticket is good for. */
  String value() default "id";
}
