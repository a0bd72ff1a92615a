-- Campaigns change after creation (PATCH /v1/admin/campaigns/{id}): paused stops claims, version
-- moves by one with every change. Each change is recorded in campaign_changes, in the transaction
-- of the change: who (the admin token's subject), when, and the changed fields with their values
-- before and after, as text (null for an open-ended bound), in the order of the fields array.
ALTER TABLE campaigns ADD COLUMN paused boolean NOT NULL DEFAULT false;
ALTER TABLE campaigns ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- GET /v1/admin/campaigns: newest first, paged by (created_at, id).
CREATE INDEX campaigns_newest ON campaigns (created_at DESC, id DESC);

CREATE TABLE campaign_changes (
  campaign_id text        NOT NULL REFERENCES campaigns (id),
  version     bigint      NOT NULL,
  changed_by  text        NOT NULL,
  changed_at  timestamptz NOT NULL,
  fields      text[]      NOT NULL,
  before      text[]      NOT NULL,
  after       text[]      NOT NULL,
  PRIMARY KEY (campaign_id, version)
);
