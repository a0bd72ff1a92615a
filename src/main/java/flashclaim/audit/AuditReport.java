package flashclaim.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;
import java.util.List;

/**
 * Result of an audit of G1 (no coupon twice), G2 (per-user limit), G3 (every unassigned coupon can
 * be claimed) and G5 (coupon and claim record match one to one), over the campaign as stored at
 * {@code readAt}. {@code ok} is true when {@code problems} is empty; at most {@link
 * AuditService#MAX_PROBLEMS} problems are listed, {@code problemCount} counts all. {@code pages} is
 * how many pages the audit read.
 */
@Serdeable
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AuditReport(
    boolean ok,
    long coupons,
    long assigned,
    long claims,
    long problemCount,
    List<String> problems,
    Instant readAt,
    long pages) {}
