#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize bench results: bench/report.py DIR

Reads DIR/results.csv (bench/guest.sh rows from every repetition) and writes DIR/summary.md (medians
with min..max over the valid runs, ratios against zram and against zswap + swap partition) and, with
gnuplot, DIR/throughput.png and DIR/static-cost.png.
"""
import csv
import math
import os
import statistics
import subprocess
import sys

CONFIGS = ["ghost", "ghost-bdev", "ghost-overflow", "zram", "zswap-swap", "swap"]
LABELS = {
    "ghost": "ghostswap (zswap)",
    "ghost-bdev": "ghostswap + backing disk",
    "ghost-overflow": "ghostswap above swap partition (pool 20 %)",
    "zram": "zram (lz4)",
    "zswap-swap": "zswap + swap partition",
    "swap": "swap partition",
}
THROUGHPUT = ["seq-2x", "rand-2x", "seq-4x", "rand-4x", "memcg-ram/4", "pageout"]
MULTIPLES = [1, 8, 64, 1000]
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
        return [v for v in (num(r[field]) for r in self.runs(config, workload) if r["status"] == "ok")
                if v is not None]

    def median_any(self, config, workload, field):
        """median over every run, failed ones included (counters explain failures)"""
        vals = [v for v in (num(r.get(field)) for r in self.runs(config, workload)) if v is not None]
        return statistics.median(vals) if vals else None

    def median(self, config, workload, field):
        vals = self.values(config, workload, field)
        return statistics.median(vals) if vals else None

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


def geomean_ratio(res, config, peer, workloads=THROUGHPUT):
    """Geometric mean over throughput workloads (write and read) where both completed."""
    logs = []
    for w in workloads:
        for field in ("write_mibps", "read_mibps"):
            r = ratio(res.median(config, w, field), res.median(peer, w, field))
            if r:
                logs.append(math.log(r))
    return (math.exp(sum(logs) / len(logs)), len(logs)) if logs else (None, 0)


def fmt_ratio(r):
    if r is None:
        return "n/a"
    return f"{r:.2f}" if abs(r) >= 0.1 else f"{r:.2g}"


def static_text(res, config, mult):
    runs = res.runs(config, f"static-{mult}x")
    if not runs:
        return "-"
    if all(r["status"] == "refused" for r in runs):
        return "refused"
    return res.cell(config, f"static-{mult}x", "value", "{:.0f}") + " KiB"


def summary(res, out):
    lines = []
    g_zram, n1 = geomean_ratio(res, "ghost", "zram")
    g_zswap, n2 = geomean_ratio(res, "ghost", "zswap-swap")
    b_zram, n3 = geomean_ratio(res, "ghost-bdev", "zram")
    b_zswap, n4 = geomean_ratio(res, "ghost-bdev", "zswap-swap")
    o_zswap, n5 = geomean_ratio(res, "ghost-overflow", "zswap-swap")
    big = ["seq-4x", "rand-4x"]
    o_big, n6 = geomean_ratio(res, "ghost-overflow", "zswap-swap", big)
    o_done = sum(1 for w in big for r in res.runs("ghost-overflow", w) if r["status"] == "ok")
    o_all = sum(len(res.runs("ghost-overflow", w)) for w in big)
    s_ghost = res.median("ghost", "static-1000x", "value")
    s_swap = res.median("swap", "static-1000x", "value")
    s_zram = res.median("zram", "static-1000x", "value")
    lines += [
        "# ghostswap benchmark",
        "",
        f"- throughput ghost/zram: **{fmt_ratio(g_zram)}**; ghost/zswap+swap partition: "
        f"**{fmt_ratio(g_zswap)}** (geometric mean of {n1} and {n2} median MiB/s ratios)",
        f"- throughput ghost+backing disk/zram: **{fmt_ratio(b_zram)}**; ghost+backing disk/zswap+swap "
        f"partition: **{fmt_ratio(b_zswap)}** ({n3} and {n4} ratios)",
        f"- throughput ghost above swap partition/zswap+swap partition: **{fmt_ratio(o_zswap)}** ({n5} "
        f"ratios); on the 4 x RAM workloads: **{fmt_ratio(o_big)}** ({n6} ratios), completed "
        f"{o_done}/{o_all} runs",
        f"- static cost at 1000 x RAM: ghost {static_text(res, 'ghost', 1000)}, zram "
        f"{static_text(res, 'zram', 1000)}, swap partition {static_text(res, 'swap', 1000)}; "
        f"ghost/swap partition: **{fmt_ratio(ratio(s_ghost, s_swap))}**, ghost/zram: "
        f"**{fmt_ratio(ratio(s_ghost, s_zram))}**",
        f"- {res.reps} repetition(s), one guest boot each; medians with (min..max) over the valid runs. "
        "TCG: only ratios within one table mean anything.",
        "",
    ]
    for field, title in (("write_mibps", "Write (fill; pageout for `pageout`) MiB/s"),
                         ("read_mibps", "Read-verify (fault-back) MiB/s"),
                         ("sys_s", "System time of the workload process, s")):
        lines += [f"## {title}", "", "| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
                  "|---" * (len(CONFIGS) + 1) + "|"]
        for w in THROUGHPUT:
            fmt = "{:.2f}" if field == "sys_s" else "{:.1f}"
            lines.append(f"| {w} | " + " | ".join(res.cell(c, w, field, fmt) for c in CONFIGS) + " |")
        lines.append("")
    lines += ["## Ratios of median MiB/s against zram (write / read)", "",
              "| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|"]
    for w in THROUGHPUT:
        cells = []
        for c in CONFIGS:
            wr = ratio(res.median(c, w, "write_mibps"), res.median("zram", w, "write_mibps"))
            rd = ratio(res.median(c, w, "read_mibps"), res.median("zram", w, "read_mibps"))
            cells.append(f"{fmt_ratio(wr)} / {fmt_ratio(rd)}")
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    lines += ["", "## Static cost: kernel memory (Slab + VmallocUsed + Percpu) of swapon, KiB", "",
              "| device size | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|"]
    for m in MULTIPLES:
        lines.append(f"| {m} x RAM | " + " | ".join(static_text(res, c, m) for c in CONFIGS) + " |")
    lines += ["", "## Other", "", "| measure | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|",
              "| kernel memory per used slot, bytes (RAM/2 swapped out) | "
              + " | ".join(res.cell(c, "metadata-per-slot", "value", "{:.0f}") for c in CONFIGS) + " |",
              "| swapoff of RAM/2 swapped out, s | "
              + " | ".join(res.cell(c, "swapoff", "value", "{:.2f}") for c in CONFIGS) + " |",
              ""]
    lines += ["## zswap and ghostswap counters over each workload, median", "",
              "limit: zswap `pool_limit_hit`, rrf: `reject_reclaim_fail`, wb: `written_back_pages`, "
              "kept: ghostswap `pages_kept`, asides: `step_asides`.", "",
              "| workload | " + " | ".join(LABELS[c] for c in CONFIGS) + " |",
              "|---" * (len(CONFIGS) + 1) + "|"]
    for w in THROUGHPUT:
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


def plots(res, out):
    tdat = os.path.join(out, "throughput.dat")
    with open(tdat, "w") as f:
        f.write("workload " + " ".join(f'"{LABELS[c]}"' for c in CONFIGS) + "\n")
        for w in THROUGHPUT:
            vals = [res.median(c, w, "write_mibps") for c in CONFIGS]
            f.write(w + " " + " ".join("0" if v is None else f"{v:.2f}" for v in vals) + "\n")
    sdat = os.path.join(out, "static-cost.dat")
    static = any(res.median(c, f"static-{m}x", "value") is not None for c in CONFIGS for m in MULTIPLES)
    with open(sdat, "w") as f:
        for c in CONFIGS:
            f.write(f'"{LABELS[c]}"\n')
            for m in MULTIPLES:
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
set key outside right top
set ylabel 'MiB/s'
set yrange [0:*]
plot for [i=2:{len(CONFIGS) + 1}] '{tdat}' using i:xtic(1) title columnheader(i)
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
plot for [i=0:{len(CONFIGS) - 1}] '{sdat}' index i using 1:2 title columnheader(1)
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
