-- A design: a stable, unguessable id and a title. Its content lives in revisions.
CREATE TABLE designs (
    id            TEXT    PRIMARY KEY NOT NULL,
    title         TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL
);

-- Every save appends an immutable revision: the spec with its schema version, the engine
-- version that evaluated it, and a snapshot of the report.
CREATE TABLE revisions (
    design_id      TEXT    NOT NULL REFERENCES designs (id),
    number         INTEGER NOT NULL CHECK (number >= 1),
    schema_version INTEGER NOT NULL,
    spec_json      TEXT    NOT NULL,
    engine_version TEXT    NOT NULL,
    report_json    TEXT    NOT NULL,
    created_at_ms  INTEGER NOT NULL,
    PRIMARY KEY (design_id, number)
);
