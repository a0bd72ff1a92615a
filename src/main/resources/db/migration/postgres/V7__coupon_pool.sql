-- The coupons still to be claimed get a table of their own, so that taking one writes no index
-- entry (store/postgres/PostgresClaimStore, docs/postgres.md).
--
-- Until V6 a claim picked from the partial index coupons_unassigned (WHERE assigned_to IS NULL)
-- and set assigned_to. The new row version no longer matched the index's predicate, so PostgreSQL
-- could not update it in place: every claim wrote a new heap row and an entry into each of the
-- coupons' two other indexes, and left a dead entry behind in the third. Now:
--
--   coupon_pool  one row per unassigned coupon, indexed by (campaign_id, pick_order). A claim
--                deletes the row it picks, which marks it dead and writes no index entry.
--   coupons      keeps every coupon with its assignment and redemption, as before. No index
--                covers the columns a claim or a redemption sets, and pages keep room
--                (fillfactor 70), so both update the row in place (a HOT update): no index entry.
--
-- Coupons reach the pool through a statement trigger on coupons, whoever inserts them, so an
-- instance of an earlier version that seeds during a rolling upgrade fills the pool too. A claim
-- deletes the pool row and assigns the coupon in one transaction, and assigns only a coupon that
-- is still unassigned: a pool row without its coupon, or for an assigned one, is skipped and
-- removed, never handed out (G1).

CREATE TABLE coupon_pool (
  campaign_id text             NOT NULL,
  pick_order  double precision NOT NULL,
  code        text             NOT NULL
);

INSERT INTO coupon_pool (campaign_id, pick_order, code)
SELECT campaign_id, pick_order, code FROM coupons WHERE assigned_to IS NULL;

CREATE INDEX coupon_pool_pick ON coupon_pool (campaign_id, pick_order);

DROP INDEX coupons_unassigned;

-- Room for the assignment and the redemption on each page; applies to the pages written from now
-- on (a table rewrite, such as VACUUM FULL, applies it to the existing ones).
ALTER TABLE coupons SET (fillfactor = 70);

CREATE FUNCTION coupons_to_pool() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO coupon_pool (campaign_id, pick_order, code)
  SELECT campaign_id, pick_order, code FROM added WHERE assigned_to IS NULL;
  RETURN NULL;
END;
$$;

CREATE TRIGGER coupons_to_pool AFTER INSERT ON coupons
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION coupons_to_pool();

-- As in V5, with the pick from the pool. Rows:
--   'won'       one: the coupon assigned now, with its claim record (G1, G5);
--   'held'      one per claim of the user, by slot: the slot is filled or the limit reached (G2,
--               G4); nothing was written for this attempt;
--   'busy'      one: the user's lock is held by another claim in flight;
--   'locked'    one: pool rows exist, but claims in flight hold all of them; they may still roll
--               back, so this is no "sold out" (G3);
--   'none_left' one: the campaign's pool is empty.
CREATE OR REPLACE FUNCTION claim_coupons(
  p_campaigns     text[],
  p_users         text[],
  p_slots         integer[],
  p_limits        integer[],
  p_campaign_keys integer[],
  p_user_keys     integer[],
  p_claimed_at    timestamptz)
RETURNS TABLE (item integer, result text, held_code text, held_slot integer, held_at timestamptz)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off -- see V6
AS $$
DECLARE
  i          integer;
  campaign   text;
  claimant   text;
  from_order double precision;
  picked     text;
  assigned   boolean;
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

    -- SKIP LOCKED: concurrent claims of different users never wait on each other's pool row. The
    -- pick starts at a random place in the pool's index (pick_order is random() too), so
    -- concurrent claims do not all step over the rows just locked or just taken at its head; it
    -- starts at the head only when nothing after that place is free.
    assigned := false;
    <<pick>>
    LOOP
      picked := NULL;
      FOREACH from_order IN ARRAY ARRAY[random(), '-Infinity'::double precision] LOOP
        DELETE FROM coupon_pool p
         WHERE p.ctid = (
               SELECT f.ctid FROM coupon_pool f
                WHERE f.campaign_id = campaign AND f.pick_order >= from_order
                ORDER BY f.campaign_id, f.pick_order LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING p.code INTO picked;
        EXIT WHEN picked IS NOT NULL;
      END LOOP;
      EXIT pick WHEN picked IS NULL;

      UPDATE coupons u
         SET assigned_to = claimant, claim_slot = p_slots[i], assigned_at = p_claimed_at
       WHERE u.campaign_id = campaign AND u.code = picked AND u.assigned_to IS NULL;
      assigned := FOUND;
      EXIT pick WHEN assigned; -- otherwise the row was stale, and is gone now: pick again
    END LOOP;

    IF assigned THEN
      INSERT INTO claims (campaign_id, user_key, slot, code, claimed_at)
      VALUES (campaign, claimant, p_slots[i], picked, p_claimed_at);
      result := 'won';
      held_code := picked;
      held_slot := p_slots[i];
      held_at := p_claimed_at;
    ELSIF EXISTS (SELECT 1 FROM coupon_pool f WHERE f.campaign_id = campaign) THEN
      result := 'locked';
    ELSE
      result := 'none_left';
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;

-- The one-attempt function of V4, for instances of that version during a rolling upgrade: the
-- same attempt as claim_coupons, after waiting for the user's lock (up to lock_timeout) as V4 did,
-- so that it never answers 'busy'.
CREATE OR REPLACE FUNCTION claim_coupon(
  p_campaign     text,
  p_user         text,
  p_slot         integer,
  p_limit        integer,
  p_claimed_at   timestamptz,
  p_campaign_key integer,
  p_user_key     integer)
RETURNS TABLE (result text, held_code text, held_slot integer, held_at timestamptz)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(p_campaign_key, p_user_key);
  RETURN QUERY
    SELECT c.result, c.held_code, c.held_slot, c.held_at
    FROM claim_coupons(ARRAY[p_campaign], ARRAY[p_user], ARRAY[p_slot], ARRAY[p_limit],
                       ARRAY[p_campaign_key], ARRAY[p_user_key], p_claimed_at) c;
END;
$$;
