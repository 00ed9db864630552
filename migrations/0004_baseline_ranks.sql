-- The ranks and nodes of a baseline's run as the person adding it stated them, for output whose
-- launcher printed only some of its rank lines. NULL: read from the output.
ALTER TABLE baselines ADD COLUMN ranks INTEGER CHECK (ranks IS NULL OR ranks >= 1);
ALTER TABLE baselines ADD COLUMN nodes INTEGER CHECK (nodes IS NULL OR nodes >= 1);
