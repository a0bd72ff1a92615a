package flashclaim.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiContract} refuses answers that the document does not describe, without a service:
 * an undeclared status, a missing required header, an undeclared header of the API, a body off its
 * schema, a wrong content type, a success on a path the document lacks; and lets through what it
 * describes.
 */
class ApiContractTest {
  private static final String JSON = "application/json";
  private static final String PROBLEM = "application/problem+json";
  private static final String CLAIMS = "/v1/campaigns/spring-sale/claims";
  private static final String CLAIM =
      "{\"campaignId\":\"spring-sale\",\"code\":\"A1\",\"claimedAt\":\"2026-11-25T10:00:00Z\"}";

  private static Api.Response answer(
      int status, String contentType, String body, String... headers) {
    Map<String, List<String>> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (contentType != null) {
      all.put("Content-Type", List.of(contentType));
    }
    for (int i = 0; i < headers.length; i += 2) {
      all.put(headers[i], List.of(headers[i + 1]));
    }
    return new Api.Response(status, all, body);
  }

  private static String problem(String type, int status) {
    return "{\"type\":\"urn:flashclaim:problem:" + type + "\",\"title\":\"t\",\"status\":" + status
        + ",\"detail\":\"d\",\"instance\":\"/x\"}";
  }

  @Test
  void whatTheDocumentDescribesPasses() {
    ApiContract.check("POST", CLAIMS, answer(201, JSON, CLAIM));
    ApiContract.check("POST", CLAIMS, answer(410, PROBLEM, problem("sold-out", 410)));
    ApiContract.check(
        "POST",
        CLAIMS,
        answer(
            503,
            PROBLEM,
            problem("busy", 503),
            "Retry-After",
            "1",
            "Flashclaim-Retry-After-Ms",
            "480",
            "Flashclaim-Ticket",
            "t"));
    ApiContract.check(
        "POST",
        "/v1/webhooks/redemptions",
        answer(409, PROBLEM, problem("invalid-transition", 409)));
    ApiContract.check("GET", "/v1/nothing", answer(404, PROBLEM, problem("not-found", 404)));
    ApiContract.check("GET", "/health", answer(200, JSON, "{\"status\":\"UP\"}"));
  }

  @Test
  void anAnswerTheDocumentDoesNotDescribeFails() {
    assertFails("POST", CLAIMS, answer(418, PROBLEM, problem("busy", 418)), "not declared");
    assertFails("POST", CLAIMS, answer(503, PROBLEM, problem("busy", 503)), "Retry-After");
    assertFails(
        "POST",
        CLAIMS,
        answer(503, PROBLEM, problem("busy", 503), "Retry-After", "1", "Flashclaim-Ticket", "t"),
        "Flashclaim-Retry-After-Ms");
    assertFails("POST", CLAIMS, answer(201, JSON, "{\"code\":\"A1\"}"), "campaignId");
    assertFails("POST", CLAIMS, answer(201, "text/plain", CLAIM), "Content-Type");
    assertFails(
        "POST",
        "/v1/admin/campaigns",
        answer(201, JSON, "{\"id\":\"s\",\"name\":\"s\",\"perUserLimit\":1,\"createdAt\":"
            + "\"2026-11-25T10:00:00Z\",\"stock\":{\"total\":0,\"assigned\":0,\"remaining\":0}}"),
        "Location");
    assertFails(
        "POST",
        CLAIMS,
        answer(410, PROBLEM, problem("sold-out", 410), "Retry-After", "1"),
        "Retry-After is sent but not declared");
    assertFails("GET", "/v1/nothing", answer(200, JSON, "{}"), "a success");
    assertFails("GET", "/v1/nothing", answer(404, "text/html", "<h1>404</h1>"), "content type");
    // An error without a Content-Type fails for HEAD as for GET, though a HEAD answer has no body.
    assertFails("GET", "/", answer(400, null, "", "connection", "close"), "content type");
    assertFails("HEAD", "/", answer(400, null, "", "connection", "close"), "content type");
  }

  private static void assertFails(String method, String target, Api.Response answer, String why) {
    assertThatThrownBy(() -> ApiContract.check(method, target, answer))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(why);
    assertThat(ApiContract.problems(method, target, answer)).isNotEmpty();
  }
}
