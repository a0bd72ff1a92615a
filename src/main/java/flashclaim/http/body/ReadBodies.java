package flashclaim.http.body;

import io.micronaut.http.HttpRequest;

/** Whether a request's body was read to its end, so that its connection is fit for the next. */
final class ReadBodies {
  private static final String ATTRIBUTE = ReadBodies.class.getName();

  private ReadBodies() {}

  /** Marks the body of {@code request} as read to its end. */
  static void mark(HttpRequest<?> request) {
    request.setAttribute(ATTRIBUTE, Boolean.TRUE);
  }

  /** Whether {@link #mark} was called for {@code request}. */
  static boolean wasRead(HttpRequest<?> request) {
    return request.getAttribute(ATTRIBUTE).isPresent();
  }
}
