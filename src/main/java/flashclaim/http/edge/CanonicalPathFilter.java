package flashclaim.http.edge;

import flashclaim.http.FilterOrder;
import flashclaim.http.problem.ProblemType;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * One spelling per route: a request whose method is not spelled in capitals is answered 405, and
 * one whose raw path is not canonical 404, before any
 * other filter (load shedding, authentication, body limits, idempotency, the guard) or route sees
 * it. The router forgives a trailing slash and decodes escapes, while the filters match the path
 * as written; refusing every other spelling means that no request reaches a route with one of its
 * filters skipped.
 *
 * <p>Canonical is {@code /}, or {@code /} followed by segments separated by single slashes, where
 * no segment is empty (no {@code //}, no trailing slash), {@code .} or {@code ..}, none holds
 * {@code \} or {@code ;}, and every percent-escape is well formed and stands for a byte that must
 * be escaped: never an unreserved character (letters, digits, {@code - . _ ~}, which are written
 * as they are), a slash, a backslash, a semicolon or a percent sign. Outside the API ({@code
 * /v1/}) a trailing slash is allowed: it names a directory of static pages, as in {@code
 * /dashboard/}.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
final class CanonicalPathFilter implements Ordered {
  private static final String API = "/v1/";

  @Override
  public int getOrder() {
    return FilterOrder.CANONICAL_PATH;
  }

  @RequestFilter
  @Nullable
  HttpResponse<?> check(HttpRequest<?> request) {
    if (!request.getMethodName().equals(request.getMethod().name())) {
      // The router takes "post" for POST; methods are case-sensitive (RFC 9110), and a filter
      // that compares the name as sent would let it past.
      return ProblemType.METHOD_NOT_ALLOWED.response(
          "methods are case-sensitive: " + request.getMethod().name() + " is the only spelling",
          request.getPath());
    }
    String raw = request.getUri().getRawPath();
    if (isCanonical(raw)) {
      return null;
    }
    return ProblemType.NOT_FOUND.response(
        "no route has this path; paths take no trailing or doubled slash, dot segment or"
            + " escaped separator",
        request.getPath());
  }

  /** Whether {@code raw} (a path as it came, escapes not decoded) is the one spelling of itself. */
  static boolean isCanonical(@Nullable String raw) {
    if (raw == null || raw.isEmpty() || raw.charAt(0) != '/') {
      return false;
    }
    if (raw.length() == 1) {
      return true;
    }
    String path = raw.endsWith("/") && !raw.startsWith(API) ? raw.substring(0, raw.length() - 1) : raw;
    for (String segment : path.substring(1).split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
      for (int i = 0; i < segment.length(); i++) {
        char c = segment.charAt(i);
        if (c == '\\' || c == ';') {
          return false;
        }
        if (c == '%') {
          int decoded = i + 2 < segment.length() ? hexByte(segment, i + 1) : -1;
          if (decoded < 0 || mustNotBeEscaped(decoded)) {
            return false;
          }
          i += 2;
        }
      }
    }
    return true;
  }

  private static int hexByte(String s, int at) {
    int high = Character.digit(s.charAt(at), 16);
    int low = Character.digit(s.charAt(at + 1), 16);
    return high < 0 || low < 0 ? -1 : high * 16 + low;
  }

  private static boolean mustNotBeEscaped(int b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || "-._~/\\;%".indexOf(b) >= 0;
  }
}
