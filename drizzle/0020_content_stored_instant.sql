-- A content entry's stored date (`2026-01-15`, midnight UTC, or a date-time ending in Z) as a timestamp.
-- Declared immutable, which a cast of text to timestamptz is not (it reads DateStyle and TimeZone): the
-- stored forms carry their offset and are ISO 8601, so neither setting changes the answer, and an index
-- of a filterable date field can hold it (src/content/field-values.ts).
CREATE FUNCTION atrium_stored_instant(stored text) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (CASE WHEN length(stored) = 10 THEN stored || 'T00:00:00Z' ELSE stored END)::timestamptz;
