package flashclaim.testing;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.MessageResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.schema.SchemaValidator;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds every answer that an HTTP test receives ({@link Api}, {@link RawHttp}) to the OpenAPI
 * document the service serves ({@value #DOCUMENT} on the classpath, the resource behind {@code
 * /swagger/flashclaim-v1.yml}), read once per JVM. An answer that breaks it is an {@link
 * AssertionError} in the test that got it.
 *
 * <p>An answer to an operation of the document (the method in any case, as the service reads it;
 * a HEAD as its GET, without a body): its status is one the operation declares, its required
 * headers are there and match their schemas, its content type is one declared for the status and
 * its body matches that content's schema (swagger-request-validator; a replay stored without its
 * body, which the Idempotency-Key parameter allows, has none); none of {@link #OWN_HEADERS} comes
 * without being declared for the status. A status the operation does not declare passes only as
 * one the document's info says any route may answer ({@link #ANY_ROUTE}), as a problem of that
 * status.
 *
 * <p>An answer to a path or method the document does not have: on the operational surfaces
 * ({@link #OPERATIONAL}: health, metrics, the document itself, the static pages, test routes) only
 * a 4xx is checked, as a problem; anywhere else the answer is an error, and a problem. A problem is
 * {@code application/problem+json} matching the document's {@code Problem} schema, with the
 * response's status.
 */
public final class ApiContract {
  static final String DOCUMENT = "META-INF/swagger/flashclaim-v1.yml";

  /** The headers of the API whose presence means something to a client. */
  static final Set<String> OWN_HEADERS =
      Set.of("Retry-After", "Flashclaim-Retry-After-Ms", "Flashclaim-Ticket", "ETag", "Location");

  /** Status -> problem type that the document's info lets any route answer. */
  static final Map<Integer, String> ANY_ROUTE =
      Map.of(
          403, "forbidden",
          404, "not-found",
          405, "method-not-allowed",
          406, "not-acceptable",
          408, "body-timeout",
          413, "payload-too-large",
          414, "uri-too-long",
          415, "unsupported-media-type",
          431, "headers-too-large",
          500, "internal-error");

  /** Path prefixes of answers that are not the API's. */
  static final List<String> OPERATIONAL =
      List.of("/health", "/prometheus", "/swagger", "/app", "/dashboard", "/admin", "/v1/test/");

  private static final String PROBLEM = "application/problem+json";
  private static final Pattern TYPE =
      Pattern.compile("\"type\"\\s*:\\s*\"urn:flashclaim:problem:([a-z-]+)\"");
  private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*(\\d+)");

  private ApiContract() {}

  /** The document, parsed once. */
  private static final class Document {
    static final String TEXT = read();
    static final OpenAPI API = parse();
    static final OpenApiInteractionValidator VALIDATOR =
        OpenApiInteractionValidator.createForInlineApiSpecification(TEXT).build();
    static final SchemaValidator SCHEMAS = new SchemaValidator(API, new MessageResolver());

    private static String read() {
      try (InputStream in = ApiContract.class.getClassLoader().getResourceAsStream(DOCUMENT)) {
        if (in == null) {
          throw new IllegalStateException(DOCUMENT + " is not on the classpath: compile first");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static OpenAPI parse() {
      ParseOptions options = new ParseOptions();
      options.setResolve(true);
      OpenAPI api = new OpenAPIV3Parser().readContents(TEXT, null, options).getOpenAPI();
      if (api == null) {
        throw new IllegalStateException(DOCUMENT + " does not parse");
      }
      return api;
    }
  }

  /** The document's text, as the service serves it. */
  public static String document() {
    return Document.TEXT;
  }

  /**
   * Checks one answer.
   *
   * @param method the request's method as sent
   * @param target the request target as sent (its path, maybe with a query)
   * @throws AssertionError when the answer is not what the document says
   */
  public static void check(String method, String target, Api.Response response) {
    List<String> problems = problems(method, target, response);
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "the answer to "
              + method
              + " "
              + target
              + " is not what the OpenAPI document says:\n  "
              + String.join("\n  ", problems)
              + "\nanswer: "
              + response.status()
              + " "
              + response.headers()
              + " "
              + response.body());
    }
  }

  static List<String> problems(String method, String target, Api.Response response) {
    String path = pathOf(target);
    String read = method.toUpperCase(Locale.ROOT);
    boolean head = read.equals("HEAD");
    String asMethod = head ? "GET" : read;
    Operation operation = path == null ? null : operation(asMethod, path);
    if (operation == null) {
      if (path != null && OPERATIONAL.stream().anyMatch(path::startsWith)) {
        return response.status() / 100 == 4 ? problem(response, head) : List.of();
      }
      if (response.status() < 400) {
        return List.of("a success to a path or method the document does not have");
      }
      return problem(response, head);
    }
    ApiResponse declared = declared(operation, response.status());
    if (declared == null) {
      String type = ANY_ROUTE.get(response.status());
      if (type == null) {
        return List.of(
            "status " + response.status() + " is not declared for " + asMethod + " " + path);
      }
      List<String> found = new ArrayList<>(problem(response, head));
      String sent = problemType(response.body());
      if (!head && !type.equals(sent)) {
        found.add("an undeclared " + response.status() + " must be " + type + ", not " + sent);
      }
      return found;
    }
    List<String> found = new ArrayList<>();
    ValidationReport report =
        Document.VALIDATOR.validateResponse(
            path, Request.Method.valueOf(asMethod), toValidated(response, head));
    boolean bodyless = head || replayedWithoutBody(response) || emptyWithoutSchema(declared, response);
    for (ValidationReport.Message message : report.getMessages()) {
      if (message.getLevel() == ValidationReport.Level.ERROR
          && !(bodyless && message.getKey().startsWith("validation.response.body"))) {
        found.add(message.getKey() + ": " + message.getMessage());
      }
    }
    Set<String> names = declared.getHeaders() == null ? Set.of() : declared.getHeaders().keySet();
    for (String own : OWN_HEADERS) {
      boolean isDeclared = names.stream().anyMatch(own::equalsIgnoreCase);
      if (response.header(own) != null && !isDeclared) {
        found.add(own + " is sent but not declared for " + response.status());
      }
    }
    return found;
  }

  /**
   * Whether the answer is a replay of a result stored without its body, as the Idempotency-Key
   * parameter's description allows.
   */
  private static boolean replayedWithoutBody(Api.Response response) {
    return "true".equals(response.header("Idempotency-Replayed")) && response.body().isEmpty();
  }

  /**
   * Whether the answer has no body and its content type is declared without a schema: a format
   * that may be empty (the NDJSON export of a campaign without claims), which the validator would
   * take for a missing body.
   */
  private static boolean emptyWithoutSchema(ApiResponse declared, Api.Response response) {
    String contentType = response.contentType();
    if (!response.body().isEmpty() || contentType == null || declared.getContent() == null) {
      return false;
    }
    String type = contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
    io.swagger.v3.oas.models.media.MediaType media = declared.getContent().get(type);
    return media != null && media.getSchema() == null;
  }

  /** The checks of a problem answer. */
  private static List<String> problem(Api.Response response, boolean head) {
    List<String> found = new ArrayList<>();
    String contentType = response.contentType();
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(PROBLEM)) {
      found.add("an error's content type is " + contentType + ", not " + PROBLEM);
    }
    if (head) {
      return found;
    }
    Schema<?> schema = Document.API.getComponents().getSchemas().get("Problem");
    ValidationReport report = Document.SCHEMAS.validate(response.body(), schema, "response.body");
    report.getMessages().stream()
        .filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
        .forEach(m -> found.add(m.getKey() + ": " + m.getMessage()));
    Matcher status = STATUS.matcher(response.body());
    if (status.find() && Integer.parseInt(status.group(1)) != response.status()) {
      found.add("the problem's status is " + status.group(1));
    }
    return found;
  }

  private static String problemType(String body) {
    Matcher type = TYPE.matcher(body);
    return type.find() ? type.group(1) : null;
  }

  private static SimpleResponse toValidated(Api.Response response, boolean head) {
    SimpleResponse.Builder builder = SimpleResponse.Builder.status(response.status());
    response.headers().forEach(builder::withHeader);
    if (!head && !response.body().isEmpty()) {
      builder.withBody(response.body());
    }
    return builder.build();
  }

  /** The path of a request target, or null for one that is not a path. */
  private static String pathOf(String target) {
    if (!target.startsWith("/")) {
      return null;
    }
    int end = target.length();
    for (char c : new char[] {'?', '#'}) {
      int at = target.indexOf(c);
      end = at < 0 ? end : Math.min(end, at);
    }
    return target.substring(0, end);
  }

  /** The operation of the document that a method and path name, or null. */
  private static Operation operation(String method, String path) {
    for (Map.Entry<String, PathItem> entry : Document.API.getPaths().entrySet()) {
      String template = entry.getKey().replaceAll("\\{[^/]+}", "\u0000");
      String regex = Pattern.quote(template).replace("\u0000", "\\E[^/]+\\Q");
      if (path.matches(regex)) {
        Map<PathItem.HttpMethod, Operation> operations = entry.getValue().readOperationsMap();
        try {
          return operations.get(PathItem.HttpMethod.valueOf(method));
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }

  /** The response an operation declares for a status, its reference resolved, or null. */
  private static ApiResponse declared(Operation operation, int status) {
    ApiResponse response = operation.getResponses().get(Integer.toString(status));
    if (response != null && response.get$ref() != null) {
      String name = response.get$ref().substring(response.get$ref().lastIndexOf('/') + 1);
      response = Document.API.getComponents().getResponses().get(name);
    }
    return response;
  }
}
