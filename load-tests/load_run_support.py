#!/usr/bin/env python3
"""Helpers of bin/load-run that are easier in Python than in bash (standard library only).

  load_run_support.py ports N
      N free TCP ports on 127.0.0.1, one per line.
  load_run_support.py busy SECONDS
      How busy the machine's CPUs are over SECONDS, in percent (before a run: is anything else
      running?).
  load_run_support.py sample OUT NAME=PID... [--tree NAME=PID]... [--added NAME=PIDFILE]...
                       [--run PID]
      Once per second until SIGTERM: RSS, threads, CPU time, open file descriptors and their limit
      of each process (from /proc), used heap of each NAME=PID (a JVM, through one long-running
      `jstat -gc PID 1000` each), CPU time of each --tree process with all its descendants (their
      descriptors: those of the one that has most), and the machine's busy time. An --added
      process is sampled as a NAME=PID once PIDFILE names a started process: the JVM (the first
      process named java) of that process's tree (an instance started during the run, from the jar
      or through bin/image-run). The CPU of processes that are neither sampled nor descendants of
      --run (bin/load-run itself: every process of the run) is the machine's "other processes".
      One JSON object per line in OUT.
  load_run_support.py meters OUT URL...
      Every 200 ms until SIGTERM, each URL's /prometheus (with the bearer token in
      $METERS_TOKEN, if set): the admission's and the event loops' gauges (METERS), one JSON
      object per instance and read in OUT, with the time of the read and the instance's number
      (its place among the URLs). The summary shows instance 1's, second by second of the sale's
      start.
  load_run_support.py proxy TARGET_PORT DELAY_MS
      A TCP proxy on a free port of 127.0.0.1 (it prints "PROXY_PORT <port>" first) to
      127.0.0.1:TARGET_PORT that delays every chunk of bytes by DELAY_MS in each direction, in
      order and without limiting throughput (--store-latency: gRPC to the emulator and the
      PostgreSQL protocol pass through it unchanged). Runs until SIGTERM.
  load_run_support.py capacity RUN_DIR WARMUP_S DURATION_S
      The claims per second of the calibration (RUN_DIR/calibration-answers.csv,
      calibration-outcome.json): the 201s answered after WARMUP_S, over DURATION_S; prints the
      whole number (0 when nothing was measured), and on stderr what it counted.
  load_run_support.py floor RUN_DIR
      The p99 of the floor phase's attempts in ms (RUN_DIR/floor-outcome.json), 0 without one.
  load_run_support.py front-end-stats SOCKET
      HAProxy's counters per instance (--front-end), read from its stats socket, as JSON.
  load_run_support.py front-end-clear SOCKET
      Clears those counters (before the measured run).
  load_run_support.py summary RUN_DIR
      Reads what bin/load-run left in RUN_DIR (run.json, samples*.jsonl, outcome.json,
      answers.csv, calibration-* and floor-* files, freeze.json, audit.json, campaign.json, the
      Gatling report), prints the summary, writes RUN_DIR/summary.txt, and exits 0 only when the
      store checks hold (and the Gatling run and the targets passed, unless keep-going); 3 when
      they hold but an overload run (W6, W8) was not overloaded.
"""
import asyncio
import calendar
import collections
import csv
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")
# Above this share of the machine taken by processes not of this run, the summary warns.
OTHERS_WARNING_PCT = 10
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def free_ports(count):
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def proc_status(pid):
    """VmRSS and VmHWM in KB and Threads of a live process, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return {
            "rssKb": int(fields["VmRSS"].split()[0]),
            "hwmKb": int(fields["VmHWM"].split()[0]),
            "threads": int(fields["Threads"]),
        }
    except (OSError, KeyError, ValueError):
        return None


def open_fds(pid):
    """The number of file descriptors a process has open, or None."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def fd_limit(pid):
    """The soft limit of open files of a process (None: unlimited or unknown)."""
    try:
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    soft = line[len("Max open files"):].split()[0]
                    return int(soft) if soft.isdigit() else None
    except OSError:
        pass
    return None


def process_name(pid):
    """The name of a process's executable (/proc/PID/comm), or None."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def added_jvm(pid_file, tree):
    """The JVM an added instance runs as: the first process named java in the tree of the process
    pid_file names (itself, from the jar; two below bin/image-run, from the image); None before."""
    try:
        with open(pid_file) as f:
            root = int(f.read().strip())
    except (OSError, ValueError):
        return None
    return next((p for p in descendants(root, tree) if process_name(p) == "java"), None)


def cpu_ticks(pid):
    """utime + stime of a process, in clock ticks, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            after_name = f.read().rsplit(")", 1)[1].split()
        return int(after_name[11]) + int(after_name[12])
    except (OSError, IndexError, ValueError):
        return None


def all_processes():
    """{pid: (ppid, cpu ticks)} of every process."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                found[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
            except (OSError, IndexError, ValueError):
                pass
    return found


def children_of(processes):
    tree = {}
    for pid, (ppid, _) in processes.items():
        tree.setdefault(ppid, []).append(pid)
    return tree


def command_line(pid):
    """Working directory and command line of a process (which build it belongs to)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        return f"(in {os.readlink(f'/proc/{pid}/cwd')}) {command}"
    except OSError:
        return "?"


def descendants(root, tree):
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, []))
    return found


def machine_ticks():
    """Total and busy ticks of all cores, and the busy ticks in interrupts (network on loopback)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values[:8]), sum(values[:8]) - idle, values[5] + values[6]


class HeapWatcher:
    """Follows `jstat -gc PID 1000` and keeps the latest used heap (KB) and GC counts."""

    def __init__(self, pid):
        self.latest = None
        self.process = subprocess.Popen(
            ["jstat", "-gc", str(pid), "1000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        header = None
        for line in self.process.stdout:
            cells = line.split()
            if not cells:
                continue
            if cells[0] == "S0C":
                header = cells
                continue
            if header and len(cells) == len(header):
                try:
                    # "-": a column the collector has not (CGC and CGCT of the Serial collector)
                    row = dict(zip(header, (0.0 if c == "-" else float(c.replace(",", ".")) for c in cells)))
                except ValueError:
                    continue
                self.latest = {
                    "heapUsedKb": row["S0U"] + row["S1U"] + row["EU"] + row["OU"],
                    "heapCommittedKb": row["S0C"] + row["S1C"] + row["EC"] + row["OC"],
                    "youngGcs": row.get("YGC", 0),
                    "fullGcs": row.get("FGC", 0),
                }

    def stop(self):
        self.process.terminate()


def sample(out, named, trees, added=None, run_root=None):
    named = dict(named)
    heaps = {name: HeapWatcher(pid) for name, pid in named.items()}
    trees = dict(trees, sampler=os.getpid())  # its own cost, jstat included
    added = dict(added or {})
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    previous = {}  # pid -> ticks, of the processes not of this run
    others = {}  # pid -> [ticks used while sampled, command line]
    with open(out, "a") as f:
        while not stopping.is_set():
            processes = all_processes()
            tree = children_of(processes)
            for name, pid_file in list(added.items()):
                jvm = added_jvm(pid_file, tree)
                if jvm is not None:
                    named[name] = jvm
                    heaps[name] = HeapWatcher(jvm)
                    del added[name]
            mine = set(named.values())
            for root in list(trees.values()) + ([run_root] if run_root else []):
                mine.update(descendants(root, tree))
            other_ticks = 0
            for pid, (_, ticks) in processes.items():
                if pid in mine or pid not in previous:
                    continue
                used = max(0, ticks - previous[pid])
                other_ticks += used
                if used:
                    other = others.setdefault(pid, [0, None])
                    other[0] += used
                    if other[1] is None:
                        other[1] = command_line(pid)[:160]
            previous = {pid: ticks for pid, (_, ticks) in processes.items() if pid not in mine}
            total, busy, irq = machine_ticks()
            line = {
                "t": time.time(),
                "machineTicks": total,
                "machineBusyTicks": busy,
                "machineIrqTicks": irq,
                "otherTicks": other_ticks,
                "procs": {},
            }
            for name, pid in named.items():
                status = proc_status(pid)
                if status is None:
                    continue
                status["cpuTicks"] = cpu_ticks(pid)
                status["fds"] = open_fds(pid)
                status["fdLimit"] = fd_limit(pid)
                if heaps[name].latest:
                    status.update(heaps[name].latest)
                line["procs"][name] = status
            if trees:
                for name, root in trees.items():
                    pids = descendants(root, tree)
                    ticks = [cpu_ticks(p) for p in pids]
                    statuses = [s for s in (proc_status(p) for p in pids) if s]
                    # the limit is each process's own: the one with most descriptors open
                    fds, most = max(((open_fds(p) or 0, p) for p in pids), default=(0, None))
                    line["procs"][name] = {
                        "cpuTicks": sum(t for t in ticks if t is not None),
                        "rssKb": sum(s["rssKb"] for s in statuses),
                        "threads": sum(s["threads"] for s in statuses),
                        "fds": fds,
                        "fdLimit": fd_limit(most) if most is not None else None,
                    }
            f.write(json.dumps(line) + "\n")
            f.flush()
            stopping.wait(1.0)
        top = sorted(others.items(), key=lambda item: -item[1][0])[:3]
        f.write(json.dumps({"others": [[pid, used / TICKS, command] for pid, (used, command) in top]}) + "\n")
    for heap in heaps.values():
        heap.stop()


# The gauges the meters scraper reads, by their Prometheus name, as the names in meters.jsonl.
METERS = {
    "flashclaim_admission_limit": "limit",
    "flashclaim_admission_slot_ceiling": "ceiling",
    "flashclaim_admission_in_flight": "inFlight",
    "flashclaim_admission_queued": "queued",
    "flashclaim_admission_drain_rate": "drainRate",
    "flashclaim_admission_booked_seconds": "bookedSeconds",
    "flashclaim_admission_fleet_floor_seconds": "fleetFloorSeconds",
    "flashclaim_admission_show_up_share": "showUpShare",
    "flashclaim_http_event_loop_lag_seconds": "loopLagSeconds",
}
METERS_INTERVAL_S = 0.2
# The seconds of the sale's start the summary shows the meters of.
METERS_SHOWN_S = 12


def read_meters(text):
    """The METERS gauges of a /prometheus text: a gauge with several series gives its largest."""
    values = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        name = re.split(r"[{ ]", line, 1)[0]
        if name not in METERS:
            continue
        try:
            value = float(line.rsplit(" ", 1)[1])
        except (IndexError, ValueError):
            continue
        if value != value:  # NaN: no value (a ceiling that is not set)
            values.setdefault(METERS[name], None)
            continue
        key = METERS[name]
        if values.get(key) is None or value > values[key]:
            values[key] = value
    return values


def meters(out, urls):
    """The meters scraper (see the module's comment)."""
    token = os.environ.get("METERS_TOKEN")
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    with open(out, "a") as f:
        while not stopping.is_set():
            began = time.time()
            for number, url in enumerate(urls, 1):
                request = urllib.request.Request(url.rstrip("/") + "/prometheus")
                if token:
                    request.add_header("Authorization", "Bearer " + token)
                try:
                    with urllib.request.urlopen(request, timeout=1) as response:
                        text = response.read().decode("utf-8", "replace")
                except (OSError, ValueError):
                    continue  # not up yet, gone, or too slow this time: the next read counts
                line = {"t": round(time.time(), 3), "instance": number}
                line.update(read_meters(text))
                f.write(json.dumps(line) + "\n")
            f.flush()
            stopping.wait(max(0.0, METERS_INTERVAL_S - (time.time() - began)))


def describe_meters(run_dir, outcome, out):
    """Instance 1's admission meters, second by second from the sale's start (meters.jsonl)."""
    path = os.path.join(run_dir, "meters.jsonl")
    start = (outcome or {}).get("startEpochMs")
    if not os.path.exists(path) or not start:
        return
    by_second = {}
    with open(path) as f:
        for text in f:
            try:
                line = json.loads(text)
            except ValueError:
                continue
            second = int((line.get("t", 0) * 1000 - start) // 1000)
            if line.get("instance") == 1 and 0 <= second < METERS_SHOWN_S:
                by_second[second] = line  # the last read of each second
    if not by_second:
        return

    def shown(value, fmt="{:.0f}"):
        return "-" if value is None else fmt.format(value)

    out("  instance-1's admission, the last read of each second of the sale's start"
               " (meters.jsonl, every 200 ms): limit / ceiling, in flight / queued, drain per s,"
               " book reach s, show-up share, loop lag ms")
    for second in sorted(by_second):
        m = by_second[second]
        lag = m.get("loopLagSeconds")
        out(f"    {second:>3} s: {shown(m.get('limit'))} / {shown(m.get('ceiling'))},"
                   f" {shown(m.get('inFlight'))} / {shown(m.get('queued'))},"
                   f" {shown(m.get('drainRate'))}, {shown(m.get('bookedSeconds'), '{:.1f}')},"
                   f" {shown(m.get('showUpShare'), '{:.2f}')},"
                   f" {shown(None if lag is None else lag * 1000)}")


def gatling_console(log_path):
    """The last "Global Information" block, the assertions and the errors of Gatling's console."""
    try:
        with open(log_path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    starts = [i for i, line in enumerate(lines) if line.startswith("---- Global Information")]
    if not starts:
        return None
    stats, errors, assertions = {}, [], []
    for line in lines[starts[-1] + 1:]:
        if not line.startswith(">"):
            break
        cells = [c.strip() for c in line[1:].split("|")]
        if len(cells) == 4:
            stats[cells[0]] = [c.replace(",", "") for c in cells[1:]]
    in_errors = False
    for line in lines[starts[-1]:]:
        if line.startswith("---- Errors"):
            in_errors = True
        elif in_errors and line.startswith("> "):
            errors.append(line[2:].strip())
        elif in_errors and not line.startswith(">"):
            in_errors = False
        # "Global: ..." or, for assertions on one request ("claim" with hammering users), "claim: ..."
        if re.match(r"^[\w -]+: .* : (true|false) \(actual : ", line):
            assertions.append(line)
    return {"stats": stats, "errors": errors, "assertions": assertions}


def emulator_refusals(log_path, offset):
    """Refused writes the emulator logged from byte offset on (it logs each with a stack trace)."""
    try:
        with open(log_path, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return None
    counts = {"lost": 0, "taken": 0, "other": 0}
    for line in text.splitlines():
        if line.startswith("WARNING: Operation failed:"):
            if "does not match the required base version" in line:
                counts["lost"] += 1
            elif "already exists" in line:
                counts["taken"] += 1
            else:
                counts["other"] += 1
    return counts


def service_latency(run_dir, instances, campaign):
    """Claims of the campaign in the instances' access logs: {status: count}, the sorted times (ms)
    each spent inside the service, and {instance name: claims it answered}; None without an
    access log."""
    marker = f" /v1/campaigns/{campaign}/claims HTTP"
    statuses, times, per_instance = {}, [], {}
    for i in range(1, instances + 1):
        name = f"instance-{i}"
        try:
            with open(os.path.join(run_dir, f"{name}.log"), errors="replace") as f:
                for line in f:
                    if "HTTP_ACCESS_LOGGER" in line and marker in line:
                        cells = line.split()
                        statuses[cells[-2]] = statuses.get(cells[-2], 0) + 1
                        times.append(int(cells[-1]))
                        per_instance[name] = per_instance.get(name, 0) + 1
        except (OSError, ValueError, IndexError):
            continue
    return (statuses, sorted(times), per_instance) if times else None


def percentile(values, percent):
    return values[max(0, -(-len(values) * percent // 100) - 1)]


def load_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def mb(kb):
    return f"{kb / 1024:.0f} MB"


def resources(samples, names):
    """Per process: peak RSS, threads, used heap; mean and peak CPU % (100 % = one core)."""
    rows = {}
    for name in names:
        # a process tree whose processes are all gone has no figures
        series = [s for s in samples if name in s["procs"] and s["procs"][name]["rssKb"] > 0]
        if not series:
            continue
        procs = [s["procs"][name] for s in series]
        row = {
            "peakRssKb": max(p["rssKb"] for p in procs),
            "peakThreads": max(p["threads"] for p in procs),
            "lastThreads": procs[-1]["threads"],
        }
        fds = [p["fds"] for p in procs if p.get("fds") is not None]
        if fds:
            row["peakFds"] = max(fds)
            row["firstFds"] = fds[0]
            row["peakFdsAt"] = next(s["t"] for s, p in zip(series, procs) if p.get("fds") == row["peakFds"])
        limits = [p["fdLimit"] for p in procs if p.get("fdLimit") is not None]
        if limits:
            row["fdLimit"] = limits[-1]
        heaps = [p["heapUsedKb"] for p in procs if "heapUsedKb" in p]
        if heaps:
            row["peakHeapKb"] = max(heaps)
            row["lastHeapKb"] = heaps[-1]
            row["fullGcs"] = procs[-1].get("fullGcs", 0)
        cpu = [
            (b["procs"][name]["cpuTicks"] - a["procs"][name]["cpuTicks"]) / TICKS / (b["t"] - a["t"])
            for a, b in zip(series, series[1:])
            if b["t"] > a["t"]
            and a["procs"][name].get("cpuTicks") is not None
            and b["procs"][name].get("cpuTicks") is not None
            and b["procs"][name]["cpuTicks"] >= a["procs"][name]["cpuTicks"]  # not when one of a tree ended
        ]
        if cpu:
            row["meanCpuPct"] = 100 * sum(cpu) / len(cpu)
            row["peakCpuPct"] = 100 * max(cpu)
        rows[name] = row
    return rows


def instance_names(run, samples=()):
    """instance-1 to instance-N, and instance-N+1 when the run added one (--add-instance-at) and
    the sampler found it: the run's own instances, not other processes."""
    names = [f"instance-{i}" for i in range(1, run["instances"] + 1)]
    added = f"instance-{run['instances'] + 1}"
    if run.get("addInstanceAt") and any(added in s["procs"] for s in samples):
        names.append(added)
    return names


def cpu_seconds(samples, name):
    """CPU time (utime + stime, from /proc/<pid>/stat) the process used between the first and the
    last sample that have it, in seconds; None without two such samples."""
    ticks = [s["procs"][name]["cpuTicks"] for s in samples
             if name in s["procs"] and s["procs"][name].get("cpuTicks") is not None]
    if len(ticks) < 2 or ticks[-1] < ticks[0]:
        return None
    return (ticks[-1] - ticks[0]) / TICKS


def describe_cpu_per_answer(run, samples, outcome, inside, out):
    """Per instance: answers, answers/s, CPU seconds and CPU per answer (all attempts the instance
    answered, 503s included, as its access log counts them); without an access log, all instances
    together over every attempt the simulation counted. The store's CPU per answer after them."""
    if len(samples) < 2:
        return
    span = samples[-1]["t"] - samples[0]["t"]
    names = instance_names(run, samples)
    per_instance = inside[2] if inside else None
    rows = []
    if per_instance:
        rows = [(name, per_instance.get(name, 0), cpu_seconds(samples, name)) for name in names]
    elif outcome:
        cpus = [cpu_seconds(samples, name) for name in names]
        if all(c is not None for c in cpus):
            rows = [("instances", sum(outcome["attempts"].values()), sum(cpus))]
    if rows and outcome:
        # the store serves every instance: its CPU over every answer
        for store in ("emulator", "postgres"):
            cpu = cpu_seconds(samples, store)
            if cpu is not None:
                rows.append((store, sum(outcome["attempts"].values()), cpu))
    peaks = resources(samples, [name for name, _, _ in rows])
    for name, answered, cpu in rows:
        if cpu is None or not answered:
            continue
        peak = peaks.get(name, {})
        heap = f", heap peak {mb(peak['peakHeapKb'])}" if "peakHeapKb" in peak else ""
        threads = f", threads peak {peak['peakThreads']}" if "peakThreads" in peak else ""
        out(
            f"  {name}: {answered} answers in {span:.1f} s ({answered / span:.0f}/s), "
            f"CPU {cpu:.1f} s = {1000 * cpu / answered:.2f} ms CPU per answer{heap}{threads}"
        )


def scraped(path, series):
    """The value of a sample at /prometheus as saved in a file, summed over its labels; None when
    the file or the series is missing."""
    try:
        with open(path) as f:
            values = [float(line.rsplit(" ", 1)[1]) for line in f
                      if line.startswith(series + " ") or line.startswith(series + "{")]
    except (OSError, ValueError, IndexError):
        return None
    return sum(values) if values else None


def moved_during_run(run_dir, i, series_list):
    """How far each series of instance i's /prometheus moved over the measured run (saved before
    and after it), as {series: delta}; series missing on either side are left out."""
    moved = {}
    for series in series_list:
        before = scraped(os.path.join(run_dir, f"metrics-{i}-before.txt"), series)
        after = scraped(os.path.join(run_dir, f"metrics-{i}-after.txt"), series)
        if before is not None and after is not None:
            moved[series] = after - before
    return moved


FRONT_END_ARRIVALS = "flashclaim_http_front_end_arrivals_total"
FRONT_END_WAITED = "flashclaim_http_front_end_waited_seconds_total"


def describe_front_end_wait(run_dir, instances, out):
    """Per instance, how long requests took from the front end's stamp (X-Request-Start) to the
    service's first filter during the measured run: the wait the service's own timings miss."""
    for i in range(1, instances + 1):
        moved = moved_during_run(run_dir, i, (FRONT_END_ARRIVALS, FRONT_END_WAITED))
        if len(moved) == 2 and moved[FRONT_END_ARRIVALS] > 0:
            out(f"  instance-{i}: from the front end to the service's first filter: mean "
                f"{1000 * moved[FRONT_END_WAITED] / moved[FRONT_END_ARRIVALS]:.0f} ms over "
                f"{moved[FRONT_END_ARRIVALS]:.0f} requests stamped by the front end")


def describe_sold_out_path(run_dir, instances, out):
    """Per instance, the sold-out fast path during the measured run: claims answered sold out on a
    proof (no pool query) and reads of the additions counter, from /prometheus before and after."""
    for i in range(1, instances + 1):
        moved = moved_during_run(
            run_dir, i, ("flashclaim_soldout_proven_total", "flashclaim_soldout_counter_reads_total"))
        if len(moved) == 2:
            out(
                f"  instance-{i} sold-out fast path: {moved['flashclaim_soldout_proven_total']:.0f} claims "
                f"answered on a proof, {moved['flashclaim_soldout_counter_reads_total']:.0f} counter reads"
            )


CANDIDATE_SERIES = (
    "flashclaim_store_queries_total",
    "executor_seconds_sum{name=\"flashclaim-probes\"}",
    "executor_seconds_count{name=\"flashclaim-probes\"}",
    "flashclaim_store_candidate_waits_total",
    "flashclaim_store_candidate_wait_seconds_total",
)


def describe_candidate_waits(run_dir, instances, out):
    """Per instance (Firestore's default strategy), the probes of the pool during the measured run,
    their mean time, and the waits of claims that found no candidate ready for one: a claim's
    admission slot held while a slow query runs, which a W8 run on loaded cores shows as coupons
    handed out in bursts."""
    for i in range(1, instances + 1):
        moved = moved_during_run(run_dir, i, CANDIDATE_SERIES)
        if len(moved) != len(CANDIDATE_SERIES):
            continue
        queries, probe_seconds, probes, waits, waited = (moved[s] for s in CANDIDATE_SERIES)
        mean_probe = f"{1000 * probe_seconds / probes:.0f} ms" if probes > 0 else "-"
        mean_wait = f"{1000 * waited / waits:.0f} ms" if waits > 0 else "-"
        out(f"  instance-{i} pool probes: {probes:.0f} ({queries:.0f} queries), mean {mean_probe}; "
            f"claims' waits for one: {waits:.0f}, mean {mean_wait}")


STATUS_READS = "flashclaim_status_stock_reads_total"


def describe_sale_end(answers, out):
    """When the pool's end was proven, as the client saw it: the last 201 and the first 410 (each
    when its answer arrived, from the first attempt sent), and the 503s answered in between, which
    a sale's end proven late (a query of the emptied pool slower than the claim deadline) shows."""
    if not answers:
        return
    start = min(sent for sent, *_ in answers)
    won = [sent + ms for sent, ms, status, *_ in answers if status == "201"]
    gone = [sent + ms for sent, ms, status, *_ in answers if status == "410"]
    if not won or not gone:
        return
    last, first = max(won), min(gone)
    times = (
        f"  sale's end: last coupon answered at {(last - start) / 1000:.1f} s, first 410 at "
        f"{(first - start) / 1000:.1f} s"
    )
    if first < last:
        # a 201 slow to reach its client (sent before the pool ran out) arrives after a 410
        out(f"{times} (the last coupon's answer reached its client {(last - first) / 1000:.1f} s after "
            f"the first 410 reached another)")
        return
    between = sum(1 for sent, ms, status, *_ in answers if status.startswith("503") and last < sent + ms < first)
    out(f"{times} (the pool's end proven {(first - last) / 1000:.1f} s after its last coupon; "
        f"{between} 503s answered in between)")


def describe_status(run_dir, run, outcome, checks, out):
    """W7 run next to the sale (--with-status): its answers per second and latency, where it fell
    in the sale, its assertions, and the stock reads of the status route per second per instance
    (from /prometheus before and after the run: nothing but W7 asks for the status meanwhile)."""
    status = load_json(os.path.join(run_dir, "status-outcome.json"))
    out(f"W7 status polling alongside: {run['statusUsers']} requests within {run['statusDuration']} s to instance-1")
    if not status or not status.get("answers"):
        checks.completion(False, "W7 wrote no outcome file or got no answer")
        return
    answers = status["answers"]
    first, last = status["firstAnswerEpochMs"], status["lastAnswerEpochMs"]
    span = max(1e-3, (last - first) / 1000)
    by_status = ", ".join(f"{k}: {v}" for k, v in status["byStatus"].items())
    out(f"  answers: {answers} in {span:.2f} s = {answers / span:.0f}/s (first to last answer); by status: {by_status}")
    console = gatling_console(os.path.join(run_dir, "status.log"))
    if console and "request count" in console["stats"]:
        p = {key: values[0] for key, values in console["stats"].items()}
        out(
            "  latency ms: "
            + "  ".join(f"p{q} {p.get(f'response time {q}th percentile (ms)')}" for q in (50, 95, 99))
            + f"  max {p.get('max response time (ms)')}"
        )
        for assertion in console["assertions"]:
            out(f"  assertion: {assertion}")
    if outcome and outcome.get("startEpochMs") and outcome.get("lastOutcomeEpochMs"):
        sale_start, sale_end = outcome["startEpochMs"], outcome["lastOutcomeEpochMs"]
        out(
            f"  during the sale: answers from {(first - sale_start) / 1000:.1f} s to {(last - sale_start) / 1000:.1f} s "
            f"of the sale's {(sale_end - sale_start) / 1000:.1f} s (first claim sent to last claim answered)"
        )
        checks.completion(sale_start <= first and last <= sale_end, "W7 ran inside the sale")
    ok_answers = sum(v for k, v in status["byStatus"].items() if k in ("200", "304"))
    checks.completion(ok_answers == run["statusUsers"], f"every W7 request answered 200 or 304 ({ok_answers} of {run['statusUsers']})")
    for i in range(1, run["instances"] + 1):
        before = scraped(os.path.join(run_dir, f"metrics-{i}-before.txt"), STATUS_READS)
        after = scraped(os.path.join(run_dir, f"metrics-{i}-after.txt"), STATUS_READS)
        if before is None or after is None:
            out(f"  instance-{i} stock reads for status: unknown ({STATUS_READS} not scraped)")
            continue
        reads = after - before
        out(f"  instance-{i} stock reads for status: {reads:.0f}, {reads / span:.2f}/s over W7's {span:.2f} s")
    statuses_ok = run.get("statusExit") == 0
    out(f"  W7 gatling assertions: {'passed' if statuses_ok else 'FAILED (exit ' + str(run.get('statusExit')) + ')'}")


def machine_busy(samples):
    """Mean and peak busy % of the machine (100 % = all cores), mean % in interrupts, mean % of
    processes not of this run."""
    pairs = [(a, b) for a, b in zip(samples, samples[1:]) if b["machineTicks"] > a["machineTicks"]]
    if not pairs:
        return None, None, None, None

    def mean(values):
        return 100 * sum(values) / len(values)

    busy = [(b["machineBusyTicks"] - a["machineBusyTicks"]) / (b["machineTicks"] - a["machineTicks"]) for a, b in pairs]
    irq = [(b["machineIrqTicks"] - a["machineIrqTicks"]) / (b["machineTicks"] - a["machineTicks"]) for a, b in pairs]
    other = [b["otherTicks"] / (b["machineTicks"] - a["machineTicks"]) for a, b in pairs]
    return mean(busy), 100 * max(busy), mean(irq), mean(other)


class Checks:
    """Verdicts of a run. Store checks (G1-G5 as the store and the answers show them) always
    decide; completion checks (every claim got a final answer, exact counts) decide unless the run
    is --keep-going (an overload run, where claims may end in 503)."""

    def __init__(self):
        self.items = []

    def store(self, ok, text):
        self.items.append((ok, True, text))

    def completion(self, ok, text):
        self.items.append((ok, False, text))

    def lines(self, keep_going):
        for ok, decisive, text in self.items:
            mark = "ok" if ok else ("FAIL" if decisive or not keep_going else "not met (--keep-going)")
            yield f"  [{mark}] {text}"

    def passed(self, keep_going):
        return all(ok for ok, decisive, _ in self.items if decisive or not keep_going)


def describe_gatling(console, out):
    if not console or "request count" not in console["stats"]:
        out("  gatling: no statistics in gatling.log (the simulation did not finish?)")
        return
    s = {key: values[0] for key, values in console["stats"].items()}
    total, ok, ko = console["stats"]["request count"]
    ko = "0" if ko == "-" else ko
    pct = {p: s.get(f"response time {p}th percentile (ms)") for p in (50, 95, 99)}
    out(f"  gatling requests: {total} (OK {ok}, KO {ko}), mean {s.get('mean throughput (rps)')} req/s")
    out(
        f"  latency ms (all requests): p50 {pct[50]}  p95 {pct[95]}  p99 {pct[99]}  "
        f"max {s.get('max response time (ms)')}  mean {s.get('mean response time (ms)')}"
    )
    for error in console["errors"][:5]:
        out(f"    gatling error: {error}")
    for assertion in console["assertions"]:
        out(f"  assertion: {assertion}")


# Gatling's error messages by the cause of a request without an answer, first match wins
TRANSPORT_CAUSES = (
    ("descriptors", ("too many open files", "error(-24)", "emfile")),
    ("timeout", ("timeout", "timed out")),
    ("refused or reset", ("connection refused", "connection reset", "reset by peer", "broken pipe",
                          "prematurechannelclosure", "connection closed", "closed channel")),
)


def transport_causes(errors):
    """Gatling's errors ("message   count (pct%)") counted by cause: descriptors (the client could
    not open a socket: its own limit of open files), timeout (the client's), refused or reset, other
    (any other error, a failed check included)."""
    counts = {"descriptors": 0, "timeout": 0, "refused or reset": 0, "other": 0}
    for error in errors:
        m = re.match(r"^(.*?)\s+([\d,]+)\s+\(\s*[\d.]+%\)$", error)
        if not m:
            continue
        message = m.group(1).lower()
        cause = next((c for c, keys in TRANSPORT_CAUSES if any(k in message for k in keys)), "other")
        counts[cause] += int(m.group(2).replace(",", ""))
    return counts


def in_flight_peak(answers):
    """The most attempts sent and not yet answered at once (answers.csv: sent at, ms), and when
    (epoch ms); None without answers."""
    if not answers:
        return None
    events = sorted([(sent, 1) for sent, *_ in answers] + [(sent + ms, -1) for sent, ms, *_ in answers],
                    key=lambda e: (e[0], e[1]))
    peak, at, current = 0, None, 0
    for when, step in events:
        current += step
        if current > peak:
            peak, at = current, when
    return peak, at


def describe_transport(console, run, outcome, answers, samples, out):
    """Requests without an answer, by cause from Gatling's errors; when the client ran out of file
    descriptors, a line that says so, with its open files and its requests in flight."""
    transport = (outcome or {}).get("attempts", {}).get("0", 0)
    causes = transport_causes(console["errors"] if console else [])
    if not transport and not causes["descriptors"]:
        return
    out(
        f"  transport errors by cause (Gatling's errors): the client's own file descriptors exhausted (EMFILE, a "
        f"limit of the client process on this machine): {causes['descriptors']}; client timeouts: "
        f"{causes['timeout']}; connection refused or reset: {causes['refused or reset']}; other errors: "
        f"{causes['other']} (attempts without an answer: {transport})"
    )
    flight = in_flight_peak(answers)
    begin = (outcome or {}).get("startEpochMs")
    flight_text = ""
    if flight:
        when = f" at {(flight[1] - begin) / 1000:.1f} s" if begin and flight[1] else ""
        flight_text = f"; attempts in flight (sent, not yet answered or failed; answers.csv) peak {flight[0]}{when}"
    client = resources(samples, ["gatling"]).get("gatling", {})
    fds_text = ""
    if "peakFds" in client:
        when = f" at {client['peakFdsAt'] - begin / 1000:.1f} s" if begin else ""
        fds_text = (f"; its open files peak {client['peakFds']} (limit {client.get('fdLimit', run.get('fdLimit', '?'))})"
                    f"{when}, {client['firstFds']} at the start: about {client['peakFds'] - client['firstFds']} "
                    f"more, nearly all connections")
    if causes["descriptors"]:
        out(
            f"  THE CLIENT RAN OUT OF FILE DESCRIPTORS: {causes['descriptors']} attempts failed in the Gatling "
            f"process before they were sent (it could not open a socket: a limit of the client on this machine, "
            f"ulimit -n {run.get('fdLimit', '?')}, hard {run.get('fdLimitHard', '?')}){fds_text}{flight_text}"
        )
    else:
        out(f"  client:{fds_text[1:] or ' open files not sampled'}{flight_text}")


def describe_outcome(outcome, users, expected, checks, out, paused=False):
    finals = outcome["outcomes"]
    out("  attempts by status: " + ", ".join(f"{k}: {v}" for k, v in outcome["attempts"].items()))
    out("  final answer by status: " + ", ".join(f"{k}: {v}" for k, v in finals.items()))
    span = (outcome["lastOutcomeEpochMs"] - outcome["firstOutcomeEpochMs"]) / 1000
    claims = sum(finals.values())
    rate = claims / span if span > 0 else float("nan")
    out(
        f"  claims/s: {rate:.1f} ({claims} claims answered in {span:.1f} s); retries after 503: "
        f"{outcome['retries']} (claims retried: {outcome['retriedClaims']})"
    )
    out(
        f"  users with a coupon: {outcome['usersWithCode']}  false sold-outs: {outcome['falseSoldOuts']}  "
        f"users given two codes: {outcome['sameUserDifferentCode']}  second 201s: {outcome['second201']}"
    )
    attempts = sum(outcome["attempts"].values())
    attempt_rate = attempts / span if span > 0 else float("nan")
    out(f"  answers/s: {attempt_rate:.1f} (every attempt, 503s included: {attempts}); final answers/s: {rate:.1f}")
    for label, key in (("attempt latency", "attemptMs"), ("click to final answer", "clickToAnswerMs")):
        spread = outcome.get(key)
        if spread:
            out(f"  {label} ms: p50 {spread['p50']}  p99 {spread['p99']}  max {spread['max']}")
    if "mostRetries" in outcome and claims:
        out(
            f"  retries per user: {outcome['retries'] / claims:.2f} mean, {outcome['mostRetries']} most; "
            f"tickets received {outcome['ticketsReceived']}, sent back {outcome['ticketsSent']}"
        )
    fifo = outcome.get("fifo")
    if fifo:
        out(
            f"  FIFO precision: {fifo['precision']:.4f} ({fifo['won']} of the first {fifo['first']} users "
            "to click got a coupon; 1.0 is first come, first served)"
        )
    wanted = outcome.get("minFifoPrecision") or 0
    if wanted > 0:
        checks.completion(
            bool(fifo) and fifo["precision"] >= wanted,
            f"FIFO precision >= {wanted} (got {fifo['precision'] if fifo else 'none'})",
        )
    for start, answers, unavailable, p50, p99, slowest in outcome.get("timeline", []):
        out(f"    from {start:3d} s: {answers:6d} answers, 503: {unavailable:6d}, p50 {p50} ms, p99 {p99} ms, max {slowest} ms")
    checks.store(outcome["falseSoldOuts"] == 0, f"no 410 before the last coupon was taken (got {outcome['falseSoldOuts']})")
    checks.store(outcome["sameUserDifferentCode"] == 0 and outcome["second201"] == 0, "no user got two codes or two 201s")
    # A click that races another click of the same user on the same campaign gets the modification
    # guard's 409 (the other click gets the coupon): a final answer when users click more than once.
    finals_ok = ("200", "201", "410") + (("409",) if outcome["clicksPerUser"] > 1 else ()) + (("403",) if paused else ())
    unexpected = {k: v for k, v in finals.items() if k not in finals_ok}
    checks.completion(
        not unexpected, f"every claim ended in {', '.join(finals_ok)} (others: {unexpected or 'none'})"
    )
    created, gone, again = finals.get("201", 0), finals.get("410", 0), finals.get("200", 0)
    if paused:
        # A claim answered 503 whose commit landed, retried after the pause, is answered 403 (the
        # pause comes before the user's holdings): its coupon is assigned, its user was not told.
        refused = finals.get("403", 0)
        checks.completion(
            outcome["usersWithCode"] <= expected,
            f"users with a coupon <= coupons assigned in the store = {expected} (got {outcome['usersWithCode']}; "
            f"{expected - outcome['usersWithCode']} assigned to users answered 403 after the pause)",
        )
        checks.completion(
            gone + refused == users - created - again,
            f"410 + 403 answers == users without a 201 or 200 = {users - created - again} (got {gone} + {refused})",
        )
        return
    checks.completion(
        outcome["usersWithCode"] == expected,
        f"users with a coupon == min(users, coupons) = {expected} (got {outcome['usersWithCode']})",
    )
    if outcome["clicksPerUser"] == 1:
        # A claim answered 503 whose commit landed after its deadline is answered 200 with that
        # coupon on the user's retry (design 4.1): one user, one coupon, two answers.
        checks.completion(
            created + again == expected,
            f"201 answers + 200 answers after a 503 == {expected} (got {created} + {again})",
        )
    else:
        checks.completion(created == expected, f"201 answers == {expected} (got {created})")
    if outcome["clicksPerUser"] == 1:
        checks.completion(gone == users - expected, f"410 answers == {users - expected} (got {gone})")


def describe_fifo_losses(run_dir, coupons, out):
    """Who lost their place (answers-by-user.csv): the first users to click, as many as there are
    coupons, who got none, with what their first attempt was answered and how long it took; and the
    later users who got those coupons. Where an order was lost: at the first attempt (refused while
    later clicks were served at once) or on the way back."""
    try:
        with open(os.path.join(run_dir, "answers-by-user.csv")) as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error):
        return
    users = {}
    for row in rows:
        try:
            attempt = (int(row["attempt"]), int(row["sentAtEpochMs"]), int(row["ms"]), row["status"],
                       int(row["toldMs"]))
        except (KeyError, ValueError):
            return
        users.setdefault(row["user"], []).append(attempt)
    if len(users) <= coupons:
        return
    for attempts in users.values():
        attempts.sort()
    order = sorted(users, key=lambda user: users[user][0][1])
    won = {user for user, attempts in users.items() if any(a[3] in ("200", "201") for a in attempts)}
    first = order[:coupons]
    lost = [user for user in first if user not in won]
    if not lost:
        out(f"  FIFO losses: none (every one of the first {coupons} users to click got a coupon)")
        return
    later = [user for user in order[coupons:] if user in won]

    def first_answers(group):
        """Their first attempts: statuses, and the p50 of the time to answer and of the wait told
        (Retry-After, to the millisecond), over the attempts that were told one."""
        statuses = collections.Counter(users[user][0][3] for user in group)
        times = sorted(users[user][0][2] for user in group)
        told = sorted(users[user][0][4] for user in group if users[user][0][4] >= 0)
        return (
            ", ".join(f"{k} {v}" for k, v in statuses.most_common())
            + f"; answered p50 {percentile(times, 50) if times else '-'} ms after sent"
            + (f", told to come back p50 {percentile(told, 50)} ms later" if told else "")
        )

    out(
        f"  FIFO losses: {len(lost)} of the first {coupons} users to click got no coupon "
        f"({sum(len(users[user]) for user in lost) / len(lost):.1f} attempts each); their first attempts: "
        f"{first_answers(lost)}"
    )
    out(f"    all of the first {coupons}, first attempts: {first_answers(first)}")
    out(f"    the {len(later)} later users who got coupons, first attempts: {first_answers(later)}")


def describe_store(campaign, audit, outcome, expected, checks, out, paused=False):
    if campaign:
        stock = campaign["stock"]
        out(f"  stock: total {stock['total']}  assigned {stock['assigned']}  remaining {stock['remaining']}")
        checks.completion(stock["assigned"] == expected, f"assigned == {expected} (got {stock['assigned']})")
        if outcome and not paused:
            checks.completion(
                stock["assigned"] == outcome["usersWithCode"],
                f"every assigned coupon was answered to its user ({outcome['usersWithCode']} of {stock['assigned']})",
            )
    else:
        checks.store(False, "could not read the campaign's stock")
    if audit:
        out(
            f"  audit: ok={str(audit['ok']).lower()}  coupons {audit['coupons']}  assigned {audit['assigned']}  "
            f"claims {audit['claims']}  problems {audit['problemCount']}"
        )
        for problem in audit["problems"][:5]:
            out(f"    problem: {problem}")
        checks.store(audit["ok"], "audit ok: no duplicate, no user over its limit, claims match coupons")
        checks.store(audit["claims"] == audit["assigned"], "one claim record per assigned coupon")
    else:
        checks.store(False, "could not read the audit")


def describe_resources(run, samples, top_others, out):
    names = instance_names(run, samples) + [
        "emulator", "postgres", "store-proxy", "front-end", "gatling", "gatling-w7", "sampler"]
    rows = resources(samples, names)
    for name in names:
        row = rows.get(name)
        if not row:
            continue
        heap = ""
        if "peakHeapKb" in row:
            heap = f"heap peak {mb(row['peakHeapKb'])} (end {mb(row['lastHeapKb'])}, full GCs {row['fullGcs']:.0f})  "
        cpu = f"  cpu mean {row['meanCpuPct']:.0f}% peak {row['peakCpuPct']:.0f}%" if "meanCpuPct" in row else ""
        fds = ""
        if "peakFds" in row:
            fds = f"  open files peak {row['peakFds']}" + (f" of {row['fdLimit']}" if "fdLimit" in row else "")
        out(f"  {name}: {heap}rss peak {mb(row['peakRssKb'])}  threads peak {row['peakThreads']} (end {row['lastThreads']}){cpu}{fds}")
    mean_busy, peak_busy, irq, others = machine_busy(samples)
    if mean_busy is None:
        return
    out(
        f"  machine: {os.cpu_count()} cores, busy mean {mean_busy:.0f}% peak {peak_busy:.0f}% while the "
        f"simulation ran (interrupts {irq:.0f}%, other processes about {others:.0f}%; "
        f"{run.get('busyBefore', '?')}% busy before the run)"
    )
    if others > OTHERS_WARNING_PCT:
        out(f"  WARNING: other processes took about {others:.0f}% of the machine: these figures are low")
        for pid, seconds, command in top_others:
            out(f"    other: pid {pid}, {seconds:.0f} s CPU: {command}")


def proxy(target_port, delay_ms):
    """See the module's doc: a byte-level TCP proxy adding delay_ms each way."""
    delay = delay_ms / 1000

    async def pump(reader, writer, loop):
        queue = asyncio.Queue()

        async def deliver():
            try:
                while True:
                    due, data = await queue.get()
                    wait = due - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    if data is None:
                        if writer.can_write_eof():
                            writer.write_eof()
                        return
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass

        delivering = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((loop.time() + delay, data or None))
                if not data:
                    break
        except (ConnectionError, OSError):
            queue.put_nowait((loop.time(), None))
        await delivering

    async def connected(client_reader, client_writer):
        loop = asyncio.get_running_loop()
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        for sock in (client_writer.get_extra_info("socket"), server_writer.get_extra_info("socket")):
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        await asyncio.gather(
            pump(client_reader, server_writer, loop), pump(server_reader, client_writer, loop),
            return_exceptions=True)
        for writer in (client_writer, server_writer):
            writer.close()

    async def serve():
        server = await asyncio.start_server(connected, "127.0.0.1", 0)
        print(f"PROXY_PORT {server.sockets[0].getsockname()[1]}", flush=True)
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        async with server:
            await stopping.wait()

    asyncio.run(serve())


def read_answers(path):
    """Every attempt of a phase from its answers CSV: [(sent at ms, ms, status, hammer, final)];
    None without the file."""
    rows = read_answers_by_instance(path)
    return None if rows is None else [row[:5] for row in rows]


def read_answers_by_instance(path):
    """As read_answers, each with the base URL it was sent to last (None in older files)."""
    try:
        with open(path) as f:
            next(f, None)
            rows = []
            for line in f:
                cells = line.rstrip("\n").split(",")
                if len(cells) in (5, 6):
                    rows.append((int(cells[0]), int(cells[1]), cells[2], cells[3] == "1", cells[4] == "1",
                                 cells[5] if len(cells) == 6 else None))
            return rows
    except (OSError, ValueError):
        return None


def calibration(run_dir, warmup_s, duration_s):
    """{capacity, counted, statuses, windowStart, windowEnd} of the calibration, or None."""
    outcome = load_json(os.path.join(run_dir, "calibration-outcome.json"))
    answers = read_answers(os.path.join(run_dir, "calibration-answers.csv"))
    if not outcome or not answers or not outcome.get("startEpochMs"):
        return None
    begin = outcome["startEpochMs"] + 1000 * warmup_s
    end = begin + 1000 * duration_s
    statuses = {}
    for sent, ms, status, _, _ in answers:
        if begin <= sent + ms <= end:
            statuses[status] = statuses.get(status, 0) + 1
    return {
        "capacity": statuses.get("201", 0) / duration_s if duration_s > 0 else 0,
        "statuses": statuses,
        "windowStart": begin,
        "windowEnd": end,
        "outOfCoupons": sum(1 for a in answers if a[2] == "410"),
    }


def load_samples(run_dir, name, begin_ms=None, end_ms=None):
    """Samples of one phase's sampler (samples[-name].jsonl) between two epoch ms (the second
    after the end included), and the sampler's list of other busy processes."""
    samples = []
    try:
        with open(os.path.join(run_dir, name)) as f:
            samples = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError):
        pass
    top_others = next((s["others"] for s in samples if "others" in s), [])
    samples = [s for s in samples if "t" in s]
    if begin_ms is not None and end_ms is not None:
        samples = [s for s in samples if begin_ms / 1000 <= s["t"] <= end_ms / 1000 + 1]
    return samples, top_others


def instances_cpu(samples, run):
    """CPU seconds of all instances together over the samples, None when one is unknown."""
    cpus = [cpu_seconds(samples, name) for name in instance_names(run, samples)]
    return None if any(c is None for c in cpus) else sum(cpus)


def spread_of(values):
    values = sorted(values)
    if not values:
        return None
    return {"p50": percentile(values, 50), "p99": percentile(values, 99), "max": values[-1], "n": len(values)}


def describe_spread(spread):
    return f"p50 {spread['p50']}  p99 {spread['p99']}  max {spread['max']} ms ({spread['n']} attempts)" if spread else "none"


def describe_phases(run_dir, run, outcome, answers, samples, checks, out):
    """Calibration, offered rate, floor, and the figures of an overload run against them; returns
    whether the run was overloaded (None when it had no floor to tell)."""
    instances = run["instances"]
    cal = None
    if run.get("calibrated"):
        cal = calibration(run_dir, run["calibrationWarmup"], run["calibrationSeconds"])
        if not cal:
            out("  capacity: not measured (no calibration-answers.csv)")
            checks.completion(False, "the calibration measured the capacity")
        else:
            cal_samples, _ = load_samples(run_dir, "samples-calibration.jsonl", cal["windowStart"], cal["windowEnd"])
            cpu = cpu_seconds(cal_samples, "instance-1")
            answered = sum(cal["statuses"].values())
            cpu_text = f"; CPU per claim {1000 * cpu / answered:.2f} ms" if cpu is not None and answered else ""
            out(
                f"  measured capacity: {cal['capacity']:.0f} claims/s of one instance (instance-1, closed loop of "
                f"{run['calibrationUsers']} users, {run['calibrationSeconds']} s after {run['calibrationWarmup']} s; "
                f"answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(cal["statuses"].items())) + f"){cpu_text}"
            )
            checks.completion(
                cal["outOfCoupons"] == 0,
                f"the calibration's pool lasted (410s: {cal['outOfCoupons']}; else raise --calibration-coupons)",
            )
            refused = sum(v for k, v in cal["statuses"].items() if k.startswith("503"))
            checks.completion(
                refused == 0,
                f"the calibration refused no claim (503s: {refused}; a refusal there lowers the capacity "
                "that sets the offered rate, and the run is not at 3x)",
            )
        rate = run.get("offeredRate")
        if rate:
            out(
                f"  offered: {rate} users/s ({run['users']} users in {run['duration']} s through {instances} "
                f"instance{'s' if instances > 1 else ''}; {run.get('rateRule', '')})"
            )
    floor = load_json(os.path.join(run_dir, "floor-outcome.json"))
    floor_answers = read_answers(os.path.join(run_dir, "floor-answers.csv"))
    floor_p99 = None
    if run.get("calibrated"):
        if floor and floor.get("attemptMs"):
            spread = floor["attemptMs"]
            floor_p99 = spread["p99"]
            f_samples, _ = load_samples(
                run_dir, "samples-floor.jsonl", floor.get("startEpochMs"), floor.get("lastOutcomeEpochMs"))
            cpu = instances_cpu(f_samples, run)
            count = sum(floor["attempts"].values())
            cpu_text = f"; CPU per 410 {1000 * cpu / count:.2f} ms" if cpu is not None and count else ""
            out(
                f"  floor: 410s from a pool proven empty at {run.get('floorRate')} users/s, same client: p50 {spread['p50']}  "
                f"p99 {spread['p99']}  max {spread['max']} ms ("
                + ", ".join(f"{k}: {v}" for k, v in floor["attempts"].items()) + f"){cpu_text}"
            )
            not_410 = {k: v for k, v in floor["attempts"].items() if k != "410"}
            checks.completion(not not_410, f"every floor answer 410 (others: {not_410 or 'none'})")
        else:
            out("  floor: not measured (no floor-outcome.json)")
            checks.completion(False, "the floor was measured")
    if not outcome:
        return None
    attempts = outcome["attempts"]
    unavailable = {k: v for k, v in attempts.items() if k.startswith("503")}
    too_soon = sum(v for k, v in attempts.items() if k.startswith("429"))
    transport = attempts.get("0", 0)
    out(
        f"  503s: {sum(unavailable.values())}"
        + (" (" + ", ".join(f"{k[4:] or 'untyped'}: {v}" for k, v in unavailable.items()) + ")" if unavailable else "")
        + f"; 429 retry-too-soon (retries sooner than told): {too_soon}"
        + f"; transport errors (no answer: connection error or client timeout): {transport}"
    )
    attempt = outcome.get("attemptMs")
    click = outcome.get("clickToAnswerMs")
    if attempt:
        over = f", {attempt['p99'] - floor_p99:+d} ms over the floor's p99" if floor_p99 is not None else ""
        out(f"  attempt (client, from the moment it was sent): p50 {attempt['p50']}  p99 {attempt['p99']} ms{over}")
    if click:
        out(f"  click to answer: p99 {click['p99']} ms")
    seen = outcome.get("firstSeenAfterSendMs")
    if seen:
        out(
            f"  first seen by the service (the ticket's first arrival) after the client sent: p50 {seen['p50']}"
            f"  p99 {seen['p99']}  max {seen['max']} ms (users refused at their first attempt)"
        )
    if run.get("calibrated") and cal and outcome:
        cpu = instances_cpu(samples, run)
        answered = sum(attempts.values())
        if cpu is not None and answered:
            cal_samples, _ = load_samples(run_dir, "samples-calibration.jsonl", cal["windowStart"], cal["windowEnd"])
            per_claim = cpu_seconds(cal_samples, "instance-1")
            cal_answers = sum(cal["statuses"].values())
            per_410 = None
            if floor:
                f_samples, _ = load_samples(
                    run_dir, "samples-floor.jsonl", floor.get("startEpochMs"), floor.get("lastOutcomeEpochMs"))
                f_cpu = instances_cpu(f_samples, run)
                f_count = sum(floor["attempts"].values())
                per_410 = f_cpu / f_count if f_cpu is not None and f_count else None
            refusals = sum(unavailable.values())
            line = f"  CPU: {1000 * cpu / answered:.2f} ms per answer of this run (instances' CPU {cpu:.1f} s over {answered} answers)"
            if per_claim is not None and cal_answers:
                per_claim /= cal_answers
                line += f"; per claim {1000 * per_claim:.2f} ms (calibration)"
                if per_410 is not None:
                    line += f"; per 410 {1000 * per_410:.2f} ms (floor)"
                    if refusals:
                        # an estimate: what is left of the CPU after the 201s at the calibration's
                        # and the 410s at the floor's cost, over the 503s
                        rest = cpu - outcome["outcomes"].get("201", 0) * per_claim - \
                            (attempts.get("410", 0) * per_410)
                        line += "; per refusal " + (
                            f"{1000 * rest / refusals:.2f} ms" if rest > 0 else "not measurable (negative)"
                        ) + (f" (estimate: the CPU left after the 201s at the calibration's cost and the 410s at "
                             f"the floor's, over {refusals} 503s)")
            out(line)
    overloaded = None
    if floor_p99 is not None and attempt:
        queueing = attempt["p99"] - floor_p99 > max(50, floor_p99)
        overloaded = bool(unavailable) or queueing
        out(
            f"  overloaded: {'yes' if overloaded else 'NO: not overloaded'} ({sum(unavailable.values())} 503s; "
            f"queueing {'measurable' if queueing else 'not measurable'}: attempt p99 {attempt['p99']} ms against the "
            f"floor's {floor_p99} ms, measurable above floor + max(50 ms, floor))"
        )
        if run["workload"] in ("W6", "W8"):
            limit = floor_p99 + 1000
            if outcome.get("hammerers") and answers:
                # the hammerers' answers are held for the waits they ignored (pacing): the goal is
                # the honest users', as Gatling's assertion on the requests named "claim" is
                honest = spread_of([a[1] for a in answers if not a[3]])
                checks.completion(honest["p99"] <= limit,
                                  f"honest users' attempt p99 within 1 s of the floor: {honest['p99']} <= {limit} ms")
            else:
                checks.completion(attempt["p99"] <= limit,
                                  f"attempt p99 within 1 s of the floor: {attempt['p99']} <= {limit} ms")
            checks.completion(transport == 0, f"no transport errors (got {transport})")
    return overloaded


def describe_windows(run, outcome, checks, out):
    """W1 (and W4): no 503 and every window's p99 under the limit, the first window included."""
    if run["workload"] not in ("W1", "W4") or not outcome or run.get("freezeSeconds") or outcome.get("hammer"):
        return
    limit = outcome.get("p99LimitMs") or 250
    windows = outcome.get("timeline", [])
    worst = max((w[4] for w in windows), default=None)
    out("  window p99s (ms): " + ", ".join(f"{w[0]} s: {w[4]}" for w in windows))
    checks.completion(
        worst is not None and worst < limit, f"every {outcome.get('windowSeconds', 5)}-s window's p99 < {limit} ms (worst {worst})")
    unavailable = sum(v for k, v in outcome["attempts"].items() if k.startswith("503"))
    checks.completion(unavailable == 0, f"no 503 (got {unavailable})")


def describe_freeze(run_dir, run, outcome, answers, checks, out):
    """--freeze-store: the answers before, during and after the freeze, by the time they came, and
    the slowest attempt against the claim deadline + 0.5 s."""
    freeze = load_json(os.path.join(run_dir, "freeze.json"))
    if not run.get("freezeSeconds"):
        return
    if not freeze or not answers or not outcome:
        out("  freeze: no freeze.json or no answers.csv (the store was not frozen?)")
        checks.completion(False, "the store was frozen as asked")
        return
    start, end = freeze["startEpochMs"], freeze["endEpochMs"]
    sale = outcome["startEpochMs"]
    out(
        f"  store frozen (SIGSTOP of {freeze['what']}) from {(start - sale) / 1000:.1f} s to "
        f"{(end - sale) / 1000:.1f} s of the run ({(end - start) / 1000:.1f} s)"
    )
    phases = {"before": [], "during": [], "after": []}
    for sent, ms, status, _, _ in answers:
        at = sent + ms
        phases["before" if at < start else "during" if at <= end else "after"].append((status, ms))
    for name, rows in phases.items():
        counts = {}
        for status, _ in rows:
            counts[status] = counts.get(status, 0) + 1
        spread = spread_of([ms for _, ms in rows])
        out(
            f"    answered {name} the freeze: {len(rows)} ("
            + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + f"); {describe_spread(spread)}"
        )
    slowest = max(ms for _, ms, _, _, _ in answers)
    limit = run["claimDeadlineMs"] + 500
    checks.completion(
        slowest <= limit, f"slowest attempt {slowest} ms <= the claim deadline + 0.5 s = {limit} ms")
    after = phases["after"]
    ok_after = sum(1 for status, _ in after if status in ("201", "410", "200"))
    checks.completion(
        ok_after > 0 or not after, f"the store answers again after the freeze ({ok_after} of {len(after)} answers 201/200/410)")


def describe_hammer(run, outcome, answers, checks, out):
    """-Dhammer: the honest users' FIFO precision and attempts apart from the hammerers', and
    whether hammering gained anything: the hammerers' FIFO precision no higher than the honest
    users'."""
    if not outcome or not outcome.get("hammerers"):
        return
    out(f"  hammering users: {outcome['hammerers']} ({100 * outcome['hammer']:.1f} %), retrying at once, ignoring Retry-After")
    for label, key, flag in (("honest", "fifoHonest", False), ("hammering", "fifoHammer", True)):
        fifo = outcome.get(key)
        fifo_text = (f"FIFO {fifo['precision']:.4f} ({fifo['won']} of their {fifo['first']} among the first "
                     f"{outcome['coupons']} to click)") if fifo else "FIFO: none among the first to click"
        mine = [a for a in answers or [] if a[3] == flag]
        unavailable = sum(1 for a in mine if a[2].startswith("503"))
        too_soon = sum(1 for a in mine if a[2].startswith("429"))
        out(f"    {label}: {fifo_text}; attempts {describe_spread(spread_of([a[1] for a in mine]))}, 503s {unavailable}, 429s {too_soon}")
    honest, hammer = outcome.get("fifoHonest"), outcome.get("fifoHammer")
    if honest and hammer:
        checks.completion(hammer["precision"] <= honest["precision"],
                          f"hammering gained nothing: the hammerers' FIFO precision {hammer['precision']:.4f} <= "
                          f"the honest users' {honest['precision']:.4f}")


def tree_ticks(pid):
    """utime + stime of a process and all its descendants, in clock ticks; and their PIDs."""
    processes = all_processes()
    pids = descendants(pid, children_of(processes)) if pid in processes else []
    return sum(processes[p][1] for p in pids), pids


def watch_added_instance(run_dir, pid, log_path, started_file, urls_file, warm_pid, warm_url, window_s):
    """--add-instance-at: waits for the added instance's port (its log) and readiness, then adds its
    URL to the client's file of base URLs, and reads the CPU time of it and of a warm instance over
    its first window_s seconds after ready; all in added-instance.json. The CPU time is that of each
    one's process tree: an instance started from the image is a JVM two processes below pid
    (bin/image-run, unshare, then the JVM in a PID namespace of its own)."""
    url = None
    while url is None:
        try:
            with open(log_path) as f:
                m = re.search(r"Server Running: http://[^:]*:(\d+)", f.read())
                url = f"http://127.0.0.1:{m.group(1)}" if m else None
        except OSError:
            pass
        if url is None:
            if not os.path.exists(f"/proc/{pid}"):
                return 1
            time.sleep(0.05)
    while True:
        if not os.path.exists(f"/proc/{pid}"):
            return 1
        try:
            with urllib.request.urlopen(url + "/health/readiness", timeout=2) as r:
                if r.status == 200:
                    break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    ready_ms = int(time.time() * 1000)
    with open(urls_file, "a") as f:
        f.write(url + "\n")
    (added, pids), (warm, _) = tree_ticks(pid), tree_ticks(warm_pid)
    time.sleep(window_s)
    (added_after, pids_after), (warm_after, _) = tree_ticks(pid), tree_ticks(warm_pid)
    try:
        with open(started_file) as f:
            started_ms = int(f.read().strip())
    except (OSError, ValueError):
        started_ms = None
    result = {"url": url, "warmUrl": warm_url, "startedEpochMs": started_ms, "readyEpochMs": ready_ms,
              "windowSeconds": window_s,
              "cpuSeconds": (added_after - added) / TICKS, "warmCpuSeconds": (warm_after - warm) / TICKS,
              "sampledProcesses": [command_line(p) for p in pids_after if p in pids]}
    with open(os.path.join(run_dir, "added-instance.json"), "w") as f:
        json.dump(result, f)
    return 0


def describe_added_instance(run_dir, out):
    added = load_json(os.path.join(run_dir, "added-instance.json"))
    if not added:
        if load_json(os.path.join(run_dir, "run.json"), {}).get("addInstanceAt"):
            out("  added instance: no report (it did not become ready during the run?)")
        return
    rows = read_answers_by_instance(os.path.join(run_dir, "answers.csv")) or []
    begin = added["readyEpochMs"]
    end = begin + added["windowSeconds"] * 1000
    started = added.get("startedEpochMs")
    out(f"  added instance {added['url']}: process start to ready "
        f"{(begin - started) / 1000:.2f} s" if started else f"  added instance {added['url']}")
    run = load_json(os.path.join(run_dir, "run.json"), {})
    if run.get("addedFrom"):
        out(f"    started from {run['addedFrom']}; its JVM: {run.get('addedJvm', '?')}")
    for name, url, cpu in (("added", added["url"], added["cpuSeconds"]), ("warm", added["warmUrl"], added["warmCpuSeconds"])):
        window = [r for r in rows if r[5] == url and begin <= r[0] < end]
        times = sorted(r[1] for r in window)
        statuses = {}
        for r in window:
            statuses[r[2]] = statuses.get(r[2], 0) + 1
        per_answer = f"{1000 * cpu / len(window):.2f} ms" if window else "n/a"
        out(f"    {name} {url}, first {added['windowSeconds']} s after ready: {len(window)} answers, "
            f"p50 {percentile(times, 50) if times else '-'} ms, p99 {percentile(times, 99) if times else '-'} ms; "
            f"CPU {cpu:.2f} s, {per_answer} per answer; "
            + (", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())) or "no answers"))


def firestore_claims_after(port, project, campaign, after_ms):
    """Claim records of the campaign whose claimedAt is after after_ms, read from the emulator:
    [claimedAt epoch ms]; None when the query fails."""
    iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(after_ms / 1000)) + f".{after_ms % 1000:03d}Z"
    query = {"structuredQuery": {"from": [{"collectionId": "claims"}], "where": {"fieldFilter": {
        "field": {"fieldPath": "claimedAt"}, "op": "GREATER_THAN", "value": {"timestampValue": iso}}}}}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/projects/{project}/databases/(default)/documents/campaigns/{campaign}:runQuery",
        data=json.dumps(query).encode(), headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            found = json.load(r)
    except (OSError, ValueError):
        return None
    times = []
    for item in found:
        value = item.get("document", {}).get("fields", {}).get("claimedAt", {}).get("timestampValue")
        if value:
            whole, _, frac = value.rstrip("Z").partition(".")
            seconds = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S"))
            times.append(seconds * 1000 + int((frac + "000")[:3]))
    return times


def describe_pause(run_dir, run, outcome, answers, checks, out):
    pause = load_json(os.path.join(run_dir, "pause.json"))
    if not pause:
        if run.get("pauseAt"):
            checks.completion(False, "the campaign was paused (no pause.json)")
        return
    ack = pause.get("ackEpochMs")
    if not ack:
        checks.completion(False, f"the pause was acknowledged (answer {pause.get('status')})")
        return
    begin = (outcome or {}).get("startEpochMs") or pause["sentEpochMs"]
    out(f"  pause: PATCH sent {pause['sentEpochMs'] - begin} ms into the run, acknowledged "
        f"{ack - pause['sentEpochMs']} ms later")
    created_after = [r[0] + r[1] - ack for r in (answers or []) if r[2].startswith("201") and r[0] + r[1] > ack]
    out(f"    201s answered after the ack (client's receipt time): {len(created_after)}"
        + (f", the last {max(created_after)} ms after" if created_after else ""))
    paused = [r[0] + r[1] - ack for r in (answers or []) if r[2].startswith("403")]
    first_refusal_after = min(paused) if paused else None
    if paused:
        when = (f"{first_refusal_after} ms after" if first_refusal_after >= 0 else f"{-first_refusal_after} ms before")
        out(f"    403 campaign-paused answers: {len(paused)}, the first received {when} the ack")
    else:
        out("    403 campaign-paused answers: 0")
    stored = pause.get("storeClaimsAfter")
    if stored is not None:
        out(f"    claims with claimedAt after the ack (store): {len(stored)}"
            + (f", the last {max(stored) - ack} ms after" if stored else ""))
    else:
        out("    claims with claimedAt after the ack (store): not read (Firestore emulator only)")
    late = max(created_after) if created_after else 0
    checks.completion(late <= 2000, f"no 201 answered more than 2 s after the pause's ack (latest: {late} ms)")


def front_end_command(socket_path, command):
    """One command to HAProxy's stats socket; its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(socket_path)
        s.sendall(command.encode() + b"\n")
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode()


def front_end_stats(socket_path):
    """Per instance (HAProxy's server line): queue and connection peaks, 503s, mean times."""
    text = front_end_command(socket_path, "show stat").lstrip("# ")
    rows = list(csv.DictReader(io.StringIO(text)))
    stats = {}
    for row in rows:
        if row.get("svname") in ("FRONTEND", "BACKEND") or not row.get("pxname"):
            continue
        stats[row["svname"]] = {
            key: int(row[key]) if (row.get(key) or "").isdigit() else None
            for key in ("qmax", "smax", "slim", "stot", "hrsp_5xx", "qtime", "rtime", "ttime", "econ", "eresp")
        }
    # the queue of requests waiting for a connection, and the 503s the front end itself gave
    # (queue timeouts), are its backend's, not its server's
    for row in rows:
        if row.get("svname") == "BACKEND" and row.get("pxname") in stats:
            server = stats[row["pxname"]]
            server["backendRefusals"] = int(row.get("hrsp_5xx") or 0) - int(server.get("hrsp_5xx") or 0)
            for key in ("qmax", "qtime"):
                if (row.get(key) or "").isdigit():
                    server[key] = max(int(row[key]), server.get(key) or 0)
    return stats


def describe_front_end(run, stats, out):
    if not run.get("frontEnd"):
        return
    line = (f"  front end: HAProxy, at most {run['frontEnd']} connections per instance, the requests beyond "
            f"them queued in arrival order (10 s at most)")
    out(line)
    for name, s in sorted((stats or {}).items()):
        out(f"    {name}: queue peak {s.get('qmax')} requests (mean queue time of the last 1,024 "
            f"{s.get('qtime')} ms), connections peak {s.get('smax')} of {s.get('slim')}, "
            f"requests {s.get('stot')}, refused by the front end {s.get('backendRefusals', 0)}")


def summary(run_dir):
    run = load_json(os.path.join(run_dir, "run.json"), {})
    outcome = load_json(os.path.join(run_dir, "outcome.json"))
    samples = []
    try:
        with open(os.path.join(run_dir, "samples.jsonl")) as f:
            samples = [json.loads(line) for line in f if line.strip()]
    except OSError:
        pass
    top_others = next((s["others"] for s in samples if "others" in s), [])
    samples = [s for s in samples if "t" in s]
    if outcome and outcome.get("startEpochMs") and outcome.get("lastOutcomeEpochMs"):
        # only while the simulation ran: not Maven's start, not the report
        begin, end = outcome["startEpochMs"] / 1000, outcome["lastOutcomeEpochMs"] / 1000 + 1
        samples = [s for s in samples if begin <= s["t"] <= end]

    users, coupons = run["users"], run["coupons"]
    expected = min(users, coupons)
    paused = bool(run.get("pauseAt"))
    if paused:
        # a paused sale assigns what it assigned before the pause: the store says how many
        expected = (load_json(os.path.join(run_dir, "campaign.json")) or {}).get("stock", {}).get("assigned", expected)
    keep_going = bool(run.get("keepGoing"))
    lines = []
    out = lines.append
    checks = Checks()
    out(f"flashclaim load run {run['workload']} ({run['simulation']}) on {run.get('store', 'firestore')}")
    out(
        f"  instances: {run['instances']}  users: {users}  coupons: {coupons}  duration: {run['duration']} s  "
        f"warm-up: {run.get('warmupSeconds', 0)} s  campaign: {run['campaignId']}"
    )
    if run.get("clientWarmupCampaign"):
        out(
            f"  client warm-up: {run.get('clientWarmupSeconds', 0)} s of claims of the empty pool "
            f"{run['clientWarmupCampaign']} just before the measured run (not tallied)"
        )
    elif "clientWarmupCampaign" in run:
        out("  client warm-up: none (the client starts cold with the measured run)")
    out(
        f"  code {run.get('codeVersion', '?')}  service JVM: Java {run.get('serviceJava', '?')} "
        f"{run.get('serviceJavaOpts', '')}  cores per instance: {run.get('serviceCpus', 'all')}"
    )
    if run.get("clientNice") or run.get("storeNice"):
        out(f"  scheduler groups: the client's at nice {run.get('clientNice', 0)}, the store's at "
            f"nice {run.get('storeNice', 0)} (CLIENT_NICE, STORE_NICE)")
    if run.get("serviceSettings"):
        out(f"  service settings from the environment: {run['serviceSettings']}")
    if run.get("fdLimit"):
        hard = run.get("fdLimitHard")
        raised = (f"the soft limit, raised to the hard limit {hard}" if str(hard) == str(run["fdLimit"])
                  else f"the soft limit, below the hard limit {hard}: could not be raised")
        out(f"  open files limit (ulimit -n) of every process the run starts (client, instances, store): "
            f"{run['fdLimit']} ({raised})")
    if run.get("storeLatencyMs"):
        out(f"  store latency added: {run['storeLatencyMs']} ms each way (a TCP proxy in front of the store)")
    describe_front_end(run, load_json(os.path.join(run_dir, "front-end.json")), out)
    console = gatling_console(os.path.join(run_dir, "gatling.log"))
    describe_gatling(console, out)
    answers = read_answers(os.path.join(run_dir, "answers.csv"))
    overloaded = describe_phases(run_dir, run, outcome, answers, samples, checks, out)
    describe_transport(console, run, outcome, answers, samples, out)
    if outcome:
        describe_outcome(outcome, users, expected, checks, out, paused)
        describe_fifo_losses(run_dir, coupons, out)
        describe_windows(run, outcome, checks, out)
        describe_meters(run_dir, outcome, out)
        describe_hammer(run, outcome, answers, checks, out)
    else:
        checks.store(False, "the simulation wrote no outcome file")
    describe_freeze(run_dir, run, outcome, answers, checks, out)
    describe_pause(run_dir, run, outcome, answers, checks, out)
    describe_added_instance(run_dir, out)
    refused = emulator_refusals(os.path.join(run_dir, "emulator.log"), run.get("emulatorLogOffset", 0))
    if refused and outcome:
        out(
            f"  store writes refused (emulator log): {refused['lost']} lost races (update-time precondition), "
            f"{refused['taken']} slot taken (already exists), {refused['other']} other; "
            f"{sum(refused.values()) / max(1, outcome['usersWithCode']):.2f} per coupon assigned"
        )
    # the added instance's access log (--add-instance-at) with the others'
    inside = service_latency(run_dir, run["instances"] + (1 if run.get("addInstanceAt") else 0), run["campaignId"])
    if inside:
        statuses, times, _ = inside
        out(
            f"  inside the service (access log): {len(times)} claims, p50 {percentile(times, 50)}  "
            f"p95 {percentile(times, 95)}  p99 {percentile(times, 99)}  max {times[-1]} ms; "
            + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
        )
    describe_store(
        load_json(os.path.join(run_dir, "campaign.json")),
        load_json(os.path.join(run_dir, "audit.json")),
        outcome,
        expected,
        checks,
        out,
        paused,
    )
    describe_resources(run, samples, top_others, out)
    describe_cpu_per_answer(run, samples, outcome, inside, out)
    describe_sold_out_path(run_dir, run["instances"], out)
    describe_candidate_waits(run_dir, run["instances"], out)
    describe_sale_end(answers, out)
    describe_front_end_wait(run_dir, run["instances"], out)
    healthy = run.get("healthyAfter", 0)
    checks.store(healthy == run["instances"], f"every instance alive and /health UP after the run ({healthy} of {run['instances']})")

    gatling_ok = run.get("gatlingExit") == 0
    gatling = "passed" if gatling_ok else f"FAILED (exit {run.get('gatlingExit')})"
    out(f"  gatling assertions: {gatling}" + ("" if gatling_ok or not keep_going else " (--keep-going)"))
    if run.get("withStatus"):
        describe_status(run_dir, run, outcome, checks, out)
        gatling_ok = gatling_ok and run.get("statusExit") == 0
    lines.extend(checks.lines(keep_going))
    report_dir = run.get("reportDir") or ""
    out(f"  report: {os.path.join(report_dir, 'index.html') if report_dir else 'none'}")
    out(f"  logs: {run_dir}")
    passed = checks.passed(keep_going) and (gatling_ok or keep_going)
    # an overload workload that was not overloaded measured nothing: not a pass
    not_overloaded = passed and run["workload"] in ("W6", "W8") and overloaded is False
    out(f"  result: {'NOT OVERLOADED (no 503 and no measurable queueing: not a pass)' if not_overloaded else 'PASS' if passed else 'FAIL'}")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(run_dir, "summary.txt"), "w") as f:
        f.write(text + "\n")
    return 3 if not_overloaded else 0 if passed else 1


def pairs(args):
    result = {}
    for arg in args:
        name, pid = arg.split("=", 1)
        result[name] = int(pid)
    return result


def main(argv):
    if len(argv) >= 2 and argv[0] == "ports":
        print("\n".join(str(p) for p in free_ports(int(argv[1]))))
        return 0
    if len(argv) == 2 and argv[0] == "busy":
        total, busy, _ = machine_ticks()
        time.sleep(float(argv[1]))
        total2, busy2, _ = machine_ticks()
        print(round(100 * (busy2 - busy) / max(1, total2 - total)))
        return 0
    if len(argv) >= 2 and argv[0] == "sample":
        named, trees, added, run_root, rest = [], [], [], None, argv[2:]
        while rest:
            if rest[0] in ("--tree", "--added", "--run"):
                if rest[0] == "--run":
                    run_root = int(rest[1])
                else:
                    (trees if rest[0] == "--tree" else added).append(rest[1])
                rest = rest[2:]
            else:
                named.append(rest[0])
                rest = rest[1:]
        sample(argv[1], pairs(named), pairs(trees), dict(a.split("=", 1) for a in added), run_root)
        return 0
    if len(argv) == 9 and argv[0] == "watch-added-instance":
        return watch_added_instance(argv[1], int(argv[2]), argv[3], argv[4], argv[5], int(argv[6]), argv[7], float(argv[8]))
    if len(argv) == 5 and argv[0] == "claims-after":
        print(json.dumps(firestore_claims_after(int(argv[1]), argv[2], argv[3], int(argv[4]))))
        return 0
    if len(argv) == 2 and argv[0] == "front-end-stats":
        print(json.dumps(front_end_stats(argv[1])))
        return 0
    if len(argv) == 2 and argv[0] == "front-end-clear":
        front_end_command(argv[1], "clear counters all")
        return 0
    if len(argv) == 2 and argv[0] == "summary":
        return summary(argv[1])
    if len(argv) >= 3 and argv[0] == "meters":
        meters(argv[1], argv[2:])
        return 0
    if len(argv) == 3 and argv[0] == "proxy":
        proxy(int(argv[1]), float(argv[2]))
        return 0
    if len(argv) == 4 and argv[0] == "capacity":
        cal = calibration(argv[1], float(argv[2]), float(argv[3]))
        if cal:
            print(f"calibration: {cal['statuses']} answered in the measured window; pool ran out: "
                  f"{cal['outOfCoupons'] > 0}", file=sys.stderr)
        print(round(cal["capacity"]) if cal else 0)
        return 0
    if len(argv) == 2 and argv[0] == "floor":
        floor = load_json(os.path.join(argv[1], "floor-outcome.json"))
        print(floor["attemptMs"]["p99"] if floor and floor.get("attemptMs") else 0)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
