-- As-built checks: what a built fabric reported about itself (ibnetdiscover, or one switch's
-- LLDP neighbour table), kept with the revision it was checked against, dated. The output is
-- kept as given, so any check can be run again; the counts are what the check found on the day
-- it was made, the record its history is drawn from.
CREATE TABLE asbuilt_checks (
    design_id     TEXT    NOT NULL REFERENCES designs (id),
    number        BIGINT  NOT NULL CHECK (number >= 1),
    revision      BIGINT  NOT NULL,
    fabric        TEXT    NOT NULL,
    tool          TEXT    NOT NULL CHECK (tool IN ('ibnetdiscover', 'lldp')),
    device        TEXT    NOT NULL,
    label         TEXT    NOT NULL,
    checked_on    TEXT    NOT NULL,
    output        TEXT    NOT NULL,
    as_planned    BIGINT  NOT NULL CHECK (as_planned >= 0),
    missing       BIGINT  NOT NULL CHECK (missing >= 0),
    swapped       BIGINT  NOT NULL CHECK (swapped >= 0),
    degraded      BIGINT  NOT NULL CHECK (degraded >= 0),
    extra         BIGINT  NOT NULL CHECK (extra >= 0),
    created_at_ms BIGINT  NOT NULL,
    PRIMARY KEY (design_id, number),
    FOREIGN KEY (design_id, revision) REFERENCES revisions (design_id, number)
);
