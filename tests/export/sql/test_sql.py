#!/usr/bin/python3
"""test_sql.py — `evgen export --sql` and `evgen gen --sql` checked by their real consumer: a
throwaway PostgreSQL server (initdb in a temporary directory, a Unix socket only, run as an
unprivileged user, always stopped at the end) loads what they write, and

- `evgen gen --sql` of manifest/gcevents.h and of every good manifest of tests/manifests/good is
  byte for byte the schema.sql of an export of their golden traces, and PostgreSQL runs it (and the
  DDL of `evgen gen --from-lock --sql`), then loads the export into what it made;
- every row of every table equals what `evgen dump --json` prints of the same event (values of
  every kind, arrays in child tables, raw tails), and every column the event's version lacks is
  NULL (golden traces hold every version);
- the golden traces and the real .NET Core 3.0 trace given twice (two trace ids) load with
  `psql -f load.sql`; the tables count what `evgen dump --stats` counts, per event version;
- tests/export/sql/gc_report.sql, which docs/fleet.md quotes whole, reproduces examples/gclog on
  the same traces: the GCs of each trace, each blocking GC's pause and the longest one (to 0.001
  ms), the peak size of each generation after a GC;
- the naming and merging rules (tests/export/sql/manifests: fields named like fixed columns,
  names equal once lower-cased, a field retyped within its family and out of it, an event name two
  providers share) give the columns and tables docs/fleet.md says;
- an export loaded twice is refused whole (traces.trace_id), and a cut trace exports what is
  readable, exits 1 naming the problem, and loads.

Usage: test_sql.py --evgen EVGEN --gclog GCLOG --source-dir DIR [--quick] [--keep]
--quick leaves out the real trace's value-by-value comparison (for sanitizer builds).
Exit status 0, 1 with each failed check on stderr, or 77 (skipped) without PostgreSQL's server."""
import argparse
import datetime
import glob
import json
import os
import pwd
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zipfile

SKIP = 77
REAL_TRACE = "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"
LEADING = ["trace_id", "seq", "thread_id", "timestamp_ns", "time", "version"]
CHILD_LEADING = ["trace_id", "seq", "idx"]

failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)
    return ok


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


# ---- the server ---------------------------------------------------------------------------------


def postgres_bindir():
    """The newest PostgreSQL server's binaries (Debian: /usr/lib/postgresql/N/bin), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(re.sub(r"\D", "", p.split("/")[4]) or 0))
    if found:
        return os.path.dirname(found[-1])
    pg_config = shutil.which("pg_config")
    if pg_config:
        bindir = run([pg_config, "--bindir"]).stdout.strip()
        if os.path.exists(os.path.join(bindir, "initdb")):
            return bindir
    return None


class Postgres:
    """A server of its own in `root`: PostgreSQL refuses to run as root, so as root the server runs
    as nobody (its directory given to nobody); psql, a client, runs as the caller."""

    def __init__(self, bindir, root):
        self.bindir = bindir
        self.dir = os.path.join(root, "pg")
        self.data = os.path.join(self.dir, "data")
        os.mkdir(self.dir)
        self.as_user = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chmod(root, 0o755)
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            if shutil.which("setpriv"):
                self.as_user = ["setpriv", "--reuid=%d" % nobody.pw_uid, "--regid=%d" % nobody.pw_gid, "--clear-groups"]
            else:
                self.as_user = ["runuser", "-u", "nobody", "--"]
        self.started = False

    def tool(self, name):
        return os.path.join(self.bindir, name)

    def start(self):
        r = run(self.as_user + [self.tool("initdb"), "-D", self.data, "--auth=trust", "-U", "evgen", "-E", "UTF8",
                                "--no-locale", "--no-sync"])
        if r.returncode != 0:
            raise RuntimeError("initdb failed: " + r.stderr)
        options = "-c listen_addresses='' -k %s -c fsync=off -c full_page_writes=off -c synchronous_commit=off" % self.dir
        r = run(self.as_user + [self.tool("pg_ctl"), "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w",
                                "-t", "60", "-o", options, "start"])
        self.started = r.returncode == 0
        if not self.started:
            log = open(os.path.join(self.dir, "log")).read() if os.path.exists(os.path.join(self.dir, "log")) else ""
            raise RuntimeError("the server did not start: " + r.stderr + log)

    def stop(self):
        if self.started:
            run(self.as_user + [self.tool("pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"])
            self.started = False

    def psql(self, db, *args, cwd=None):
        """psql's result: (exit status, stdout, stderr)."""
        r = run([self.tool("psql"), "-X", "-h", self.dir, "-U", "evgen", "-d", db, "-v", "ON_ERROR_STOP=1", "-q"]
                + list(args), cwd=cwd)
        return r.returncode, r.stdout, r.stderr

    def query(self, db, sql):
        """Rows of one query, unaligned, fields split on |."""
        status, out, err = self.psql(db, "-A", "-t", "-F", "|", "-c", sql)
        if status != 0:
            raise RuntimeError("query failed: %s\n%s" % (sql[:300], err))
        return [line.split("|") for line in out.splitlines() if line]

    def json_lines(self, db, statements):
        """Each statement returns one JSON value on one line: the values, in order."""
        script = "".join(s.rstrip(";") + ";\n" for s in statements)
        status, out, err = self.psql(db, "-A", "-t", "-c", script)
        if status != 0:
            raise RuntimeError("query failed: " + err)
        values = [json.loads(line) for line in out.splitlines() if line]
        if len(values) != len(statements):
            raise RuntimeError("expected %d results, got %d" % (len(statements), len(values)))
        return values

    def create(self, db):
        self.query("postgres", 'CREATE DATABASE "%s"' % db)


# ---- evgen's side -------------------------------------------------------------------------------


def ident(name):
    """A metadata name as the schema names its column (docs/fleet.md, "Names")."""
    s = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if s[:1].isdigit():
        s = "_" + s
    return (s or "_")[:63]


def dump_json(evgen, trace):
    r = run([evgen, "dump", "--json", trace])
    return [json.loads(line) for line in r.stdout.splitlines()], r.returncode


def dump_stats(evgen, trace):
    """{(provider, event, version): count} and the total, from `evgen dump --stats`."""
    r = run([evgen, "dump", "--stats", trace])
    counts, total, section = {}, None, None
    for line in r.stdout.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line
            continue
        m = re.match(r"^\s*(\d+)\s+\d+\s+(.+)_V(\d+) \((.+)\)$", line)
        if section == "events:" and m:
            key = (m.group(4), m.group(2), int(m.group(3)))
            counts[key] = counts.get(key, 0) + int(m.group(1))
        m = re.match(r"^totals: (\d+) events", line)
        if m:
            total = int(m.group(1))
    return counts, total


def thousandths(value):
    """gclog's rounding (examples/common/units.c): nanoseconds or bytes to thousandths of ms or MB."""
    return value // 1000 + (value % 1000 >= 500)


def parse_gclog(text):
    """gclog's lines: {number: {"type", "pause" (thousandths of ms) or None, "sizes" {gen: thousandths MB}}}
    and the count it prints."""
    gcs, count = {}, None
    for line in text.splitlines():
        m = re.match(r"^GC #(\d+): \S+ (\S+) .*?, at [\d.]+ ms, (pause [^,]*), (after [^,]*)", line)
        if m:
            p = re.match(r"pause (\d+)\.(\d{3}) ms( \(final mark [^)]*\))?$", m.group(3))
            sizes = dict((g, int(a) * 1000 + int(b)) for g, a, b in re.findall(r"(gen0|gen1|gen2|LOH|POH) (\d+)\.(\d{3})",
                                                                               m.group(4)))
            gcs[int(m.group(1))] = {"type": m.group(2), "pause": int(p.group(1)) * 1000 + int(p.group(2)) if p else None,
                                    "sizes": sizes}
        m = re.match(r"^(\d+) GCs$", line)
        if m:
            count = int(m.group(1))
    return gcs, count


# ---- comparing a database with evgen dump ---------------------------------------------------------


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def as_float(v):
    return float(v) if not isinstance(v, str) else {"NaN": float("nan"), "Infinity": float("inf"),
                                                       "-Infinity": float("-inf")}[v]


def same_value(dumped, stored, sql_type):
    """Whether a value dump printed (JSON) is the value the column holds (row_to_json)."""
    if stored is None:
        return False
    if sql_type in ("smallint", "integer", "bigint", "numeric"):
        if isinstance(dumped, str) and dumped.startswith("0x"):  # a pointer: bigint holds its 64 bits
            return int(dumped, 16) == int(stored) % (1 << 64)
        return isinstance(dumped, int) and int(stored) == dumped
    if sql_type == "boolean":
        return stored == bool(dumped)
    if sql_type in ("real", "double precision"):
        a, b = as_float(dumped), as_float(stored)
        if a != a or b != b:
            return a != a and b != b
        return (f32(a) == f32(b)) if sql_type == "real" else a == b
    if sql_type == "bytea":
        return stored == "\\x" + dumped
    return stored == dumped  # uuid, text


class Database:
    """What one database holds, fetched once: event tables, columns and types, and rows."""

    def __init__(self, pg, db, trace_ids):
        self.pg, self.db = pg, db
        self.tables = {}  # (provider, event) -> table
        self.children = {}  # (provider, event, field) -> child table
        for table, provider, event, field in pg.query(db, "SELECT table_name, provider, event, coalesce(field, '') "
                                                          "FROM event_tables"):
            if field:
                self.children[(provider, event, field)] = table
            else:
                self.tables[(provider, event)] = table
        self.types = {}
        for table, column, sql_type in pg.query(db, "SELECT table_name, column_name, data_type FROM "
                                                    "information_schema.columns WHERE table_schema = 'public'"):
            self.types.setdefault(table, {})[column] = sql_type
        names = sorted(self.tables.values()) + sorted(self.children.values())
        where = "WHERE trace_id IN (%s)" % ",".join(str(i) for i in trace_ids)
        values = pg.json_lines(db, ["SELECT replace(coalesce(json_agg(t ORDER BY trace_id, seq%s), '[]')::text, E'\\n', ' ') "
                                    "FROM \"%s\" t %s"
                                    % (", idx" if n in self.children.values() else "", n, where) for n in names])
        self.rows = {}  # table -> {(trace_id, seq): row, or a list of element rows}
        for name, rows in zip(names, values):
            by_event = self.rows.setdefault(name, {})
            for row in rows:
                key = (row["trace_id"], row["seq"])
                if name in self.children.values():
                    by_event.setdefault(key, []).append(row)
                else:
                    by_event[key] = row
        self.start = dict((int(i), int(s)) for i, s in pg.query(db, "SELECT trace_id, start_unix_ns FROM traces"))

    def column(self, table, name, leading):
        col = ident(name)
        if col in leading + ["raw"]:  # a field named like a fixed column takes the suffix _2
            col = col + "_2"
        return col if col in self.types[table] else None

    def compare_trace(self, label, trace_id, lines):
        """Every dump line against its rows; returns the number of values compared."""
        compared = 0
        problems = 0
        for seq, line in enumerate(lines):
            if problems > 10:
                check(False, "%s: more differences left out" % label)
                break
            table = self.tables.get((line["provider"], line["event"]))
            if not check(table is not None, "%s: no table for %s (%s)" % (label, line["event"], line["provider"])):
                problems += 1
                continue
            row = self.rows[table].get((trace_id, seq))
            where = "%s: %s seq %d (%s v%d)" % (label, table, seq, line["event"], line["version"])
            if not check(row is not None, where + ": no row"):
                problems += 1
                continue
            ok = check(row["thread_id"] == line["thread"] and row["timestamp_ns"] == line["timestamp_ns"] and
                       row["version"] == line["version"], where + ": thread, timestamp or version differ")
            unix_ns = self.start[trace_id] + line["timestamp_ns"]
            expected = datetime.datetime.fromtimestamp(unix_ns // 1000 / 1e6, datetime.timezone.utc)
            ok &= check(datetime.datetime.fromisoformat(row["time"]) == expected, where + ": time %s, not %s"
                        % (row["time"], expected))
            seen = set(LEADING)
            for name, value in line["fields"].items():
                if name == "raw":
                    ok &= check(same_value(value, row["raw"], "bytea"), where + ": raw %r, not %r" % (row["raw"], value))
                    seen.add("raw")
                    continue
                if isinstance(value, list):
                    ok &= self.compare_array(where, table, line, name, value, (trace_id, seq))
                    continue
                col = self.column(table, name, LEADING)
                if not check(col is not None, where + ": no column for field " + name):
                    ok = False
                    continue
                seen.add(col)
                ok &= check(same_value(value, row[col], self.types[table][col]),
                            where + ": %s = %r, not %r" % (col, row[col], value))
                compared += 1
            absent = [c for c in self.types[table] if c not in seen and row[c] is not None]
            ok &= check(not absent, where + ": columns not in the dump are not NULL: %s" % absent)
            problems += not ok
        return compared

    def compare_array(self, where, table, line, name, values, key):
        child = self.children.get((line["provider"], line["event"], name))
        if not check(child is not None, where + ": no child table for " + name):
            return False
        elements = self.rows[child].get(key, [])
        if not check([e["idx"] for e in elements] == list(range(len(values))),
                     where + ": %s holds %d elements, not %d" % (child, len(elements), len(values))):
            return False
        ok = True
        for value, element in zip(values, elements):
            members = value.items() if isinstance(value, dict) else [("value", value)]
            for member, v in members:
                col = self.column(child, member, CHILD_LEADING) if isinstance(value, dict) else "value"
                ok &= check(col is not None and same_value(v, element[col], self.types[child][col]),
                            where + ": %s[%d].%s = %r, not %r" % (child, element["idx"], member,
                                                                  element.get(col), v))
        return ok


def compare_with_dump(pg, db, evgen, traces):
    """traces: [(label, path, trace_id)] — every event of each against the database."""
    database = Database(pg, db, [t[2] for t in traces])
    total = 0
    for label, path, trace_id in traces:
        lines, _ = dump_json(evgen, path)
        total += database.compare_trace(label, trace_id, lines)
    return total


def compare_counts(pg, db, evgen, traces):
    """Rows per table, trace and version against `evgen dump --stats`."""
    tables = pg.query(db, "SELECT table_name, provider, event FROM event_tables WHERE field IS NULL")
    union = " UNION ALL ".join("SELECT '%s', trace_id, version, count(*) FROM \"%s\" GROUP BY 2, 3" % (t, t)
                               for t, _, _ in tables)
    stored = {}
    for table, trace_id, version, count in pg.query(db, union):
        stored[(table, int(trace_id), int(version))] = int(count)
    name = dict(((p, e), t) for t, p, e in tables)
    events = dict((int(i), int(n)) for i, n in pg.query(db, "SELECT trace_id, events FROM traces"))
    for label, path, trace_id in traces:
        counts, total = dump_stats(evgen, path)
        expected = dict(((name.get((p, e)), trace_id, v), n) for (p, e, v), n in counts.items())
        mine = dict((k, n) for k, n in stored.items() if k[1] == trace_id)
        check(expected == mine, "%s: rows per table and version differ from evgen dump --stats: %s"
              % (label, sorted(set(expected.items()) ^ set(mine.items()))[:6]))
        check(events.get(trace_id) == total, "%s: traces.events %s, dump counts %s" % (label, events.get(trace_id), total))


# ---- the checks ---------------------------------------------------------------------------------


def export(evgen, out, traces):
    t0 = time.monotonic()
    r = run([evgen, "export", "--sql", out] + traces)
    return r, time.monotonic() - t0


def load(pg, db, directory):
    t0 = time.monotonic()
    status, _, err = pg.psql(db, "-f", "load.sql", cwd=directory)
    return status, err, time.monotonic() - t0


def gen_sql(evgen, manifest, out):
    """`evgen gen MANIFEST -o OUT --sql`: the path of NAME.sql."""
    os.makedirs(out)
    r = run([evgen, "gen", manifest, "-o", out, "--sql"])
    sql = glob.glob(os.path.join(out, "*.sql"))
    check(r.returncode == 0 and len(sql) == 1, "evgen gen --sql %s: %s" % (manifest, r.stderr))
    return sql[0] if sql else None


def check_manifest(pg, evgen, manifest, goldens, work, db):
    """gen --sql against the export of the manifest's golden traces, both loaded, and every value."""
    name = os.path.basename(manifest)
    ddl = gen_sql(evgen, manifest, os.path.join(work, "gen"))
    out = os.path.join(work, "export")
    r, _ = export(evgen, out, goldens)
    if not ddl or not check(r.returncode == 0, "export of %s's golden traces: %s" % (name, r.stderr)):
        return
    check(open(os.path.join(out, "schema.sql")).read() == open(ddl).read(),
          "%s: evgen gen --sql differs from the export's schema.sql" % name)
    pg.create(db)
    status, _, err = pg.psql(db, "-f", ddl)
    check(status == 0, "%s: PostgreSQL refuses evgen gen --sql's DDL: %s" % (name, err))
    status, err, _ = load(pg, db, out)
    if not check(status == 0, "%s: load.sql into the database gen --sql made: %s" % (name, err)):
        return
    ids = dict((f, int(i)) for i, f in pg.query(db, "SELECT trace_id, file FROM traces"))
    traces = [(os.path.basename(g), g, ids[g]) for g in goldens]
    compare_counts(pg, db, evgen, traces)
    n = compare_with_dump(pg, db, evgen, traces)
    print("ok %s: gen --sql is the export's schema; %d traces, %d values as evgen dump prints them"
          % (name, len(goldens), n))


def check_from_lock(pg, evgen, source, work, goldens):
    """`evgen gen --from-lock LOCK --sql`: the schema of what the lock froze (a lock records no enum
    constants: no enum tables), which PostgreSQL runs and an export of the golden traces loads into."""
    out = os.path.join(work, "from-lock")
    os.makedirs(out)
    r = run([evgen, "gen", "--from-lock", os.path.join(source, "manifest/gcevents.lock"), "-o", out, "--name",
             "gcevents", "--sql"])
    ddl = os.path.join(out, "gcevents.sql")
    if not check(r.returncode == 0 and os.path.exists(ddl), "evgen gen --from-lock --sql: %s" % r.stderr):
        return
    pg.create("from_lock")
    status, _, err = pg.psql("from_lock", "-f", ddl)
    check(status == 0, "PostgreSQL refuses evgen gen --from-lock --sql's DDL: " + err)
    status, err, _ = load(pg, "from_lock", os.path.join(work, "gcevents", "export"))
    if check(status == 0, "load.sql into the database gen --from-lock --sql made: " + err):
        print("ok gen --from-lock --sql: PostgreSQL runs it, and the golden traces' export loads into it")


def check_names(pg, evgen, source, work):
    """The naming and merging rules on tests/export/sql/manifests: names-a.h and names-b.h define
    Evgen-Sql-A's Sample twice (Value an integer, then a string; Width 16, then 64 bits) and each a
    Shared of its own provider; names-a.h's Sample has fields named seq, Raw, Mode and MODE."""
    traces = []
    for stem in ("names-a", "names-b"):
        here = os.path.join(work, "names", stem)
        os.makedirs(here)
        r = run([evgen, "lock", os.path.join(source, "tests/export/sql/manifests", stem + ".h"), "--lock",
                 os.path.join(here, stem + ".lock"), "--traces", here])
        found = glob.glob(os.path.join(here, "*.evtrace"))
        if not check(r.returncode == 0 and len(found) == 1, "evgen lock --traces %s: %s" % (stem, r.stderr)):
            return
        traces += found
    out = os.path.join(work, "names", "export")
    r, _ = export(evgen, out, traces)
    if not check(r.returncode == 0, "export of names-a and names-b: " + r.stderr):
        return
    pg.create("names")
    status, err, _ = load(pg, "names", out)
    if not check(status == 0, "load.sql of names-a and names-b: " + err):
        return
    columns = pg.query("names", "SELECT column_name, data_type FROM information_schema.columns "
                                "WHERE table_name = 'sample' ORDER BY ordinal_position")
    check([tuple(c) for c in columns[6:]] == [("value", "bigint"), ("width", "numeric"), ("seq_2", "integer"),
                                              ("raw_2", "smallint"), ("mode", "bigint"), ("mode_2", "bigint"),
                                              ("value_v0", "text"), ("raw", "bytea")],
          "sample's columns: a field per name and family, widened, suffixed: %s" % columns)
    shared = pg.query("names", "SELECT table_name, provider FROM event_tables WHERE event = 'Shared' ORDER BY 1")
    check([tuple(t) for t in shared] == [("evgen_sql_a_shared", "Evgen-Sql-A"), ("evgen_sql_b_shared", "Evgen-Sql-B")],
          "an event two providers define: a table each, provider-qualified: %s" % shared)
    # Each trace's Sample in its columns, the other trace's columns NULL.
    where = {"names-a": {"Value": "value", "Width": "width", "seq": "seq_2", "Raw": "raw_2", "Mode": "mode",
                         "MODE": "mode_2"},
             "names-b": {"Value": "value_v0", "Width": "width"}}
    names = ["value", "width", "seq_2", "raw_2", "mode", "mode_2", "value_v0"]
    for path in traces:
        mapping = where[os.path.basename(os.path.dirname(path))]
        line = [l for l in dump_json(evgen, path)[0] if l["event"] == "Sample"][0]
        rows = pg.query("names", "SELECT %s FROM sample s JOIN traces t USING (trace_id) WHERE t.file = '%s'"
                        % (", ".join("coalesce(%s::text, 'NULL')" % n for n in names), path))
        expected = [str(line["fields"][f]) if f else "NULL"
                    for f in [next((k for k, v in mapping.items() if v == n), None) for n in names]]
        check(rows == [expected], "%s: Sample's row %s, not %s" % (os.path.basename(path), rows, expected))
    print("ok names: leading names suffixed, names equal once lower-cased apart, a retyped field widened or "
          "in a column of its own, shared event names provider-qualified")


def check_good_manifests(pg, evgen, source, work):
    """Every language feature (tests/manifests/good): golden traces from `evgen lock --traces`."""
    for i, manifest in enumerate(sorted(glob.glob(os.path.join(source, "tests/manifests/good/*.h")))):
        stem = os.path.splitext(os.path.basename(manifest))[0]
        here = os.path.join(work, "good", stem)
        os.makedirs(os.path.join(here, "traces"))
        r = run([evgen, "lock", manifest, "--lock", os.path.join(here, stem + ".lock"), "--traces",
                 os.path.join(here, "traces")])
        goldens = sorted(glob.glob(os.path.join(here, "traces", "*.evtrace")))
        if check(r.returncode == 0 and goldens, "evgen lock --traces %s: %s" % (stem, r.stderr)):
            check_manifest(pg, evgen, manifest, goldens, here, "good%d" % i)


def check_fleet(pg, args, work, goldens):
    """The golden traces and the real trace twice, one export, one load; gclog's report in SQL."""
    zip_path = os.path.join(args.source_dir, "..", "shared", "reference", "traces", REAL_TRACE + ".zip")
    if not os.path.exists(zip_path):
        print("skipped the real trace: %s is missing" % zip_path)
        return None
    real_dir = os.path.join(work, "real")
    with zipfile.ZipFile(zip_path) as z:
        z.extract(REAL_TRACE, real_dir)
    real = os.path.join(real_dir, REAL_TRACE)
    traces = goldens + [real, real]
    out = os.path.join(work, "fleet")
    r, seconds = export(args.evgen, out, traces)
    if not check(r.returncode == 0, "export of the fleet: %s" % r.stderr):
        return
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    pg.create("fleet")
    status, err, load_seconds = load(pg, "fleet", out)
    if not check(status == 0, "load.sql of the fleet: %s" % err):
        return
    print("ok fleet: %d traces exported in %.2f s (%.1f MB), loaded in %.2f s"
          % (len(traces), seconds, size / 1e6, load_seconds))
    rows = pg.query("fleet", "SELECT trace_id, file FROM traces ORDER BY file, trace_id")
    check(len(rows) == len(traces) and len(set(r[0] for r in rows)) == len(traces),
          "every trace its own trace id: %s" % rows)
    real_ids = [int(i) for i, f in rows if f == real]
    labelled = [(os.path.basename(f), f, int(i)) for i, f in rows]
    compare_counts(pg, "fleet", args.evgen, labelled)
    golden_rows = [t for t in labelled if t[1] != real]
    real_rows = [t for t in labelled if t[1] == real]
    n = compare_with_dump(pg, "fleet", args.evgen, golden_rows if args.quick else golden_rows + real_rows[:1])
    print("ok fleet: rows per table and version as evgen dump --stats counts; %d values as evgen dump prints them%s"
          % (n, "" if not args.quick else " (golden traces)"))
    check_gc_report(pg, args, labelled, real_ids)
    return real

    # A trace loaded again is refused, and nothing of the load stays.
    status, _, err = pg.psql("fleet", "-f", "load.sql", cwd=out)
    again = pg.query("fleet", "SELECT count(*) FROM traces")[0][0]
    check(status != 0 and "trace" in err and int(again) == len(traces),
          "loading the same export twice is refused whole (status %d, %s traces): %s" % (status, again, err))


def check_gc_report(pg, args, traces, real_ids):
    report = os.path.join(args.source_dir, "tests/export/sql/gc_report.sql")
    doc = open(os.path.join(args.source_dir, "docs/fleet.md")).read()
    check("```sql\n" + open(report).read() + "```" in doc, "docs/fleet.md quotes gc_report.sql as it is")
    status, out, err = pg.psql("fleet", "-A", "-t", "-F", "|", "-f", report, "-c",
                               "SELECT '#', trace_id, number, pause_ns FROM gc_log")
    if not check(status == 0, "gc_report.sql: " + err):
        return
    summary, pauses = {}, {}
    for line in out.splitlines():
        f = line.split("|")
        if f[0] == "#":
            if f[3]:
                pauses.setdefault(int(f[1]), {})[int(f[2])] = int(f[3])
        elif len(f) == 10:
            summary[int(f[0])] = f
    for label, path, trace_id in traces:
        r = run([args.gclog, path])
        gcs, count = parse_gclog(r.stdout)
        row = summary.get(trace_id)
        if not check(row is not None, "%s: no row in gc_report.sql's output" % label):
            continue
        check(int(row[2]) == count, "%s: gc_report counts %s GCs, gclog %s" % (label, row[2], count))
        if trace_id not in real_ids:
            continue
        blocking = dict((n, g["pause"]) for n, g in gcs.items()
                        if g["pause"] is not None and g["type"] in ("NonConcurrent", "Foreground"))
        mine = dict((n, thousandths(p)) for n, p in pauses.get(trace_id, {}).items())
        far = [(n, p, mine.get(n)) for n, p in blocking.items() if mine.get(n) is None or abs(mine[n] - p) > 1]
        check(blocking and not far and len(mine) == len(blocking),
              "%s: %d blocking GCs' pauses in gc_log, gclog %d; differences %s" % (label, len(mine), len(blocking), far[:5]))
        longest = max(blocking.values()) if blocking else None
        check(longest is not None and row[3] and abs(round(float(row[3]) * 1000) - longest) <= 1,
              "%s: longest pause %s ms, gclog %s" % (label, row[3], longest))
        for k, gen in enumerate(["gen0", "gen1", "gen2", "LOH", "POH"]):
            printed = [g["sizes"][gen] for g in gcs.values() if gen in g["sizes"]]
            peak = row[4 + k]
            check((not printed and not peak) or (printed and peak and thousandths(int(peak)) == max(printed)),
                  "%s: peak %s %s bytes, gclog %s MB" % (label, gen, peak, max(printed) if printed else None))
        print("ok %s: %s GCs, longest pause %s ms, every blocking GC's pause as gclog's" % (label, row[2], row[3]))


def check_cut(pg, args, work, trace):
    """A cut trace: what is readable exported, exit 1 with the problem named, the export loads."""
    data = open(trace, "rb").read()
    cut = os.path.join(work, "cut-" + os.path.basename(trace))
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 3 // 5])
    out = os.path.join(work, "cut")
    r, _ = export(args.evgen, out, [cut])
    check(r.returncode == 1 and (cut + ": offset ") in r.stderr and os.path.exists(os.path.join(out, "load.sql")),
          "export of a cut trace: status %d, %s" % (r.returncode, r.stderr))
    pg.create("cut")
    status, err, _ = load(pg, "cut", out)
    if check(status == 0, "load.sql of a cut trace: " + err):
        rows = pg.query("cut", "SELECT trace_id, status, problems FROM traces")
        check(rows and rows[0][1] in ("truncated", "corrupt") and int(rows[0][2]) > 0, "cut trace's row: %s" % rows)
        compare_counts(pg, "cut", args.evgen, [("cut", cut, int(rows[0][0]))])
        print("ok cut trace: exported up to the cut (%s), status 1, loaded" % rows[0][1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--evgen", required=True)
    parser.add_argument("--gclog", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    bindir = postgres_bindir()
    if not bindir:
        print("skipped: no PostgreSQL server (initdb) found; scripts/deps.sh installs postgresql-15")
        return SKIP
    # A socket path holds at most 107 bytes: a short temporary directory.
    base = tempfile.gettempdir() if len(tempfile.gettempdir()) < 40 else "/tmp"
    work = tempfile.mkdtemp(prefix="evgen-sql-", dir=base)
    pg = Postgres(bindir, work)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(1))
    try:
        pg.start()
        goldens = sorted(glob.glob(os.path.join(args.source_dir, "tests/traces/gcevents/*.evtrace")))
        check_manifest(pg, args.evgen, os.path.join(args.source_dir, "manifest/gcevents.h"), goldens,
                       os.path.join(work, "gcevents"), "gcevents")
        check_from_lock(pg, args.evgen, args.source_dir, work, goldens)
        check_good_manifests(pg, args.evgen, args.source_dir, work)
        check_names(pg, args.evgen, args.source_dir, work)
        real = check_fleet(pg, args, work, goldens)
        check_cut(pg, args, work, goldens[0] if args.quick or not real else real)
    finally:
        pg.stop()
        if args.keep:
            print("kept " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
