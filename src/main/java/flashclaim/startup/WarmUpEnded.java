package flashclaim.startup;

/**
 * Published once the start-up warm-up is over (done or cut short): readiness may turn UP now, so
 * a cached DOWN answer of it is stale.
 */
public record WarmUpEnded() {}
