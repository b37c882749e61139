#!/usr/bin/python3
"""ctf_output_rules.py — where `evgen export --ctf DIR` writes (docs/export-ctf.md, "The output"):
DIR must be new or an empty directory; a non-empty directory, a file, are refused and left as they
were; a trace that cannot be opened, or an export that fails (a clock no CTF offset holds), leaves
nothing behind: no DIR, no temporary directory beside it. What is written, babeltrace2 reads.

usage: ctf_output_rules.py EVGEN WORK HANDMADE_DIR (where ctf_test_traces wrote its traces)"""
import os
import shutil
import subprocess
import sys

try:
    import bt2
except ImportError:
    print("ctf_output_rules: skipped: the Python bindings of babeltrace2 (python3-bt2) are not installed "
          "for " + sys.executable)
    sys.exit(77)


def export(evgen, out, trace):
    p = subprocess.run([evgen, "export", "--ctf", out, trace], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode(errors="replace")


def leftovers(work):
    return [n for n in os.listdir(work) if ".evgen-" in n]


def expect(cond, what):
    if not cond:
        raise SystemExit("ctf_output_rules: " + what)


def events(path):
    return sum(1 for m in bt2.TraceCollectionMessageIterator(path) if type(m) is bt2._EventMessageConst)


def main(evgen, work, handmade):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    trace = os.path.join(handmade, "handmade.evtrace")
    out = os.path.join(work, "out")

    # A directory that holds something: refused, untouched.
    os.makedirs(out)
    with open(os.path.join(out, "keep.txt"), "w") as f:
        f.write("mine\n")
    rc, err = export(evgen, out, trace)
    expect(rc == 1 and "not empty" in err, "a non-empty directory: exit %d, %r" % (rc, err))
    expect(os.listdir(out) == ["keep.txt"] and open(os.path.join(out, "keep.txt")).read() == "mine\n",
           "a non-empty directory was changed: %r" % os.listdir(out))
    expect(not leftovers(work), "left behind: %r" % leftovers(work))

    # An empty directory: replaced by the export.
    os.remove(os.path.join(out, "keep.txt"))
    rc, err = export(evgen, out, trace)
    expect(rc == 0, "an empty directory: exit %d, %r" % (rc, err))
    expect("metadata" in os.listdir(out) and events(out) == 3012, "the export of an empty directory: %r" % os.listdir(out))
    # ... which, now full, is refused.
    rc, err = export(evgen, out, trace)
    expect(rc == 1 and "not empty" in err, "an existing export: exit %d, %r" % (rc, err))
    shutil.rmtree(out)

    # A file: refused, untouched.
    with open(out, "w") as f:
        f.write("a file\n")
    rc, err = export(evgen, out, trace)
    expect(rc == 1 and "not a directory" in err and open(out).read() == "a file\n", "a file: exit %d, %r" % (rc, err))
    os.remove(out)

    # A trace that cannot be opened; an export that fails: nothing created.
    for bad, says in ((os.path.join(work, "missing.evtrace"), "missing.evtrace"),
                      (os.path.join(handmade, "badclock.evtrace"), "no CTF clock offset holds it")):
        rc, err = export(evgen, out, bad)
        expect(rc == 1 and says in err, "%s: exit %d, %r" % (bad, rc, err))
        expect(not os.path.exists(out) and not leftovers(work),
               "%s: left behind: %r" % (bad, os.listdir(work)))
    print("ctf_output_rules: new, empty, non-empty, file, unreadable trace, failed export: as documented")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
