-- Baselines: nccl-tests runs an operator measured on the built fabric, each kept with the
-- revision of the design it was measured against, dated, as pasted (the engine parses the text
-- whenever it shows it, so the stored run is exactly what was given).
CREATE TABLE baselines (
    design_id     TEXT    NOT NULL REFERENCES designs (id),
    number        INTEGER NOT NULL CHECK (number >= 1),
    revision      INTEGER NOT NULL,
    fabric        TEXT    NOT NULL,
    label         TEXT    NOT NULL,
    measured_on   TEXT    NOT NULL,
    output        TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (design_id, number),
    FOREIGN KEY (design_id, revision) REFERENCES revisions (design_id, number)
);
