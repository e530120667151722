#!/usr/bin/env python3
"""serve's memory at 100,000 listings, in one command (docs/benchmarks.md).

    python3 docs/serve_rss.py BIN [BIN ...]

Each BIN is a launchdir binary (go build -o BIN ./cmd/launchdir at the commit
to compare). The benchmark's database (~/.cache/launchdir/bench/
synthetic-100000-*, made by the tools benchmarks; its index snapshot
included) is copied once, and one serve of the first binary runs on the copy
until open_data_exports holds its row and no export job is due (stopped
earlier, the job is left queued and runs again at every start), so that the
export does not run during a measurement. Then, --rounds times, each binary in turn starts alone
on a fresh copy of that directory (serve --data DIR --rate-limit 0), and the
script reads /proc/PID/status (VmRSS = RssAnon + RssFile + RssShmem, VmHWM)
and the process's CPU (utime + stime) at these moments:

  ready    the first GET /v1/listings?q=team+data answered
  idle     --idle seconds (90) later, plus /proc/PID/smaps_rollup
  burst N  --bursts (2) times --queries (4,000) distinct queries (two
           neighbouring words of the taglines of the 30,000 newest listings,
           shuffled, no query twice) sent by --clients (16) keep-alive
           clients at once; the highest VmRSS sampled every second during
           the burst, and VmRSS 10 s and 60 s after it

Extra environment for the serve processes: --env NAME=VALUE (repeatable),
e.g. --env GODEBUG=gctrace=1 (serve's stderr goes to DIR/serve.log).
Standard library only; Linux (/proc).
"""

import argparse
import glob
import http.client
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

CLK = os.sysconf("SC_CLK_TCK")


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                out[k] = int(v.split()[0]) / 1024
    return out


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def rollup(pid):
    keep = ("Rss", "Anonymous", "Private_Clean", "Shared_Clean", "Private_Dirty")
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in keep:
                out[k] = int(v.split()[0]) / 1024
    return out


def file_maps(pid):
    """RSS per mapped file, the largest first (what RssFile holds)."""
    per = {}
    name = None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                parts = line.split(None, 5)
                name = parts[5].strip() if len(parts) > 5 else ""
            elif line.startswith("Rss:") and name and name.startswith("/"):
                per[name] = per.get(name, 0) + int(line.split()[1]) / 1024
    return sorted(per.items(), key=lambda kv: -kv[1])


def fmt(s):
    return (f"VmRSS {s['VmRSS']:.0f} MiB (anon {s['RssAnon']:.0f} + file {s['RssFile']:.0f}"
            f" + shmem {s.get('RssShmem', 0):.0f}), VmHWM {s['VmHWM']:.0f}")


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    r.read()
    return r.status


def wait_ready(port, proc, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"serve exited with {proc.returncode}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            if get(c, "/v1/listings?q=team+data") == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("serve not ready")


def start(binary, data, port, env):
    e = dict(os.environ)
    e.update(env)
    log = open(os.path.join(data, "serve.log"), "w")
    return subprocess.Popen([binary, "serve", "--data", data, "--rate-limit", "0",
                             "--addr", f"127.0.0.1:{port}"], stdout=log, stderr=log, env=e)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def queries(db, n):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute("select tagline from listings order by id desc limit 30000").fetchall()
    con.close()
    seen, out = set(), []
    for (t,) in rows:
        words = re.findall(r"\w+", (t or "").lower())
        for a, b in zip(words, words[1:]):
            q = f"{a} {b}"
            if q not in seen:
                seen.add(q)
                out.append(q)
    random.Random(1).shuffle(out)
    if len(out) < n:
        sys.exit(f"only {len(out)} distinct queries")
    return out[:n]


def burst(port, qs, clients, pid):
    it = iter(qs)
    lock = threading.Lock()
    errors = []

    def client():
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                q = next(it, None)
            if q is None:
                return
            st = get(c, "/v1/listings?q=" + urllib.parse.quote_plus(q))
            if st != 200:
                errors.append(st)

    highest = 0
    ts = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.time()
    for t in ts:
        t.start()
    while any(t.is_alive() for t in ts):
        highest = max(highest, status(pid)["VmRSS"])
        time.sleep(1)
    for t in ts:
        t.join()
    if errors:
        sys.exit(f"{len(errors)} searches failed, e.g. {errors[0]}")
    return time.time() - t0, highest


def measure(binary, primed, work, port, args, qs, env):
    data = tempfile.mkdtemp(dir=work)
    for f in glob.glob(os.path.join(primed, "launchdir.db*")):
        shutil.copy(f, data)
    load = os.getloadavg()[0]
    t0 = time.time()
    proc = start(binary, data, port, env)
    pid = proc.pid
    try:
        wait_ready(port, proc)
        print(f"{binary}: ready in {time.time()-t0:.1f} s (load {load:.0f}), CPU {cpu(pid):.1f} s: {fmt(status(pid))}", flush=True)
        time.sleep(args.idle)
        print(f"  {args.idle} s idle: {fmt(status(pid))}; smaps_rollup {rollup(pid)}", flush=True)
        print("  file-backed RSS: " + ", ".join(f"{os.path.basename(n)} {v:.1f}" for n, v in file_maps(pid)[:4]), flush=True)
        for i in range(args.bursts):
            c0 = cpu(pid)
            wall, highest = burst(port, qs[i * args.queries:(i + 1) * args.queries], args.clients, pid)
            used = cpu(pid) - c0
            time.sleep(10)
            s10 = status(pid)
            time.sleep(50)
            s60 = status(pid)
            print(f"  burst {i+1}: {args.queries} queries in {wall:.1f} s, serve CPU {used:.1f} s "
                  f"({used/args.queries*1e6:.0f} us a query), highest VmRSS {highest:.0f}; "
                  f"10 s after {s10['VmRSS']:.0f}; 60 s after: {fmt(s60)} (load {os.getloadavg()[0]:.0f})", flush=True)
    finally:
        stop(proc)
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bin", nargs="+")
    p.add_argument("--db", default=None, help="directory holding launchdir.db (default: the benchmark's)")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--idle", type=int, default=90)
    p.add_argument("--bursts", type=int, default=2)
    p.add_argument("--queries", type=int, default=4000)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--port", type=int, default=18650)
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--keep", action="store_true", help="keep each run's data directory (and serve.log)")
    args = p.parse_args()
    src = args.db or max(glob.glob(os.path.expanduser("~/.cache/launchdir/bench/synthetic-100000-*")), default=None)
    if not src:
        sys.exit("no benchmark database: run the tools benchmarks once, or give --db")
    env = dict(kv.split("=", 1) for kv in args.env)
    work = tempfile.mkdtemp(prefix="serve-rss-")
    primed = os.path.join(work, "primed")
    os.mkdir(primed)
    for f in glob.glob(os.path.join(src, "launchdir.db*")):
        shutil.copy(f, primed)
    db = os.path.join(primed, "launchdir.db")
    proc = start(args.bin[0], primed, args.port, {})
    try:
        wait_ready(args.port, proc)
        while True:
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            n = con.execute("select count(*) from open_data_exports").fetchone()[0]
            due = con.execute("select count(*) from jobs where kind = 'open_data_export' and state = 'queued'"
                              " and run_at <= strftime('%s', 'now')").fetchone()[0]
            con.close()
            if n and not due:
                break
            time.sleep(2)
    finally:
        stop(proc)
    qs = queries(db, args.queries * args.bursts)
    try:
        for r in range(args.rounds):
            for b in args.bin:
                measure(b, primed, work, args.port, args, qs, env)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
