package flashclaim.testing;

import io.micronaut.core.type.Argument;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A plain HTTP client for tests (the JDK's): it never throws on an error status, so tests assert
 * on every status and body the service sends. Every answer is held to the OpenAPI document first
 * ({@link ApiContract}): one that breaks it fails the test that got it.
 */
public final class Api {
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .executor(Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "test-http");
            t.setDaemon(true);
            return t;
          }))
          .build();

  private Api() {}

  /** A response with its body as text and, when it is JSON, parsed. */
  public record Response(int status, Map<String, List<String>> headers, String body) {
    public Map<String, Object> json() {
      try {
        return ObjectMapper.getDefault().readValue(body, Argument.mapOf(String.class, Object.class));
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + body, e);
      }
    }

    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .flatMap(e -> e.getValue().stream())
          .findFirst()
          .orElse(null);
    }

    public String contentType() {
      return header("content-type");
    }

    @Override
    public String toString() {
      return status + " " + body;
    }
  }

  public static Response get(URI base, String path, String token) {
    return send(request(base, path, token).GET().build());
  }

  public static Response post(URI base, String path, String token, String json) {
    HttpRequest.Builder request =
        request(base, path, token)
            .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    return send(request.build());
  }

  /** Sends any request, for tests that need odd methods, headers or bodies. */
  public static Response send(HttpRequest request) {
    try {
      HttpResponse<String> sent = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      Response response = new Response(sent.statusCode(), sent.headers().map(), sent.body());
      String query = request.uri().getRawQuery();
      ApiContract.check(
          request.method(),
          request.uri().getRawPath() + (query == null ? "" : "?" + query),
          response);
      return response;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Polls {@code /health/readiness} (with {@code token}, for the details) every 100 ms until it
   * answers 200, and returns that answer; fails when it has not within {@code within}.
   */
  public static Response awaitReady(URI base, String token, Duration within) {
    long end = System.nanoTime() + within.toNanos();
    while (true) {
      Response ready = get(base, "/health/readiness", token);
      if (ready.status() == 200) {
        return ready;
      }
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("not ready within " + within + ": " + ready);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  public static HttpRequest.Builder request(URI base, String path, String token) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  /**
   * Creates a campaign and seeds it with {@code coupons} codes, as an admin. Like any good client it
   * retries a 503 (a slow store on a loaded machine); the codes are given, not generated, so that
   * a retry adds nothing twice, and a 409 after a retried create means the first one landed.
   */
  public static void createCampaign(URI base, String id, int perUserLimit, int coupons) {
    createCampaign(base, id, perUserLimit, coupons, null, null);
  }

  /** As {@link #createCampaign(URI, String, int, int)}, open from {@code startsAt} to {@code endsAt} (null: open-ended). */
  public static void createCampaign(
      URI base, String id, int perUserLimit, int coupons, Instant startsAt, Instant endsAt) {
    String campaign =
        "{\"id\":\"" + id + "\",\"name\":\"" + id + "\",\"perUserLimit\":" + perUserLimit
            + (startsAt == null ? "" : ",\"startsAt\":\"" + startsAt + "\"")
            + (endsAt == null ? "" : ",\"endsAt\":\"" + endsAt + "\"")
            + "}";
    Response created = postRetrying503(base, "/v1/admin/campaigns", campaign);
    if (created.status() != 201 && created.status() != 409) {
      throw new IllegalStateException("create campaign: " + created);
    }
    if (coupons > 0) {
      StringBuilder codes = new StringBuilder("{\"codes\":[");
      for (int i = 0; i < coupons; i++) {
        codes.append(i == 0 ? "" : ",").append('"').append(id).append('-').append(i).append('"');
      }
      codes.append("]}");
      Response added =
          postRetrying503(base, "/v1/admin/campaigns/" + id + "/coupons", codes.toString());
      if (added.status() != 200) {
        throw new IllegalStateException("add coupons: " + added);
      }
    }
  }

  private static Response postRetrying503(URI base, String path, String json) {
    return retrying503(() -> post(base, path, Tokens.admin(), json));
  }

  /**
   * An admin's GET that, like any good client, retries a 503 (a store that did not answer in time
   * on a loaded machine) a few times before it gives up and returns the last answer.
   */
  public static Response getRetrying503(URI base, String path) {
    return retrying503(() -> get(base, path, Tokens.admin()));
  }

  /**
   * The answer to {@code call}, sent again while it is 503 (a loaded machine's store that did not
   * answer in time, or admission's refusal) or 429 (a retry sooner than told), up to ten times,
   * each after the answer's Retry-After (half a second without one), as a client does.
   */
  public static Response retrying503(Supplier<Response> call) {
    Response response = call.get();
    for (int retry = 0;
        retry < 10 && (response.status() == 503 || response.status() == 429);
        retry++) {
      String retryAfter = response.header("Retry-After");
      long millis =
          retryAfter != null && retryAfter.matches("\\d{1,2}")
              ? Long.parseLong(retryAfter) * 1_000
              : 500;
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      response = call.get();
    }
    return response;
  }
}
