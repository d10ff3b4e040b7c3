#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize bench results: bench/report.py DIR

Reads DIR/results.csv (bench/guest.sh rows from every repetition) and writes DIR/summary.md (medians
with min..max over the valid runs, ratios against zram and against zswap + swap partition) and, with
gnuplot, DIR/throughput.png, DIR/sys-per-gib.png and DIR/static-cost.png. Configurations, workloads or
static sizes that were not run (BENCH_CONFIGS, BENCH_WORKLOADS, BENCH_QUICK) show as "-" and "n/a".
With BENCH_QUICK=1 in the environment the summary says it is a smoke run.
"""
import csv
import math
import os
import statistics
import subprocess
import sys

CONFIGS = ["ghost", "ghost-bdev", "ghost-overflow", "zram", "zswap-swap", "zswap-swap-20", "swap"]
LABELS = {
    "ghost": "ghostswap (zswap)",
    "ghost-bdev": "ghostswap + backing disk",
    "ghost-overflow": "ghostswap above swap partition (pool 20 %)",
    "zram": "zram (lz4)",
    "zswap-swap": "zswap + swap partition",
    "zswap-swap-20": "zswap + swap partition (pool 20 %)",
    "swap": "swap partition",
}
THROUGHPUT = ["seq-2x", "rand-2x", "seq-4x", "rand-4x", "memcg-ram/4", "procs-4", "pageout"]
# The policy on incompressible pages (README): zswap storing them as they are, and refusing them
# (memory.zswap.writeback=0). In the tables, not in the geometric means: a choice, not a configuration.
POLICY = ["incomp-2x", "incomp-2x-refused"]
TABLES = THROUGHPUT + POLICY
MULTIPLES = [1, 8, 64, 1000]  # static-Nx sizes shown when the results have none
# The configurations whose throughput ratios head the summary; they are all compared over one set of
# workloads, so that a workload one of them failed does not leave a different set for each pair.
HEADLINE = ["ghost", "ghost-bdev", "ghost-overflow", "zram", "zswap-swap"]
FIELDS = ("write_mibps", "read_mibps")
# The ratio a workload counts for, in the pessimistic geometric means, where the ghost side has runs but
# none valid (failed, OOM-killed, timed out): half the peer's throughput, not left out.
FAILED_RATIO = 0.5
# Per-workload counter deltas (bench/guest.sh COUNTERS), with the short names of the counters table.
COUNTERS = [("pool_limit_hit", "limit"), ("reject_reclaim_fail", "rrf"), ("written_back_pages", "wb"),
            ("pages_kept", "kept"), ("step_asides", "asides")]


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class Results:
    def __init__(self, path):
        with open(path, newline="") as f:
            self.rows = list(csv.DictReader(f))
        self.reps = len({r["rep"] for r in self.rows})

    def runs(self, config, workload):
        return [r for r in self.rows if r["config"] == config and r["workload"] == workload]

    def values(self, config, workload, field):
        # .get: results.csv from before a column existed has no such field
        return [v for v in (num(r.get(field)) for r in self.runs(config, workload) if r["status"] == "ok")
                if v is not None]

    def median_any(self, config, workload, field):
        """median over every run, failed ones included (counters explain failures)"""
        vals = [v for v in (num(r.get(field)) for r in self.runs(config, workload)) if v is not None]
        return statistics.median(vals) if vals else None

    def median(self, config, workload, field):
        vals = self.values(config, workload, field)
        return statistics.median(vals) if vals else None

    def valid(self, config, workload, field):
        """the median if it is a usable throughput (> 0), else None"""
        m = self.median(config, workload, field)
        return m if m is not None and m > 0 else None

    def present(self, config):
        return any(self.runs(config, w) for w in THROUGHPUT)

    def completed(self, config, workloads=THROUGHPUT):
        """(ok runs, runs) of config over workloads"""
        runs = [r for w in workloads for r in self.runs(config, w)]
        return sum(1 for r in runs if r["status"] == "ok"), len(runs)

    def overlap(self, a, b, workload, field):
        """whether a's and b's min..max over their valid runs overlap"""
        va, vb = self.values(a, workload, field), self.values(b, workload, field)
        return bool(va and vb) and max(min(va), min(vb)) <= min(max(va), max(vb))

    def multiples(self):
        found = {int(r["workload"][7:-1]) for r in self.rows
                 if r["workload"].startswith("static-") and r["workload"][7:-1].isdigit()}
        return sorted(found) or MULTIPLES

    def cell(self, config, workload, field, fmt="{:.1f}"):
        """median (min..max) over the valid runs, or why there is none"""
        vals = self.values(config, workload, field)
        runs = self.runs(config, workload)
        if not vals:
            if not runs:
                return "-"
            statuses = sorted({r["status"] for r in runs})
            return "/".join(statuses)
        text = fmt.format(statistics.median(vals))
        if len(vals) > 1:
            text += " (" + fmt.format(min(vals)) + ".." + fmt.format(max(vals)) + ")"
        if len(vals) < len(runs):
            text += f" [{len(vals)}/{len(runs)} valid]"
        return text


def ratio(a, b):
    return a / b if a is not None and b else None


def same_set(res):
    """The (workload, field) pairs where every headline configuration that was run has a valid median,
    and those configurations."""
    configs = [c for c in HEADLINE if res.present(c)]
    pairs = [(w, f) for w in THROUGHPUT for f in FIELDS
             if configs and all(res.valid(c, w, f) for c in configs)]
    return pairs, configs


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None


def geomean_ratio(res, config, peer, pairs):
    """Geometric mean of the median ratios config/peer over pairs; None unless both have them all."""
    ratios = [ratio(res.valid(config, w, f), res.valid(peer, w, f)) for w, f in pairs]
    return None if None in ratios else geomean(ratios)


def pessimistic_ratio(res, config, peer):
    """Geometric mean over the pairs where peer has a valid median, a workload that config ran without a
    valid run counting FAILED_RATIO; and the number of ratios."""
    ratios = []
    for w in THROUGHPUT:
        if not res.runs(config, w):
            continue  # not run: nothing failed
        for f in FIELDS:
            p = res.valid(peer, w, f)
            if p is not None:
                c = res.valid(config, w, f)
                ratios.append(c / p if c is not None else FAILED_RATIO)
    return geomean(ratios), len(ratios)


def fmt_ratio(r):
    if r is None:
        return "n/a"
    return f"{r:.2f}" if abs(r) >= 0.1 else f"{r:.2g}"


def ratio_table(res, peer):
    """Markdown lines: median MiB/s ratios against peer, flagged where the ranges overlap."""
    lines = [f"## Ratios of median MiB/s against {LABELS[peer]} (write / read)", "",
             "| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
             "|---" * (len(CONFIGS) + 1) + "|"]
    for w in TABLES:
        cells = []
        for c in CONFIGS:
            parts = []
            for f in FIELDS:
                r = ratio(res.median(c, w, f), res.median(peer, w, f))
                flag = "~" if r is not None and c != peer and res.overlap(c, peer, w, f) else ""
                parts.append(fmt_ratio(r) + flag)
            cells.append(" / ".join(parts))
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines += ["", f"`~`: the configuration's min..max over its valid runs overlaps {LABELS[peer]}'s: the "
              "difference is within the spread between runs (with one valid run each, only equal values "
              "overlap). n/a: no valid run on one side.", ""]
    return lines


def answer_table(res, config="ghost", peers=("zswap-swap", "zram")):
    """Markdown lines: per workload, whether config is at least as fast (write and read MiB/s) and as
    cheap (system time per GiB) as each peer, a difference within the spread between runs counting as
    even; then the same for kernel memory. Empty unless config and a peer were run."""
    peers = [p for p in peers if res.present(p)]
    if not res.present(config) or not peers:
        return []
    lines = [f"## Is {LABELS[config]} at least as fast and as cheap as what runs today?", "",
             "Ratios of medians against each: write / read MiB/s (above 1: faster) / system time per GiB "
             "swapped out (below 1: cheaper); `~`: within the spread between runs, counted as even.", "",
             "| workload | " + " | ".join(f"against {LABELS[p]}" for p in peers) + " | answer |",
             "|---" * (len(peers) + 2) + "|"]
    for w in THROUGHPUT:
        if not res.runs(config, w):
            continue
        cells, worse, missing = [], [], False
        for p in peers:
            parts = []
            for f, name, higher_better in (("write_mibps", "write", True), ("read_mibps", "read", True),
                                           ("sys_s_per_gib", "sys/GiB", False)):
                r = ratio(res.valid(config, w, f), res.valid(p, w, f))
                if r is None:
                    missing = True
                    parts.append("n/a")
                    continue
                even = res.overlap(config, p, w, f)
                if not even and (r < 1 if higher_better else r > 1):
                    worse.append(f"{name} against {p}")
                parts.append(fmt_ratio(r) + ("~" if even else ""))
            cells.append(" / ".join(parts))
        answer = "no: " + ", ".join(worse) if worse else "incomplete" if missing else "yes"
        lines.append(f"| {w} | " + " | ".join(cells) + f" | {answer} |")
    for workload, what in (("static-1000x", "static cost at 1000 x RAM, KiB"),
                           ("metadata-per-slot", "kernel memory per used slot, bytes")):
        mine = res.median(config, workload, "value")
        theirs = [res.median(p, workload, "value") for p in peers]
        if mine is None or all(t is None for t in theirs):
            continue
        cells = [f"{mine:.0f} against {t:.0f}" if t is not None else "n/a" for t in theirs]
        cheaper = all(t is None or mine <= t for t in theirs)
        lines.append(f"| {what} | " + " | ".join(cells) + f" | {'yes' if cheaper else 'no'} |")
    return lines + [""]


def static_text(res, config, mult):
    runs = res.runs(config, f"static-{mult}x")
    if not runs:
        return "-"
    if all(r["status"] == "refused" for r in runs):
        return "refused"
    text = res.cell(config, f"static-{mult}x", "value", "{:.0f}") + " KiB"
    load = res.median(config, f"static-{mult}x-load", "value")
    return text + (f", of which loading {load:.0f}" if load is not None else "")


def summary(res, out):
    lines = ["# ghostswap benchmark", ""]
    if os.environ.get("BENCH_QUICK") == "1":
        lines += ["**Smoke run (`BENCH_QUICK=1`)**: one repetition of a reduced set of configurations and "
                  "workloads; it shows that the benchmark runs, not how the configurations compare.", ""]
    lines += answer_table(res)
    pairs, configs = same_set(res)
    big = [p for p in pairs if p[0] in ("seq-4x", "rand-4x")]

    def done(config, workloads=THROUGHPUT):
        k, n = res.completed(config, workloads)
        return f"completed {k}/{n} runs" if n else "not run"

    def pess(config, peer):
        r, n = pessimistic_ratio(res, config, peer)
        return f"**{fmt_ratio(r)}** ({n} ratios)"

    s_ghost = res.median("ghost", "static-1000x", "value")
    s_swap = res.median("swap", "static-1000x", "value")
    s_zram = res.median("zram", "static-1000x", "value")
    frag = ratio(res.median("ghost-bdev", "fragmented", "write_mibps"),
                 res.median("swap", "fragmented", "write_mibps"))
    lines += [
        f"- throughput, geometric means of median MiB/s ratios over the same {len(pairs)} ratios (the "
        f"workloads x write/read where {', '.join(configs) or 'the compared configurations'} all have a "
        "valid median):",
        f"  - ghost/zram: **{fmt_ratio(geomean_ratio(res, 'ghost', 'zram', pairs))}**; ghost/zswap+swap "
        f"partition: **{fmt_ratio(geomean_ratio(res, 'ghost', 'zswap-swap', pairs))}**; ghost {done('ghost')}",
        f"  - ghost+backing disk/zram: **{fmt_ratio(geomean_ratio(res, 'ghost-bdev', 'zram', pairs))}**; "
        "ghost+backing disk/zswap+swap partition: "
        f"**{fmt_ratio(geomean_ratio(res, 'ghost-bdev', 'zswap-swap', pairs))}**; ghost+backing disk "
        f"{done('ghost-bdev')}",
        "  - ghost above swap partition/zswap+swap partition: "
        f"**{fmt_ratio(geomean_ratio(res, 'ghost-overflow', 'zswap-swap', pairs))}**; ghost above swap "
        f"partition {done('ghost-overflow')}; on the 4 x RAM workloads: "
        f"**{fmt_ratio(geomean_ratio(res, 'ghost-overflow', 'zswap-swap', big))}** ({len(big)} of the same "
        f"ratios), {done('ghost-overflow', ['seq-4x', 'rand-4x'])}",
        "  - ghost above swap partition/zswap+swap partition with the same pool (20 %): "
        f"**{fmt_ratio(geomean_ratio(res, 'ghost-overflow', 'zswap-swap-20', pairs))}**; on the 4 x RAM "
        f"workloads: **{fmt_ratio(geomean_ratio(res, 'ghost-overflow', 'zswap-swap-20', big))}**",
        f"- pessimistic, a failed workload counts {FAILED_RATIO} (one the ghost side ran without a valid run: "
        "failed, OOM-killed, timed out, did not swap; over the workloads x write/read where the peer has a "
        f"valid median): ghost/zram {pess('ghost', 'zram')}, ghost/zswap+swap partition "
        f"{pess('ghost', 'zswap-swap')}; ghost+backing disk/zram {pess('ghost-bdev', 'zram')}, "
        f"ghost+backing disk/zswap+swap partition {pess('ghost-bdev', 'zswap-swap')}; ghost above swap "
        f"partition/zswap+swap partition {pess('ghost-overflow', 'zswap-swap')}",
        f"- static cost at 1000 x RAM: ghost {static_text(res, 'ghost', 1000)}, zram "
        f"{static_text(res, 'zram', 1000)}, swap partition {static_text(res, 'swap', 1000)}; "
        f"ghost/swap partition: **{fmt_ratio(ratio(s_ghost, s_swap))}**, ghost/zram: "
        f"**{fmt_ratio(ratio(s_ghost, s_zram))}**",
        "- fragmented 256 MiB disk (half of 192 MiB written freed, then 72 MiB more pushed out, zswap "
        f"off): ghost+backing disk/swap partition MiB/s onto the disk: **{fmt_ratio(frag)}**; write "
        f"amplification {res.cell('ghost-bdev', 'fragmented', 'value', '{:.2f}')} (swap partition "
        f"{res.cell('swap', 'fragmented', 'value', '{:.2f}')})",
        f"- {res.reps} repetition(s), one guest boot each; medians with (min..max) over the valid runs. "
        "TCG: only ratios within one table mean anything.",
        "",
    ]
    for field, title, note in (
            ("write_mibps", "Write (fill; pageout for `pageout`) MiB/s",
             "`procs-4`: the MiB all four processes filled over the slowest one's fill time; read "
             "likewise with the verify times."),
            ("read_mibps", "Read-verify (fault-back) MiB/s", None),
            ("sys_s", "System time of the workload process, s", "`procs-4`: the sum over its processes."),
            ("sys_all_s", "System time of the whole machine during the workload, s",
             "All CPUs' `system` time in /proc/stat: the workload's, kswapd's, kworkers'; not interrupts."),
            ("sys_s_per_gib", "System time per GiB swapped out (whole machine), s",
             "The table above over the GiB that `pswpout + zswpout` moved during the workload.")):
        lines += [f"## {title}", ""] + ([note, ""] if note else [])
        lines += ["| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
                  "|---" * (len(CONFIGS) + 1) + "|"]
        for w in TABLES:
            fmt = "{:.2f}" if field.startswith("sys_") else "{:.1f}"
            lines.append(f"| {w} | " + " | ".join(res.cell(c, w, field, fmt) for c in CONFIGS) + " |")
        lines.append("")
    lines += ratio_table(res, "zram") + ratio_table(res, "zswap-swap")
    if res.present("zswap-swap-20"):
        lines += ratio_table(res, "zswap-swap-20")
    lines += ["## Static cost: kernel memory (Slab + VmallocUsed + Percpu) of swapon, KiB", "",
              "| device size | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|"]
    for m in res.multiples():
        lines.append(f"| {m} x RAM | " + " | ".join(static_text(res, c, m) for c in CONFIGS) + " |")
    lines += ["", "## Other", "", "| measure | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|",
              "| kernel memory per used slot, bytes (RAM/2 swapped out) | "
              + " | ".join(res.cell(c, "metadata-per-slot", "value", "{:.0f}") for c in CONFIGS) + " |",
              "| swapoff of RAM/2 swapped out, s | "
              + " | ".join(res.cell(c, "swapoff", "value", "{:.2f}") for c in CONFIGS) + " |",
              "| procs-4: median per-process fill MiB/s | "
              + " | ".join(res.cell(c, "procs-4", "value", "{:.1f}") for c in CONFIGS) + " |",
              "| fragmented 256 MiB disk: MiB/s onto the disk | "
              + " | ".join(res.cell(c, "fragmented", "write_mibps") for c in CONFIGS) + " |",
              "| fragmented: MiB of the writers' 72 on the disk | "
              + " | ".join(res.cell(c, "fragmented", "size_mib", "{:.0f}") for c in CONFIGS) + " |",
              "| fragmented: write amplification (blocks written / pages swapped out) | "
              + " | ".join(res.cell(c, "fragmented", "value", "{:.2f}") for c in CONFIGS) + " |",
              ""]
    lines += ["## zswap and ghostswap counters over each workload, median", "",
              "limit: zswap `pool_limit_hit`, rrf: `reject_reclaim_fail`, wb: `written_back_pages`, "
              "kept: ghostswap `pages_kept`, asides: `step_asides`.", "",
              "| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|"]
    for w in TABLES:
        cells = []
        for c in CONFIGS:
            meds = [res.median_any(c, w, name) for name, _ in COUNTERS]
            cells.append("-" if all(m is None for m in meds) else
                         " ".join(f"{short} {m:.0f}" for (_, short), m in zip(COUNTERS, meds)
                                  if m is not None and m > 0) or "0")
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines.append("")
    failed = [r for r in res.rows if r["status"] not in ("ok", "refused")]
    if failed:
        lines += ["## Runs that failed or did not swap (excluded above)", ""]
        lines += [f"- rep {r['rep']} {r['config']} {r['workload']}: {r['status']}" for r in failed]
        lines.append("")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines))


def histogram_data(res, path, field, configs):
    """a gnuplot histogram's data: median field per workload (rows) and configuration (columns)"""
    with open(path, "w") as f:
        f.write("workload " + " ".join(f'"{LABELS[c]}"' for c in configs) + "\n")
        for w in [w for w in THROUGHPUT if any(res.runs(c, w) for c in configs)] or THROUGHPUT:
            vals = [res.median(c, w, field) for c in configs]
            f.write(w + " " + " ".join("0" if v is None else f"{v:.3f}" for v in vals) + "\n")


def plots(res, out):
    # Only the configurations and workloads that were run (BENCH_CONFIGS, BENCH_WORKLOADS, BENCH_QUICK):
    # no empty bars or lines.
    shown = [c for c in CONFIGS if res.present(c)] or CONFIGS
    tdat = os.path.join(out, "throughput.dat")
    histogram_data(res, tdat, "write_mibps", shown)
    gdat = os.path.join(out, "sys-per-gib.dat")
    histogram_data(res, gdat, "sys_s_per_gib", shown)
    sdat = os.path.join(out, "static-cost.dat")
    multiples = res.multiples()
    static = [c for c in CONFIGS
              if any(res.median(c, f"static-{m}x", "value") is not None for m in multiples)]
    with open(sdat, "w") as f:
        for c in static:
            f.write(f'"{LABELS[c]}"\n')
            for m in multiples:
                v = res.median(c, f"static-{m}x", "value")
                if v is not None:
                    f.write(f"{m} {max(v, 1):.0f}\n")
            f.write("\n\n")
    script = f"""
set terminal pngcairo size 1100,600 noenhanced
set datafile separator whitespace
set output '{out}/throughput.png'
set title 'Write throughput, median MiB/s (TCG guest: compare bars, not absolute values)'
set style data histogram
set style histogram clustered gap 1
set style fill solid border -1
set key below
set ylabel 'MiB/s'
set yrange [0:*]
plot for [i=2:{len(shown) + 1}] '{tdat}' using i:xtic(1) title columnheader(i)
set output '{out}/sys-per-gib.png'
set title 'System time of the whole machine per GiB swapped out, median s (TCG guest: compare bars)'
set ylabel 's/GiB'
plot for [i=2:{len(shown) + 1}] '{gdat}' using i:xtic(1) title columnheader(i)
"""
    if static:  # none with BENCH_STATIC=0
        script += f"""
set output '{out}/static-cost.png'
set title 'Static cost of swapon: kernel memory vs device size'
set style data linespoints
set logscale xy
set xlabel 'device size, x RAM'
set ylabel 'KiB (Slab + VmallocUsed + Percpu; <= 1 plotted at 1)'
set xrange [0.7:1500]
plot for [i=0:{len(static) - 1}] '{sdat}' index i using 1:2 title columnheader(1)
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"report: gnuplot failed: {e}", file=sys.stderr)
        return False
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench/report.py DIR")
    out = sys.argv[1]
    res = Results(os.path.join(out, "results.csv"))
    summary(res, out)
    if not plots(res, out):
        sys.exit(1)


if __name__ == "__main__":
    main()
