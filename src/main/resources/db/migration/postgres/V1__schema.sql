-- The PostgreSQL layout of flashclaim (README, "PostgreSQL store"). Lean on purpose: every index
-- costs on every claim and every seeded coupon.

CREATE TABLE campaigns (
  id             text        PRIMARY KEY,
  name           text        NOT NULL,
  per_user_limit integer     NOT NULL,
  starts_at      timestamptz,
  ends_at        timestamptz,
  created_at     timestamptz NOT NULL
);

-- A coupon is identified by its code within its campaign. assigned_to is the holder's user key
-- (SHA-256 of the user id) and claim_slot the slot of the claim record that names it; both are
-- null while the coupon is in the pool. pick_order spreads the handing out over the pool.
CREATE TABLE coupons (
  campaign_id      text             NOT NULL,
  code             text             NOT NULL,
  pick_order       double precision NOT NULL DEFAULT random(),
  assigned_to      text,
  claim_slot       integer,
  assigned_at      timestamptz,
  redemption_state text,
  order_id         text,
  redeemed_at      timestamptz,
  cancelled_at     timestamptz,
  PRIMARY KEY (campaign_id, code)
);

-- The claim path's only scan: the unassigned coupons of a campaign. Partial, so it shrinks as the
-- pool drains.
CREATE INDEX coupons_unassigned ON coupons (campaign_id, pick_order) WHERE assigned_to IS NULL;
-- Webhooks that name only a code find its campaign.
CREATE INDEX coupons_code ON coupons (code);

-- One row per claim; the primary key holds a slot to one claim record (G2).
CREATE TABLE claims (
  campaign_id text        NOT NULL,
  user_key    text        NOT NULL,
  slot        integer     NOT NULL,
  code        text        NOT NULL,
  claimed_at  timestamptz NOT NULL,
  PRIMARY KEY (campaign_id, user_key, slot)
);

-- Per-key lease locks: never deleted, so the fencing token never restarts. version grows with
-- every write; each write but the first is conditional on it.
CREATE TABLE locks (
  lock_id      text        PRIMARY KEY,
  fence        bigint      NOT NULL,
  owner        text,
  locked_until timestamptz NOT NULL,
  version      bigint      NOT NULL
);

-- Modification guards; version identifies one creation of a guard.
CREATE TABLE guards (
  lock_id    text        PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  version    timestamptz NOT NULL
);

-- Idempotency records: in flight while status is null, completed with the stored response.
CREATE TABLE idempotency (
  record_id    text        PRIMARY KEY,
  fingerprint  text        NOT NULL,
  expires_at   timestamptz NOT NULL,
  version      timestamptz NOT NULL,
  status       integer,
  content_type text,
  location     text,
  body         bytea,
  body_stored  boolean     NOT NULL DEFAULT false
);
