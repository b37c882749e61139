#!/usr/bin/python3
"""check_perfetto.py — `evgen export --perfetto` read back by a real JSON parser (Python's json,
numbers parsed exactly as decimals) and checked against `evgen dump --json` of the same trace.

For each trace (the real .NET traces of ../shared/reference/traces, unzipped here; the golden traces
of tests/traces/gcevents; a trace of every event version of each manifest of tests/manifests/good,
written by its fire_to_file program; a trace of gcheapstats_simulate --all-events, which has
background GCs with foreground GCs inside them):
  - the document: an object with "traceEvents", "displayTimeUnit": "ns", "otherData"; every event
    has the keys its phase requires, of the right types; pid is the trace's process id;
  - process_name and thread_name metadata, one thread_name per thread of the dump;
  - every event of the dump is an instant, in the same order, on its thread's track: name, cat
    (provider), ts (microseconds, equal to timestamp_ns to the nanosecond), args (each field equal to
    dump's, by the rules of docs/export-perfetto.md: enum names "Name (v)", integers beyond 2^53 - 1
    as strings, "@raw", "@truncated", "@version");
  - "B"/"E" slices nest on every track: a stack per (pid, tid), each "E" closing the innermost open
    "B" of the same name, never before it began, none left open; timestamps never go back on a track;
  - GC slices: one per GC (a repeated GCStart Count is the same GC), on the GC track, beginning at
    its GCStart; exactly 478 for the .NET Core 3.0 trace; in the simulated trace every foreground GC
    lies inside a background GC; a pause per GCSuspendEEBegin on its thread;
  - counters: one "GC heap bytes" per GCHeapStats, each series equal to its GenerationSize field, and
    one "GC allocated bytes" per GCAllocationTick with the running totals per kind;
a hand-made .nettrace (edge_trace.c) whose every GC and pause at the edge of the rules (lost ends, a
repeated GCStart, an orphan GCEnd, a thread id beyond 32 bits, 4-byte pointers) gives the slice it
must; then cut copies (.nettrace and .evtrace): exit status 1, the problem named, the output still a
whole JSON document holding every event the dump of the cut trace holds, with slices closed.

Optionally (when node and @tracerbench/trace-model are found, see trace_model_check.cjs), an
independent consumer builds its model of each file too.

usage: check_perfetto.py --evgen EXE --simulate EXE --edge EXE --traces DIR --golden DIR --work DIR
                         [--node-modules DIR] [--fire EXE]..."""

import argparse
import collections
import decimal
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

EXACT_MAX = 2**53 - 1
GC_NAME = re.compile(r"^GC #(\d+)( gen\d+)? (nonconcurrent|background|foreground|type \d+)$")
ENUM_TEXT = re.compile(r"^(.*) \((-?\d+)\)$")
failures = []


def fail(what, message):
    failures.append(f"{what}: {message}")
    if len(failures) > 40:
        report_and_exit()


def report_and_exit():
    for f in failures:
        print("FAIL", f)
    print(f"0 passed, {len(failures)} failed")
    sys.exit(1)


def reject_constant(name):
    raise ValueError(f"not JSON: {name}")


def load_json(text):
    """Strict JSON (no NaN/Infinity literals), every number as an exact Decimal or int."""
    return json.loads(text, parse_float=decimal.Decimal, parse_constant=reject_constant)


def run(args, expect=None):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if expect is not None and p.returncode != expect:
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stderr}")
    return p


def dump(evgen, trace):
    """dump --json's lines (a cut trace exits 1: its lines still count) and the trace's process id."""
    p = run([evgen, "dump", "--json", trace])
    lines = [load_json(l) for l in p.stdout.splitlines()]
    stats = run([evgen, "dump", "--stats", trace]).stdout
    pid = int(re.search(r"process (\d+)", stats).group(1))
    return lines, pid


# ---- values -------------------------------------------------------------------------------------

def same_value(what, expected, got, enum_name=None, in_array=False):
    """Dump's value against the export's, by the export's rules."""
    if isinstance(expected, bool) or expected is None:
        if got != expected:
            fail(what, f"{got!r} != {expected!r}")
    elif isinstance(expected, int):
        if enum_name is not None:
            want = f"{enum_name} ({expected})"
            if got != want:
                fail(what, f"{got!r} != {want!r}")
        elif isinstance(got, str) and in_array and ENUM_TEXT.match(got):
            # an enum element of an array or struct: dump's JSON gives its number only
            if int(ENUM_TEXT.match(got).group(2)) != expected:
                fail(what, f"{got!r} is not {expected}")
        elif abs(expected) > EXACT_MAX:
            if got != str(expected):
                fail(what, f"{got!r} != {str(expected)!r} (an integer beyond 2^53 - 1 is a string)")
        elif type(got) is not int or got != expected:
            fail(what, f"{got!r} != {expected!r}")
    elif isinstance(expected, decimal.Decimal):
        if not isinstance(got, decimal.Decimal) or got != expected:
            fail(what, f"{got!r} != {expected!r}")
    elif isinstance(expected, str):
        if got != expected:
            fail(what, f"{got!r} != {expected!r}")
    elif isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            fail(what, f"array {got!r} != {expected!r}")
            return
        for i, (e, g) in enumerate(zip(expected, got)):
            same_value(f"{what}[{i}]", e, g, in_array=True)
    elif isinstance(expected, dict):
        if not isinstance(got, dict) or set(got) != set(expected):
            fail(what, f"struct {got!r} != {expected!r}")
            return
        for k in expected:
            same_value(f"{what}.{k}", expected[k], got[k], in_array=True)
    else:
        fail(what, f"unexpected dump value {expected!r}")


def check_args(what, line, args):
    if not isinstance(args, dict):
        fail(what, "no args object")
        return
    fields = line.get("fields", {})
    names = line.get("names", {})
    want_keys = {("@raw" if k == "raw" else k) for k in fields} | {"@version"}
    if "truncated" in line:
        want_keys.add("@truncated")
        if args.get("@truncated") != line["truncated"]:
            fail(what, f"@truncated {args.get('@truncated')!r} != {line['truncated']!r}")
    if "stream" in line:
        want_keys.add("@stream")
        if args.get("@stream") != line["stream"]:
            fail(what, "@stream differs")
    if set(args) != want_keys:
        fail(what, f"args keys {sorted(args)} != {sorted(want_keys)}")
        return
    if args["@version"] != line["version"]:
        fail(what, f"@version {args['@version']} != {line['version']}")
    for k, v in fields.items():
        same_value(f"{what} {k}", v, args["@raw" if k == "raw" else k], names.get(k))


# ---- the document --------------------------------------------------------------------------------

def is_number(v):
    return isinstance(v, (int, decimal.Decimal)) and not isinstance(v, bool)


def check_event_keys(what, e):
    if not isinstance(e, dict):
        fail(what, "an event is not an object")
        return False
    ph = e.get("ph")
    need = {"name": str, "ph": str, "pid": int, "tid": int}
    if ph != "M":
        need["ts"] = None
    if ph in ("i", "B", "E", "C"):
        need["cat"] = str
    if ph in ("i", "C", "M"):
        need["args"] = dict
    for k, t in need.items():
        if k not in e:
            fail(what, f"no {k!r} in {e}")
            return False
        if t is None:
            if not is_number(e[k]) or e[k] < 0:
                fail(what, f"{k} is not a time: {e}")
                return False
        elif not isinstance(e[k], t) or (t is int and isinstance(e[k], bool)):
            fail(what, f"{k} is not {t.__name__}: {e}")
            return False
    if ph not in ("M", "i", "B", "E", "C"):
        fail(what, f"unexpected phase {ph!r}")
        return False
    if ph == "i" and e.get("s") != "t":
        fail(what, f"an instant not on its thread: {e}")
    if ph == "C":
        for k, v in e["args"].items():
            if not (is_number(v) or (isinstance(v, str) and v.isdigit())):
                fail(what, f"counter series {k} is not a number: {v!r}")
    return True


def ts_ns(ts):
    """A trace-event ts (microseconds, exact decimal) in nanoseconds."""
    ns = decimal.Decimal(ts) * 1000
    return int(ns) if ns == ns.to_integral_value() else None


def check_nesting(what, events):
    """A stack of open "B" per (pid, tid): every "E" closes the innermost, same name, not earlier.
    Returns the slices, each (track, name, begin_ns, end_ns, args, parent name)."""
    stacks = collections.defaultdict(list)
    last = {}
    slices = []
    for e in events:
        if e["ph"] not in ("B", "E"):
            continue
        track = (e["pid"], e["tid"])
        t = ts_ns(e["ts"])
        if track in last and t < last[track]:
            fail(what, f"time goes back on track {track}: {e}")
        last[track] = t
        stack = stacks[track]
        if e["ph"] == "B":
            stack.append((e, t))
            continue
        if not stack:
            fail(what, f"an E with no open B: {e}")
            continue
        b, bt = stack.pop()
        if b["name"] != e["name"]:
            fail(what, f"E {e['name']!r} closes B {b['name']!r} (not LIFO)")
        if t < bt:
            fail(what, f"{e['name']!r} ends before it begins")
        args = dict(b.get("args", {}))
        args.update(e.get("args", {}))
        slices.append((track, b["name"], bt, t, args, stack[-1][0]["name"] if stack else None))
    for track, stack in stacks.items():
        if stack:
            fail(what, f"{len(stack)} slices left open on {track}: {[b['name'] for b, _ in stack]}")
    return slices


def gc_starts(lines):
    """The GCs of the dump: GCStart lines with a Count, a repeated Count dropped."""
    out, last = [], None
    for l in lines:
        if l["event"] != "GCStart" or l["provider"] != "Microsoft-Windows-DotNETRuntime":
            continue
        count = l["fields"].get("Count")
        if count is None or count == last:
            continue
        last = count
        out.append(l)
    return out


def check_export(what, doc, lines, pid, expect_gcs=None, background=False):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail(what, "not an object with a traceEvents array")
        return
    if doc.get("displayTimeUnit") != "ns" or not isinstance(doc.get("otherData"), dict):
        fail(what, "no displayTimeUnit ns or otherData")
    events = doc["traceEvents"]
    if not all(check_event_keys(what, e) for e in events):
        return
    for e in events:
        if e["pid"] != pid:
            fail(what, f"pid {e['pid']} is not the trace's {pid}")
            return
    if doc["otherData"].get("process_id") != pid:
        fail(what, "otherData.process_id")

    # names: the process, each thread ("thread ID"), the GC track
    meta = [e for e in events if e["ph"] == "M"]
    if [e["args"].get("name") for e in meta if e["name"] == "process_name"] == []:
        fail(what, "no process_name")
    thread_of_tid, gc_tid = {}, None
    for e in meta:
        if e["name"] == "thread_name":
            m = re.match(r"^thread (\d+)$", e["args"]["name"])
            if m:
                thread_of_tid[e["tid"]] = int(m.group(1))
            elif e["args"]["name"] == "GCs":
                gc_tid = e["tid"]
    dump_threads = {l["thread"] for l in lines}
    if set(thread_of_tid.values()) < dump_threads:
        fail(what, f"threads without a name: {dump_threads - set(thread_of_tid.values())}")

    # every event an instant, in the dump's order
    instants = [e for e in events if e["ph"] == "i"]
    if len(instants) != len(lines):
        fail(what, f"{len(instants)} instants, the dump has {len(lines)} events")
    per_thread_dump = collections.Counter(l["thread"] for l in lines)
    per_thread_export = collections.Counter(thread_of_tid.get(e["tid"]) for e in instants)
    if per_thread_dump != per_thread_export:
        fail(what, "instants per thread differ from the dump's events per thread")
    for i, (e, l) in enumerate(zip(instants, lines)):
        w = f"{what} event {i} ({l['event']})"
        if e["name"] != l["event"] or e["cat"] != l["provider"]:
            fail(w, f"name/cat {e['name']}/{e['cat']}")
        if ts_ns(e["ts"]) != l["timestamp_ns"]:
            fail(w, f"ts {e['ts']} is not {l['timestamp_ns']} ns")
        if thread_of_tid.get(e["tid"]) != l["thread"]:
            fail(w, f"tid {e['tid']} is not thread {l['thread']}")
        check_args(w, l, e["args"])

    # slices nest; GCs; pauses
    slices = check_nesting(what, events)
    gcs = [s for s in slices if GC_NAME.match(s[1])]
    starts = gc_starts(lines)
    if expect_gcs is not None and len(gcs) != expect_gcs:
        fail(what, f"{len(gcs)} GC slices, expected {expect_gcs}")
    if len(gcs) != len(starts):
        fail(what, f"{len(gcs)} GC slices for {len(starts)} GCs")
    for s in gcs:
        if s[0][1] != gc_tid:
            fail(what, f"{s[1]} is not on the GC track")
    by_count = {int(GC_NAME.match(s[1]).group(1)): s for s in gcs}
    for l in starts:
        s = by_count.get(l["fields"]["Count"])
        if not s or s[2] != l["timestamp_ns"] or s[4].get("Count") != l["fields"]["Count"]:
            fail(what, f"GC #{l['fields']['Count']}: no slice beginning at its GCStart")
    if background:
        fg = [s for s in gcs if s[1].endswith("foreground")]
        bg = [s for s in gcs if s[1].endswith("background")]
        if not fg or not bg:
            fail(what, "the simulated trace should have background and foreground GCs")
        for s in fg:
            if not (s[5] or "").endswith("background"):
                fail(what, f"{s[1]} is not inside a background GC (parent {s[5]})")
    suspends = collections.Counter(l["thread"] for l in lines if l["event"] == "GCSuspendEEBegin")
    pauses = collections.Counter(thread_of_tid.get(s[0][1]) for s in slices if s[1].startswith("pause"))
    if suspends != pauses:
        fail(what, f"pauses per thread {dict(pauses)} != GCSuspendEEBegin per thread {dict(suspends)}")

    # counters
    heap = [e for e in events if e["ph"] == "C" and e["name"] == "GC heap bytes"]
    stats = [l for l in lines if l["event"] == "GCHeapStats" and "GenerationSize0" in l["fields"]]
    if len(heap) != len(stats):
        fail(what, f"{len(heap)} heap counters for {len(stats)} GCHeapStats")
    series = {"gen0": "GenerationSize0", "gen1": "GenerationSize1", "gen2": "GenerationSize2",
              "LOH": "GenerationSize3", "POH": "GenerationSize4"}
    for c, l in zip(heap, stats):
        if ts_ns(c["ts"]) != l["timestamp_ns"]:
            fail(what, "a heap counter is not at its GCHeapStats")
        want = {k: f for k, f in series.items() if f in l["fields"]}
        if set(c["args"]) != set(want):
            fail(what, f"heap series {sorted(c['args'])} != {sorted(want)}")
            continue
        for k, f in want.items():
            same_value(f"{what} heap {k}", l["fields"][f], c["args"][k])
    alloc = [e for e in events if e["ph"] == "C" and e["name"] == "GC allocated bytes"]
    ticks = [l for l in lines if l["event"] == "GCAllocationTick" and "AllocationKind" in l["fields"]]
    if len(alloc) != len(ticks):
        fail(what, f"{len(alloc)} allocation counters for {len(ticks)} GCAllocationTick")
    totals = {}
    for c, l in zip(alloc, ticks):
        f = l["fields"]
        kind = l.get("names", {}).get("AllocationKind", f"kind {f['AllocationKind']}")
        amount = f.get("AllocationAmount64", f.get("AllocationAmount"))
        totals[kind] = (totals.get(kind, 0) + amount) % 2**64
        if set(c["args"]) != set(totals):
            fail(what, f"allocation series {sorted(c['args'])} != {sorted(totals)}")
            break
        for k, v in totals.items():
            same_value(f"{what} allocated {k}", v, c["args"][k])
    return {"instants": len(instants), "gcs": len(gcs), "slices": len(slices), "heap": len(heap),
            "alloc": len(alloc), "closed": sum(1 for s in slices if "@closed" in s[4])}


# ---- the traces ----------------------------------------------------------------------------------

def export(evgen, trace, out, expect=0):
    p = run([evgen, "export", "--perfetto", out, trace], expect=expect)
    with open(out, encoding="utf-8") as f:
        return load_json(f.read()), p.stderr


def check_trace(args, trace, **kw):
    name = os.path.basename(trace)
    out = os.path.join(args.work, name + ".json")
    lines, pid = dump(args.evgen, trace)
    doc, _ = export(args.evgen, trace, out)
    r = check_export(name, doc, lines, pid, **kw)
    print(f"{name}: {r}")
    model_check(args, out, name, r)
    return out


def check_cut(args, trace, fraction):
    """A copy cut at `fraction` of its size: exit 1 naming the problem, a whole document of
    everything the cut trace holds, every slice closed."""
    name = os.path.basename(trace)
    cut = os.path.join(args.work, "cut-" + name)
    with open(trace, "rb") as f:
        data = f.read()
    with open(cut, "wb") as f:
        f.write(data[: int(len(data) * fraction)])
    out = cut + ".json"
    doc, err = export(args.evgen, cut, out, expect=1)
    if cut not in err or "offset" not in err:
        fail(name, f"the cut trace's problem is not named: {err!r}")
    lines, pid = dump(args.evgen, cut)
    r = check_export("cut " + name, doc, lines, pid)
    if doc["otherData"].get("status") == "ok" or not doc["otherData"].get("problems"):
        fail(name, "otherData does not say the cut trace has problems")
    print(f"cut {name} at {fraction:.0%}: {r}")
    model_check(args, out, "cut " + name, r)
    return r


def check_edge(args):
    """The hand-made trace of edge_trace.c: each step gives the slice its comment says."""
    trace = os.path.join(args.work, "edge.nettrace")
    run([args.edge, trace], expect=0)
    out = check_trace(args, trace)
    with open(out, encoding="utf-8") as f:
        doc = load_json(f.read())
    slices = check_nesting("edge", doc["traceEvents"])
    gcs = {s[1]: s for s in slices if GC_NAME.match(s[1])}
    want = {  # name: (parent, "@closed" holds)
        "GC #1 gen2 background": (None, None),
        "GC #2 gen0 foreground": ("GC #1 gen2 background", None),  # its GCStart fired twice: one slice
        "GC #3 gen0 foreground": ("GC #1 gen2 background", "before the GCEnd of GC #1"),
        "GC #4 gen1 nonconcurrent": (None, "before the GCStart of GC #5"),
        "GC #5 gen0 nonconcurrent": (None, "the trace ends before its GCEnd"),
    }  # and no slice for the GCEnd of GC #9, whose GCStart is not in the trace
    if set(gcs) != set(want):
        fail("edge", f"GC slices {sorted(gcs)} != {sorted(want)}")
    for name, (parent, closed) in want.items():
        s = gcs.get(name)
        if s and (s[5] != parent or (closed is None) != ("@closed" not in s[4]) or
                  (closed and closed not in s[4]["@closed"])):
            fail("edge", f"{name}: parent {s[5]!r}, args {s[4]}")
    names = {e["args"]["name"]: e["tid"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
    big = names.get("thread 4294967301")
    if big is None or big >= 2**32 or big == 4294967301:
        fail("edge", f"the thread beyond 32 bits has tid {big}")
    pauses = [s for s in slices if s[1] == "pause: SuspendForGC" and s[0][1] == 100]
    if len(pauses) != 3 or pauses[0][4].get("@restarted_by_thread") != big or pauses[0][3] != 1400:
        fail("edge", f"the background GC's pause is not ended by thread {big}'s restart: {pauses[:1]}")
    if "the trace ends before its GCRestartEEEnd" not in pauses[-1][4].get("@closed", ""):
        fail("edge", "the last pause is not closed at the end of the trace")
    restarts = [s for s in slices if s[1] == "restart EE" and s[0][1] == big]
    if len(restarts) != 2 or "@closed" not in restarts[1][4]:
        fail("edge", f"thread {big}'s restarts: {restarts}")
    tick = [e for e in doc["traceEvents"] if e["name"] == "GCAllocationTick"]
    if len(tick) != 1 or tick[0]["args"].get("TypeID") != "0x12345678" or tick[0]["args"].get("Address") != "0x9abcdef0":
        fail("edge", f"4-byte pointers: {tick}")


def model_check(args, out, name, r):
    """The independent consumer, when it is there: @tracerbench/trace-model builds its model."""
    if not args.node_modules:
        return
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace_model_check.cjs")
    env = dict(os.environ, NODE_PATH=args.node_modules)
    p = subprocess.run(["node", script, out, str(r["gcs"]), str(r["slices"]), str(r["instants"])],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        fail(name, f"trace-model: {p.stdout}{p.stderr}")
    else:
        print(f"  trace-model: {p.stdout.strip()}")


def find_node_modules(hint):
    if not shutil.which("node"):
        return None
    for d in [hint, os.environ.get("EVGEN_NODE_MODULES")]:
        if d and os.path.isfile(os.path.join(d, "@tracerbench", "trace-model", "package.json")):
            return d
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evgen", required=True)
    ap.add_argument("--simulate", required=True)
    ap.add_argument("--edge", required=True, help="edge_trace: writes the hand-made trace")
    ap.add_argument("--traces", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--node-modules")
    ap.add_argument("--fire", action="append", default=[], help="a program writing a trace of a good manifest")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    args.node_modules = find_node_modules(args.node_modules)
    print("independent consumer: " + (f"@tracerbench/trace-model in {args.node_modules}" if args.node_modules else
          "skipped (node or @tracerbench/trace-model not found: scripts/deps.sh installs them)"))

    goldens = sorted(glob.glob(os.path.join(args.golden, "*.evtrace")))
    if not goldens:
        raise SystemExit(f"no golden traces in {args.golden}")
    for g in goldens:
        check_trace(args, g)

    check_edge(args)
    for exe in args.fire:
        trace = os.path.join(args.work, os.path.basename(exe).replace("perfetto_fire_", "") + ".evtrace")
        run([exe, trace], expect=0)
        check_trace(args, trace)

    sim = os.path.join(args.work, "simulated.evtrace")
    run([args.simulate, "--all-events", sim, "300"], expect=0)  # several 256 KiB blocks per thread
    check_trace(args, sim, background=True)
    r = check_cut(args, sim, 0.6)
    if r["closed"] == 0:
        fail("cut simulated", "no slice was closed at the end of the cut trace (expected some open at the cut)")

    zips = sorted(glob.glob(os.path.join(args.traces, "*.nettrace.zip")))
    if not zips:
        print(f"{args.traces}: no real traces beside the checkout: skipped")
    for z in zips:
        is30 = "dotnetcore3.0" in os.path.basename(z)
        with zipfile.ZipFile(z) as zf:
            member = [n for n in zf.namelist() if n.endswith(".nettrace")][0]
            zf.extract(member, args.work)
        trace = os.path.join(args.work, member)
        check_trace(args, trace, expect_gcs=478 if is30 else None)
        if is30 or "arraytypes" in member:
            check_cut(args, trace, 0.55)

    if failures:
        report_and_exit()
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
