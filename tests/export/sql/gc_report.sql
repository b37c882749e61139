-- gc_report.sql — the GC report of examples/gclog from the tables of `evgen export --sql`, for every
-- trace loaded (docs/fleet.md quotes it; tests/export/sql/test_sql.py checks it against gclog).
--   psql -d DATABASE -f gc_report.sql
-- It makes the view gc_log (one row per GC) for the session, then prints one row per trace: its GCs,
-- the longest pause of a blocking GC, and the peak size after a GC (GCHeapStats, in bytes) of each
-- generation and of the whole heap.
--
-- The rules are gclog's (examples/gclog/gclog.h, which restates PerfView's):
--   - a GC is a GCStart whose Count differs from the trace's previous GCStart's;
--   - its suspension is the last GCSuspendEEBegin before it whose Reason is SuspendForGC or
--     SuspendForGCPrep, if that thread's next GCRestartEEEnd comes after the GCStart (the GC started
--     while the runtime was suspended for it); its pause runs from that GCSuspendEEBegin (from its own
--     GCStart for a GC of Reason PMFullGC) to that GCRestartEEEnd;
--   - only blocking GCs (Type NonConcurrentGC or ForegroundGC; a version 0 GCStart has no Type and is
--     one) are timed here. A background GC's pause adds up its own suspensions, and the ephemeral GC
--     CoreCLR runs at a background GC's start is timed from its GCStart: gclog does both, this report
--     does not (their pause is NULL, or for that ephemeral GC, longer).
CREATE TEMP VIEW gc_log AS
WITH starts AS (
    SELECT trace_id, seq, timestamp_ns, reason, coalesce(type, 0) AS type, count,
           lag(count) OVER (PARTITION BY trace_id ORDER BY seq) AS previous_count
    FROM gcstart
), gcs AS (
    SELECT * FROM starts WHERE previous_count IS DISTINCT FROM count
), timed AS (
    SELECT g.trace_id, g.seq,
           r.timestamp_ns - CASE WHEN g.reason IN (SELECT value FROM enum_gcreason WHERE name = 'PMFullGC')
                                 THEN g.timestamp_ns ELSE s.timestamp_ns END AS pause_ns
    FROM gcs g
    CROSS JOIN LATERAL (                 -- the suspension for a GC the GC started in ...
        SELECT b.seq, b.thread_id, b.timestamp_ns FROM gcsuspendeebegin b
        WHERE b.trace_id = g.trace_id AND b.seq < g.seq
          AND b.reason IN (SELECT value FROM enum_gcsuspendeereason WHERE name IN ('SuspendForGC', 'SuspendForGCPrep'))
        ORDER BY b.seq DESC LIMIT 1) s
    CROSS JOIN LATERAL (                 -- ... and the restart that ends it, after the GCStart
        SELECT r.seq, r.timestamp_ns FROM gcrestarteeend r
        WHERE r.trace_id = g.trace_id AND r.thread_id = s.thread_id AND r.seq > s.seq
        ORDER BY r.seq LIMIT 1) r
    WHERE r.seq > g.seq
      AND g.type IN (SELECT value FROM enum_gctype WHERE name IN ('NonConcurrentGC', 'ForegroundGC'))
)
SELECT g.trace_id, g.count AS number, g.timestamp_ns AS start_ns, t.name AS type, timed.pause_ns
FROM gcs g
LEFT JOIN timed USING (trace_id, seq)
LEFT JOIN enum_gctype t ON t.value = g.type;

WITH heaps AS (
    SELECT trace_id, max(generationsize0) AS gen0, max(generationsize1) AS gen1, max(generationsize2) AS gen2,
           max(generationsize3) AS loh, max(generationsize4) AS poh,
           max(generationsize0 + generationsize1 + generationsize2 + generationsize3 + coalesce(generationsize4, 0))
               AS heap
    FROM gcheapstats GROUP BY trace_id
)
SELECT t.trace_id, t.file,
       (SELECT count(*) FROM gc_log g WHERE g.trace_id = t.trace_id) AS gcs,
       round((SELECT max(pause_ns) FROM gc_log g WHERE g.trace_id = t.trace_id) / 1e6, 3) AS max_pause_ms,
       h.gen0, h.gen1, h.gen2, h.loh, h.poh, h.heap
FROM traces t LEFT JOIN heaps h USING (trace_id)
ORDER BY t.file, t.trace_id;
