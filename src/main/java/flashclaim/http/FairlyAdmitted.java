package flashclaim.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a route whose requests pass {@link ClaimAdmissionFilter}: the adaptive limit, the wait in
 * order of first arrival, and the {@code Flashclaim-Ticket} on every 503. Other API routes have
 * {@link LoadShedFilter}'s fixed bound.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface FairlyAdmitted {

  /** The path variable that names what a ticket is good for (the campaign). */
  String value() default "id";
}
