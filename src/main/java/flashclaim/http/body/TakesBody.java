package flashclaim.http.body;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller or route that takes a body larger than the default limit ({@code
 * flashclaim.http.bodies.default-max-size}); {@link BodyLimitFilter} holds every other body to the
 * default.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface TakesBody {

  /** Which limit applies. */
  Limit value();

  /** The limits of {@link BodyConfig}. */
  enum Limit {
    /** {@code admin-max-size} for callers with the admin role; the default limit for others. */
    ADMIN,
    /** {@code webhook-max-size}, for anyone: shop systems sign their bodies, not their requests. */
    WEBHOOK,
    /**
     * {@code file-max-size} for callers with the admin role, streamed: the route reads the body as
     * it arrives and holds it to the limit itself ({@link StreamedBody}); no filter waits for it or
     * reads it. The default limit for others, as {@link #ADMIN}.
     */
    FILE
  }
}
