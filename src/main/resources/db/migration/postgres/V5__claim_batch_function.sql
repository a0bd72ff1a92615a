-- Claim attempts of several users in one call and one transaction, so that the claims that reach
-- an instance together share one round trip and one commit (store/postgres/PostgresClaimStore).
-- Each attempt is the one of claim_coupon (V4), which stays for instances of the previous version
-- during a rolling upgrade, except that the user's advisory lock is tried, not waited for: a lock
-- that another transaction holds answers 'busy' and the caller tries again, so one user's wait
-- never holds up the other attempts of the call. Each statement of a volatile PL/pgSQL function
-- reads with a snapshot of its own, so the statements after the lock see every claim of the user
-- committed before it was granted; the lock is re-entrant within the transaction, so a second
-- attempt of the same user in one call sees the first one's claim.
--
-- The arrays are parallel, one element per attempt; item is the attempt's 1-based index. Rows:
--   'won'       one: the coupon assigned now, with its claim record (G1, G5);
--   'held'      one per claim of the user, by slot: the slot is filled or the limit reached (G2,
--               G4); nothing was written for this attempt;
--   'busy'      one: the user's lock is held by another claim in flight;
--   'locked'    one: unassigned coupons exist, but claims in flight hold all of them; they may
--               still roll back, so this is no "sold out" (G3);
--   'none_left' one: no unassigned coupon exists.
CREATE FUNCTION claim_coupons(
  p_campaigns     text[],
  p_users         text[],
  p_slots         integer[],
  p_limits        integer[],
  p_campaign_keys integer[],
  p_user_keys     integer[],
  p_claimed_at    timestamptz)
RETURNS TABLE (item integer, result text, held_code text, held_slot integer, held_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  i          integer;
  campaign   text;
  claimant   text;
  from_order double precision;
  picked     text;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
    campaign := p_campaigns[i];
    claimant := p_users[i];
    item := i;
    held_code := NULL;
    held_slot := NULL;
    held_at := NULL;

    IF NOT pg_try_advisory_xact_lock(p_campaign_keys[i], p_user_keys[i]) THEN
      result := 'busy';
      RETURN NEXT;
      CONTINUE;
    END IF;

    IF EXISTS (
        SELECT 1 FROM claims c
        WHERE c.campaign_id = campaign AND c.user_key = claimant
        HAVING count(*) >= p_limits[i] OR bool_or(c.slot = p_slots[i])) THEN
      RETURN QUERY
        SELECT i, 'held'::text, c.code, c.slot, c.claimed_at FROM claims c
        WHERE c.campaign_id = campaign AND c.user_key = claimant
        ORDER BY c.slot;
      CONTINUE;
    END IF;

    -- SKIP LOCKED: concurrent claims of different users never wait on each other's coupon. The
    -- pick starts at a random place in the pool's index (pick_order is random() too), so
    -- concurrent claims do not all step over the coupons just locked or just assigned at its
    -- head; it starts at the head only when nothing after that place is free.
    picked := NULL;
    FOREACH from_order IN ARRAY ARRAY[random(), '-Infinity'::double precision] LOOP
      UPDATE coupons u
         SET assigned_to = claimant, claim_slot = p_slots[i], assigned_at = p_claimed_at
       WHERE u.campaign_id = campaign AND u.code = (
             SELECT f.code FROM coupons f
              WHERE f.campaign_id = campaign AND f.assigned_to IS NULL
                AND f.pick_order >= from_order
              ORDER BY f.pick_order LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING u.code INTO picked;
      EXIT WHEN picked IS NOT NULL;
    END LOOP;

    IF picked IS NOT NULL THEN
      INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)
      VALUES (campaign, claimant, p_slots[i], picked, p_claimed_at);
      result := 'won';
      held_code := picked;
      held_slot := p_slots[i];
      held_at := p_claimed_at;
    ELSIF EXISTS (
        SELECT 1 FROM coupons f WHERE f.campaign_id = campaign AND f.assigned_to IS NULL) THEN
      result := 'locked';
    ELSE
      result := 'none_left';
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
