-- PostgreSQL's schema of designs: the same tables as the SQLite migrations beside this folder,
-- at their latest version, with 64-bit integers where SQLite's INTEGER is already 64 bits.

-- A design: a stable, unguessable id, its newest title and revision, and the SHA-256 of its
-- edit key (the key itself is never stored).
CREATE TABLE designs (
    id              TEXT   PRIMARY KEY NOT NULL,
    title           TEXT   NOT NULL,
    created_at_ms   BIGINT NOT NULL,
    edit_key_hash   TEXT,
    latest_revision BIGINT NOT NULL DEFAULT 1,
    updated_at_ms   BIGINT NOT NULL DEFAULT 0
);

-- Every save appends an immutable revision: the spec with its schema version, the engine
-- version that evaluated it, a snapshot of the report, and the note of whoever saved it.
CREATE TABLE revisions (
    design_id      TEXT   NOT NULL REFERENCES designs (id),
    number         BIGINT NOT NULL CHECK (number >= 1),
    schema_version BIGINT NOT NULL,
    spec_json      TEXT   NOT NULL,
    engine_version TEXT   NOT NULL,
    report_json    TEXT   NOT NULL,
    created_at_ms  BIGINT NOT NULL,
    note           TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (design_id, number)
);

CREATE INDEX designs_by_update ON designs (updated_at_ms);
