-- The additions counter of the sold-out fast path: coupons ever added to the campaign's pool. The
-- seeding statement moves it in the same transaction as its inserts, so a claim that reads it by
-- id knows whether coupons appeared since it last saw the pool empty.
ALTER TABLE campaigns ADD COLUMN coupons_added bigint NOT NULL DEFAULT 0;

UPDATE campaigns SET coupons_added = (SELECT count(*) FROM coupons WHERE coupons.campaign_id = campaigns.id);
