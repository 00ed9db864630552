-- Ownership without accounts: each design keeps the SHA-256 of its edit key (designs stored
-- before keys existed have none: they can be viewed and duplicated, not changed).
ALTER TABLE designs ADD COLUMN edit_key_hash TEXT;

-- The newest revision and when it was saved, kept on the design so that listing designs reads
-- one row per design.
ALTER TABLE designs ADD COLUMN latest_revision INTEGER NOT NULL DEFAULT 1;
ALTER TABLE designs ADD COLUMN updated_at_ms INTEGER NOT NULL DEFAULT 0;
UPDATE designs SET
    latest_revision = (SELECT MAX(number) FROM revisions WHERE revisions.design_id = designs.id),
    updated_at_ms = (SELECT MAX(created_at_ms) FROM revisions WHERE revisions.design_id = designs.id);

-- What changed in a revision, in the words of whoever saved it.
ALTER TABLE revisions ADD COLUMN note TEXT NOT NULL DEFAULT '';

CREATE INDEX designs_by_update ON designs (updated_at_ms);
