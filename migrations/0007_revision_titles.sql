-- Each revision's title beside its spec, so that a design's history lists its revisions without
-- reading every spec (a spec is up to 256 KiB, a design up to 1,000 revisions). Revisions saved
-- before take the title their spec holds.
ALTER TABLE revisions ADD COLUMN title TEXT NOT NULL DEFAULT '';
UPDATE revisions SET title = COALESCE(json_extract(spec_json, '$.title'), '');
