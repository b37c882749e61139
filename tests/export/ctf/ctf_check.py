#!/usr/bin/python3
"""ctf_check.py — `evgen export --ctf` checked by its real consumer, babeltrace2 (bt2, Debian's
python3-bt2): each trace is exported, read back with bt2.TraceCollectionMessageIterator and compared
with `evgen dump --json` of the same trace, event by event, field by field (docs/export-ctf.md).

usage: ctf_check.py EVGEN WORKDIR [--status N] [--cli] [--min-packets N] [--levels MANIFEST]... TRACE|DIR...

For each TRACE: the export's exit status is N (default 0; 1 for a damaged trace, whose readable part
is exported), and so is dump's; then per thread (and nesting stream) the same events in the same
order, each with the name dump shows (name_V<version>, "<provider>:" when two providers share the
name, "_raw" when dump shows a raw tail, "_truncated_<Field>" for a cut payload), every field equal
(integers, enum values and their names, bools, pointers in hex, floats to the bit, strings, GUID
text, arrays, struct members, raw bytes), the timestamp within one clock tick of dump's, and the
thread's lost events reported by babeltrace2 as discarded. --cli: also the babeltrace2 command
reads the export, exit status 0, one line per event. --min-packets: the export holds at least one
stream of that many packets, and no packet over 64 KiB but one holding a single event. --levels:
the event classes of MANIFEST's events have the log level of the version's level.

A DIR stands for every .evtrace and .nettrace file in it. Exit status 0 (all checked), 1 (a
difference, printed), 77 (skipped: bt2 is not installed, or a trace is not there)."""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

try:
    import bt2
except ImportError:
    print("ctf_check: skipped: the Python bindings of babeltrace2 (python3-bt2) are not installed "
          "for " + sys.executable)
    sys.exit(77)

PACKET_LIMIT = 64 * 1024


class Mismatch(Exception):
    pass


class Pairs(dict):
    """A JSON object that keeps its members in order, a repeated key too: dump's raw tail is the
    member "raw" after the fields, and a field may be named raw as well."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


def run(argv, expect=None):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if expect is not None and p.returncode != expect:
        raise Mismatch("%s: exit status %d, expected %d\n%s" % (" ".join(argv), p.returncode, expect,
                                                                 p.stderr.decode(errors="replace")))
    return p


def shown_names(keys):
    """The member names babeltrace2 shows for dump's keys (docs/export-ctf.md, "Names")."""
    out, taken = [], set()
    for k in keys:
        s = re.sub(r"[^A-Za-z0-9_]", "_", k) or "field"
        base, n = s, 2
        while s in taken:
            s = "%s_%d" % (base, n)
            n += 1
        taken.add(s)
        out.append(s)
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def same_float(value, expected, single):
    if isinstance(expected, str):  # "NaN", "Infinity", "-Infinity"
        if expected == "NaN":
            return math.isnan(value)
        return value == (math.inf if expected == "Infinity" else -math.inf)
    return (f32(expected) if single else float(expected)) == value and \
        math.copysign(1, value) == math.copysign(1, expected)


def unescape_bytes(s):
    """bt2 gives a string's invalid UTF-8 bytes as surrogate escapes; dump shows each as U+FFFD."""
    return re.sub("[\udc80-\udcff]", "\ufffd", s)


def labels_of(field):
    """An enumeration field's labels (bt2 2.0.4 asserts on a value that has none)."""
    try:
        return list(field.labels)
    except AssertionError:
        return []


def compare(field, expected, where, enum_name=None):
    if isinstance(field, (bt2._UnsignedEnumerationFieldConst, bt2._SignedEnumerationFieldConst)):
        labels = labels_of(field)
        if isinstance(expected, bool):  # bool8/bool32 as the enum false/true
            if int(field) != int(expected) or labels != [str(expected).lower()]:
                raise Mismatch("%s: %r %r, dump %r" % (where, int(field), labels, expected))
            return
        if int(field) != expected:
            raise Mismatch("%s: %r, dump %r" % (where, int(field), expected))
        if enum_name is not None and enum_name not in labels:
            raise Mismatch("%s: labels %r, dump names it %r" % (where, labels, enum_name))
        return
    if isinstance(field, (bt2._UnsignedIntegerFieldConst, bt2._SignedIntegerFieldConst)):
        if isinstance(expected, str):  # a pointer: "0x..." in dump, an integer shown in hex here
            if field.cls.preferred_display_base != 16 or int(field) != int(expected, 16):
                raise Mismatch("%s: %#x (base %d), dump %s" % (where, int(field), field.cls.preferred_display_base,
                                                               expected))
        elif isinstance(expected, bool) or int(field) != expected:
            raise Mismatch("%s: %r, dump %r" % (where, int(field), expected))
        return
    if isinstance(field, bt2._RealFieldConst):
        single = isinstance(field, bt2._SinglePrecisionRealFieldConst)
        if not same_float(float(field), expected, single):
            raise Mismatch("%s: %r, dump %r" % (where, float(field), expected))
        return
    if isinstance(field, bt2._StringFieldConst):
        if unescape_bytes(str(field)) != expected:
            raise Mismatch("%s: %r, dump %r" % (where, str(field), expected))
        return
    if isinstance(field, bt2._ArrayFieldConst):
        if not isinstance(expected, list) or len(field) != len(expected):
            raise Mismatch("%s: %d elements, dump %r" % (where, len(field), expected))
        for i, (f, e) in enumerate(zip(field, expected)):
            compare(f, e, "%s[%d]" % (where, i))
        return
    if isinstance(field, bt2._StructureFieldConst):
        compare_members(field, expected, where)
        return
    raise Mismatch("%s: unexpected field type %s" % (where, type(field).__name__))


def compare_members(struct_field, expected, where, names=None, raw=None):
    """The struct's members against dump's object (Pairs); synthetic lengths (_X_length before X)
    skipped; `raw`: the class ends with the raw bytes (dump's tail, hex, or True: a cut payload's
    rest, which dump does not show), the tail's own member left out of `expected`."""
    if not isinstance(expected, Pairs):
        raise Mismatch("%s: a structure, dump %r" % (where, expected))
    members = list(struct_field.items())
    if raw is not None:
        if len(members) < 2 or not members[-1][0].startswith("raw") or \
                members[-2][0] != "_%s_length" % members[-1][0]:
            raise Mismatch("%s: no raw bytes at the end: %r" % (where, [m[0] for m in members]))
        data = bytes(int(b) for b in members[-1][1])
        if raw is not True and data.hex() != raw:
            raise Mismatch("%s: raw %s, dump %s" % (where, data.hex(), raw))
        members = members[:-2]
    kept = []
    for i, (name, f) in enumerate(members):
        nxt = members[i + 1][0] if i + 1 < len(members) else None
        if nxt is not None and name == "_%s_length" % nxt:
            if int(f) != len(members[i + 1][1]):
                raise Mismatch("%s.%s: %d, the array holds %d" % (where, name, int(f), len(members[i + 1][1])))
            continue
        kept.append((name, f))
    pairs = expected.pairs
    want = shown_names([k for k, _ in pairs])
    if [k for k, _ in kept] != want:
        raise Mismatch("%s: members %r, dump %r" % (where, [k for k, _ in kept], want))
    for (name, f), (key, value) in zip(kept, pairs):
        compare(f, value, "%s.%s" % (where, name), (names or {}).get(key))


def packet_sizes(path):
    """Each data stream file's packet sizes in bytes, walked by their packet_size (babeltrace2 keeps
    it to itself): the packet context's fourth field, after the 32-byte packet header."""
    sizes = {}
    for name in os.listdir(path):
        if name == "metadata":
            continue
        with open(os.path.join(path, name), "rb") as f:
            data = f.read()
        at, instance = 0, None
        while at < len(data):
            instance = struct.unpack_from("<Q", data, at + 24)[0]
            size = struct.unpack_from("<Q", data, at + 32 + 24)[0] // 8
            sizes.setdefault(instance, []).append(size)
            at += size
    return sizes


def read_ctf(path):
    """Events per (thread, stream) in stream order, discarded counts per stream instance, packets
    (stream instance, bytes, events)."""
    streams, discarded, packets, stream_of_instance = {}, {}, [], {}
    open_packet = {}
    for m in bt2.TraceCollectionMessageIterator(path):
        if type(m) is bt2._EventMessageConst:
            ctx = m.event.packet.context_field
            key = (int(ctx["thread_id"]), int(ctx["stream"]))
            stream_of_instance[m.event.stream.id] = key
            streams.setdefault(key, []).append(m)
            open_packet[m.event.stream.id][1] += 1
        elif type(m) is bt2._PacketBeginningMessageConst:
            ctx = m.packet.context_field
            stream_of_instance[m.packet.stream.id] = (int(ctx["thread_id"]), int(ctx["stream"]))
            open_packet[m.packet.stream.id] = [0, 0]
        elif type(m) is bt2._PacketEndMessageConst:
            packets.append((m.packet.stream.id, *open_packet.pop(m.packet.stream.id)))
        elif type(m) is bt2._DiscardedEventsMessageConst:
            discarded[m.stream.id] = discarded.get(m.stream.id, 0) + m.count
    sizes = packet_sizes(path)
    for instance in {p[0] for p in packets}:
        mine = [i for i, p in enumerate(packets) if p[0] == instance]
        if len(sizes.get(instance, [])) != len(mine):
            raise Mismatch("stream %d: babeltrace2 read %d packets, the file holds %d" %
                           (instance, len(mine), len(sizes.get(instance, []))))
        for i, size in zip(mine, sizes[instance]):
            packets[i] = (instance, size, packets[i][2])
    return streams, discarded, packets, stream_of_instance


def shown_as(d, ctf_name):
    """The class name dump's event `d` calls for, its fields (Pairs) and its raw bytes: the hex of
    dump's tail (its member "raw" after the fields), True for a cut payload's rest, or None. Whether
    a last member "raw" is the tail or a field of that name, the class's name says; the fields then
    must match member for member either way."""
    base = "%s_V%d" % (d["event"], d["version"])
    fields = d["fields"]
    if "truncated" in d:
        return base + "_truncated_" + d["truncated"], fields, True
    last = fields.pairs[-1] if fields.pairs else None
    if ctf_name.endswith("_raw") and last and last[0] == "raw" and isinstance(last[1], str):
        return base + "_raw", Pairs(fields.pairs[:-1]), last[1]
    return base, fields, None


# ETW levels as babeltrace2's log levels (docs/export-ctf.md, "Event classes").
LOG_LEVELS = {1: 2, 2: 3, 3: 4, 4: 6, 5: 14}


def manifest_levels(evgen, manifest):
    """(provider, event, version) -> level, from `evgen describe --json MANIFEST`."""
    argv = [evgen, "describe", "--json", manifest]
    include = os.path.join(os.path.dirname(manifest), "include")
    if os.path.isdir(include):
        argv += ["-I", include]
    d = json.loads(run(argv, 0).stdout)
    return {(e["provider"], e["name"], v["version"]): v["level"] for e in d["events"] for v in e["versions"]}


def check_trace(evgen, work, trace, status, cli, min_packets, levels):
    out = os.path.join(work, "ctf")
    shutil.rmtree(out, ignore_errors=True)
    run([evgen, "export", "--ctf", out, trace], status)
    with open(os.path.join(out, "metadata"), encoding="utf-8") as f:
        if not f.read().startswith("/* CTF 1.8 */"):
            raise Mismatch("metadata: no /* CTF 1.8 */ header")
    dump = [json.loads(line, object_pairs_hook=Pairs)
            for line in run([evgen, "dump", "--json", trace], status).stdout.splitlines()]
    stats = json.loads(run([evgen, "dump", "--stats", "--json", trace], status).stdout)
    tick = 1e9 / stats["clock_frequency"]
    tolerance = max(1, math.ceil(tick))
    start = stats["start_unix_ns"]
    thread_index = {t["thread"]: i for i, t in enumerate(stats["threads"])}

    streams, discarded, packets, stream_of_instance = read_ctf(out)
    expected = {}
    for d in dump:
        expected.setdefault((d["thread"], d.get("stream", 0)), []).append(d)
    if sorted(expected) != sorted(k for k, v in streams.items() if v):
        raise Mismatch("streams %r, dump's threads %r" % (sorted(streams), sorted(expected)))
    for key, events in expected.items():
        got = streams[key]
        if len(got) != len(events):
            raise Mismatch("thread %d stream %d: %d events, dump %d" % (key[0], key[1], len(got), len(events)))
        for i, (m, d) in enumerate(zip(got, events)):
            where = "thread %d stream %d event %d (%s_V%d)" % (key[0], key[1], i, d["event"], d["version"])
            ev = m.event
            name, fields, raw = shown_as(d, ev.name)
            if ev.name not in (name, "%s:%s" % (d["provider"], name)):
                raise Mismatch("%s: named %r, dump %r of %r" % (where, ev.name, name, d["provider"]))
            level = levels.get((d["provider"], d["event"], d["version"]))
            if level is not None and ev.cls.log_level != LOG_LEVELS.get(level):
                raise Mismatch("%s: log level %r, the manifest's level %d" % (where, ev.cls.log_level, level))
            if key[1] == 0 and ev.stream.id != thread_index[key[0]]:
                raise Mismatch("%s: stream instance %d, the thread's number is %d" % (where, ev.stream.id,
                                                                                     thread_index[key[0]]))
            t = m.default_clock_snapshot.ns_from_origin - start
            if abs(max(t, 0) - d["timestamp_ns"]) > tolerance:  # dump shows a time before the start as 0
                raise Mismatch("%s: at %d ns, dump %d (one tick: %.1f ns)" % (where, t, d["timestamp_ns"], tick))
            payload = ev.payload_field
            if payload is None:
                if fields.pairs or raw is not None:
                    raise Mismatch("%s: no fields, dump %r" % (where, fields.pairs))
                continue
            compare_members(payload, fields, where, d.get("names"), raw)

    # Lost events: discarded in the stream of the thread (its packets' thread_id), nested level 0.
    reported = {}
    for instance, count in discarded.items():
        thread, nested = stream_of_instance[instance]
        if nested != 0 or instance != thread_index.get(thread):
            raise Mismatch("%d discarded events in stream %d (thread %d, stream %d): not the thread's own" %
                           (count, instance, thread, nested))
        reported[thread] = reported.get(thread, 0) + count
    lost = {t["thread"]: max(t["dropped"], t.get("dropped_end", 0)) + t.get("too_big_end", 0)
            for t in stats["threads"]}
    for thread in set(lost) | set(reported):
        if reported.get(thread, 0) != lost.get(thread, 0):
            raise Mismatch("thread %d: babeltrace2 reports %d discarded events, the reader %d lost" %
                           (thread, reported.get(thread, 0), lost.get(thread, 0)))

    for instance, size, n_events in packets:
        if size > PACKET_LIMIT and n_events != 1:
            raise Mismatch("stream %d: a packet of %d bytes holds %d events" % (instance, size, n_events))
    if min_packets:
        most = max(sum(1 for p in packets if p[0] == s) for s in {p[0] for p in packets})
        if most < min_packets:
            raise Mismatch("at most %d packets in a stream, expected at least %d" % (most, min_packets))

    if cli:
        p = run(["babeltrace2", out], 0)
        lines = p.stdout.count(b"\n")
        if lines != len(dump):
            raise Mismatch("babeltrace2 %s: %d lines, %d events" % (out, lines, len(dump)))
    print("%s: %d events of %d streams, %d packets, %d discarded: as dump shows them" %
          (os.path.basename(trace), len(dump), len(expected), len(packets), sum(discarded.values())))
    shutil.rmtree(out)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    evgen, work, rest = argv[1], argv[2], argv[3:]
    status, cli, min_packets, traces, levels = 0, False, 0, [], {}
    while rest:
        a = rest.pop(0)
        if a == "--levels":
            levels.update(manifest_levels(evgen, rest.pop(0)))
        elif a == "--status":
            status = int(rest.pop(0))
        elif a == "--cli":
            cli = True
        elif a == "--min-packets":
            min_packets = int(rest.pop(0))
        elif os.path.isdir(a):  # every trace in it
            traces += sorted(os.path.join(a, t) for t in os.listdir(a) if t.endswith((".evtrace", ".nettrace")))
        else:
            traces.append(a)
    missing = [t for t in traces if not os.path.exists(t)]
    if missing:
        print("ctf_check: skipped: %s not there (../shared/reference/traces is not beside the checkout?)" %
              ", ".join(missing))
        return 77
    if not traces:
        print("ctf_check: no trace to check")
        return 1
    os.makedirs(work, exist_ok=True)
    failed = 0
    for trace in traces:
        try:
            check_trace(evgen, work, trace, status, cli, min_packets, levels)
        except Mismatch as e:
            print("%s: %s" % (trace, e))
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
