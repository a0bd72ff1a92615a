-- A claim attempt in one call, so that a claim is one round trip (store/postgres/
-- PostgresClaimStore). Each statement of a volatile PL/pgSQL function reads with a snapshot of its
-- own, so the statements after the advisory lock see every claim of the user committed before the
-- lock was granted.
--
-- result, one of:
--   'won'       one row: the coupon assigned now, with the claim record (G1, G5);
--   'held'      one row per claim of the user, by slot: the slot is filled or the limit reached
--               (G2, G4); nothing was written;
--   'locked'    one row: unassigned coupons exist, but claims in flight hold all of them; they may
--               still roll back, so this is no "sold out" (G3);
--   'none_left' one row: no unassigned coupon exists.
CREATE FUNCTION claim_coupon(
  p_campaign     text,
  p_user         text,
  p_slot         integer,
  p_limit        integer,
  p_claimed_at   timestamptz,
  p_campaign_key integer,
  p_user_key     integer)
RETURNS TABLE (result text, held_code text, held_slot integer, held_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  from_order double precision;
  picked     text;
BEGIN
  -- Serializes the claims of one user in one campaign until the transaction ends; different users
  -- run in parallel. A wait ends at the caller's lock_timeout.
  PERFORM pg_advisory_xact_lock(p_campaign_key, p_user_key);

  IF EXISTS (
      SELECT 1 FROM claims c
      WHERE c.campaign_id = p_campaign AND c.user_key = p_user
      HAVING count(*) >= p_limit OR bool_or(c.slot = p_slot)) THEN
    RETURN QUERY
      SELECT 'held', c.code, c.slot, c.claimed_at FROM claims c
      WHERE c.campaign_id = p_campaign AND c.user_key = p_user
      ORDER BY c.slot;
    RETURN;
  END IF;

  -- SKIP LOCKED: concurrent claims of different users never wait on each other's coupon. The
  -- pick starts at a random place in the pool's index (pick_order is random() too), so concurrent
  -- claims do not all step over the coupons just locked or just assigned at its head; it starts
  -- at the head only when nothing after that place is free.
  FOREACH from_order IN ARRAY ARRAY[random(), '-Infinity'::double precision] LOOP
    UPDATE coupons u SET assigned_to = p_user, claim_slot = p_slot, assigned_at = p_claimed_at
    WHERE u.campaign_id = p_campaign AND u.code = (
      SELECT f.code FROM coupons f
      WHERE f.campaign_id = p_campaign AND f.assigned_to IS NULL AND f.pick_order >= from_order
      ORDER BY f.pick_order LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING u.code INTO picked;
    EXIT WHEN picked IS NOT NULL;
  END LOOP;

  IF picked IS NOT NULL THEN
    INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)
    VALUES (p_campaign, p_user, p_slot, picked, p_claimed_at);
    RETURN QUERY SELECT 'won', picked, p_slot, p_claimed_at;
  ELSIF EXISTS (
      SELECT 1 FROM coupons f WHERE f.campaign_id = p_campaign AND f.assigned_to IS NULL) THEN
    RETURN QUERY SELECT 'locked', NULL::text, NULL::integer, NULL::timestamptz;
  ELSE
    RETURN QUERY SELECT 'none_left', NULL::text, NULL::integer, NULL::timestamptz;
  END IF;
END;
$$;
