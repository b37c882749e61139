#!/usr/bin/python3
"""ctf_prepare.py — the traces the ctf exporter's tests export, made once per run (a ctest fixture):

  WORK/good/      a golden trace of every good manifest of tests/manifests/good/ (`evgen lock
                  --traces`): every kind, enums, padded and variable struct arrays, legacy layouts
  WORK/handmade/  handmade.evtrace, handmade.nettrace, badclock.evtrace (ctf_test_traces) and
                  conv-handmade.evtrace (`evgen convert` of the .nettrace: raw types, bound or not)
  WORK/real/      the real .NET traces of ../shared/reference/traces (unzipped), the 5.0 one converted,
                  and cut.nettrace, the 3.0 trace cut after 1.5 MB

usage: ctf_prepare.py EVGEN CTF_TEST_TRACES SOURCE_DIR WORK"""
import os
import shutil
import subprocess
import sys
import zipfile


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit("%s: exit status %d\n%s" % (" ".join(argv), p.returncode, p.stderr.decode(errors="replace")))


def main(evgen, make_traces, source, work):
    shutil.rmtree(work, ignore_errors=True)
    good, handmade, real = (os.path.join(work, d) for d in ("good", "handmade", "real"))
    for d in (good, handmade, real):
        os.makedirs(d)

    manifests = os.path.join(source, "tests", "manifests", "good")
    for name in sorted(os.listdir(manifests)):
        if not name.endswith(".h"):
            continue
        scratch = os.path.join(work, "lock-" + name[:-2])
        os.makedirs(scratch)
        run([evgen, "lock", os.path.join(manifests, name), "--lock", os.path.join(scratch, "m.lock"),
             "--traces", scratch, "-I", os.path.join(manifests, "include")])
        for t in os.listdir(scratch):
            if t.endswith(".evtrace"):
                os.rename(os.path.join(scratch, t), os.path.join(good, t))
        shutil.rmtree(scratch)

    run([make_traces, handmade])
    run([evgen, "convert", os.path.join(handmade, "handmade.nettrace"), os.path.join(handmade, "conv-handmade.evtrace")])

    zips = os.path.join(source, "..", "shared", "reference", "traces")
    if not os.path.isdir(zips):
        print("ctf_prepare: %s is not there: the real traces' tests are skipped" % zips)
        return
    for name in sorted(os.listdir(zips)):
        if name.endswith(".nettrace.zip"):
            with zipfile.ZipFile(os.path.join(zips, name)) as z:
                z.extractall(real)
    arraytypes = os.path.join(real, "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace")
    run([evgen, "convert", arraytypes, os.path.join(real, "conv-arraytypes.evtrace")])
    with open(os.path.join(real, "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace"), "rb") as f:
        data = f.read(1500000)
    with open(os.path.join(work, "cut.nettrace"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
