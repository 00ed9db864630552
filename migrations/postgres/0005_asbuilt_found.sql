-- What an as-built check found, kept as the report needs it (its counts, by switch and by rail,
-- and the first cables not as planned), as JSON. A check kept from now on keeps this instead
-- of the output it read, whose size the upload limit alone bounds; checks kept before keep
-- their output (and an empty `found`), from which they are run again when shown.
ALTER TABLE asbuilt_checks ADD COLUMN found TEXT NOT NULL DEFAULT '';
