package flashclaim.guard;

import java.time.Instant;

/**
 * A guard this request holds: its document and the version it created, which is what it releases
 * (never a later version another request created after taking over a stale one).
 */
public record Guard(String lockId, Instant version) {}
