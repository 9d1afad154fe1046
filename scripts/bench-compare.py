#!/usr/bin/env python3
"""Runs kiln-bench on Kiln and on lavapipe, alternately, and prints them side by side.

Each round runs kiln-bench once per driver (the order flips every round so neither driver always
runs on a warmer machine). A scenario's figure for a driver is the median over rounds of
kiln-bench's per-run median. The table shows Kiln, lavapipe, the unit and Kiln/lavapipe
(above 1 = Kiln faster, for throughput units), and the same ratio of each driver's best round
(its fastest round median): on a shared machine whose speed moves between rounds, the best round
is the one least slowed by other work. The combined JSON keeps every run.

Drivers: kiln, lavapipe, kiln-1thread (Kiln with KILN_THREADS=1), kiln-serial (Kiln with
KILN_OVERLAP=0: unordered dispatches one by one) and kiln-strict (KILN_STRICT=1), so `--drivers kiln,kiln-1thread` measures Kiln's
thread scaling; the ratio is first over second.

  scripts/bench-compare.py                        # 3 rounds, all scenarios, both drivers
  scripts/bench-compare.py --rounds 5 --seconds 2 --scenario copy_buffer_256mib
  scripts/bench-compare.py --drivers lavapipe     # e.g. while Kiln cannot run yet
  scripts/bench-compare.py --drivers kiln,kiln-1thread --scenario fill_opaque  # thread scaling

Bandwidth: every run also runs cpu_stream_triad (a STREAM triad on the CPU, no Vulkan), and each
GB/s scenario's bytes moved (read + written: twice the counted bytes for copies) are reported as a
fraction of the triad measured in the same kiln-bench run ("of triad" columns): machines here move very different amounts from moment to moment, so only a triad of the
same run is a fair yardstick.

Exit status: 0 when every run of every scenario was ok or skipped, 1 otherwise, 2 on bad usage.
See docs/benchmarks.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
TRIAD = "cpu_stream_triad"  # the machine's own bandwidth, the reference for GB/s scenarios
# Bytes a GB/s scenario moves (read + written, as the triad counts) per byte its unit counts: the
# copies count each byte once although it is read and written; fills, clears and saxpy count what
# they move.
MOVED_PER_COUNTED = {"copy_buffer_256mib": 2, "copy_image_4k_rgba8": 2, "copy_buffer_to_image_4k_rgba8": 2}
LAVAPIPE_MANIFEST = Path("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
KNOWN_DRIVERS = ("kiln", "lavapipe", "kiln-1thread", "kiln-serial", "kiln-strict")
# Extra environment per driver.
DRIVER_ENVIRONMENT = {"kiln-1thread": {"KILN_THREADS": "1"}, "kiln-serial": {"KILN_OVERLAP": "0"},
                      "kiln-strict": {"KILN_STRICT": "1"}}


def parse_arguments():
    default_build = Path(os.environ.get("KILN_BUILD_DIR", REPO_DIR / "build"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, default=default_build,
                        help="Kiln build tree (default: $KILN_BUILD_DIR or <repo>/build)")
    parser.add_argument("--bench", type=Path,
                        help="kiln-bench executable (default: <build>/tools/kiln-bench)")
    parser.add_argument("--drivers", default="kiln,lavapipe",
                        help="comma-separated drivers to run: kiln, lavapipe, kiln-1thread (default: kiln,lavapipe)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per driver (default 3)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="kiln-bench --seconds: timed repetitions per scenario (default 1)")
    parser.add_argument("--scenario", action="append", default=[],
                        help="scenario to run (repeatable; default: all)")
    parser.add_argument("--json", type=Path,
                        help="combined results file (default: <build>/bench-compare.json)")
    parser.add_argument("--kiln-manifest", type=Path,
                        help="Kiln ICD manifest (default: <build>/kiln_icd.x86_64.json)")
    parser.add_argument("--lavapipe-manifest", type=Path, default=LAVAPIPE_MANIFEST)
    args = parser.parse_args()

    args.drivers = [d.strip() for d in args.drivers.split(",") if d.strip()]
    unknown = [d for d in args.drivers if d not in KNOWN_DRIVERS]
    if unknown or not args.drivers:
        parser.error(f"--drivers takes a comma-separated subset of {','.join(KNOWN_DRIVERS)}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    args.bench = args.bench or args.build_dir / "tools" / "kiln-bench"
    args.json = args.json or args.build_dir / "bench-compare.json"
    args.kiln_manifest = args.kiln_manifest or args.build_dir / "kiln_icd.x86_64.json"
    return args


def manifests(args):
    return {"kiln": args.kiln_manifest, "lavapipe": args.lavapipe_manifest, "kiln-1thread": args.kiln_manifest,
            "kiln-serial": args.kiln_manifest, "kiln-strict": args.kiln_manifest}


def check_inputs(args):
    """Returns a list of problems that make running pointless (missing files)."""
    problems = []
    if not os.access(args.bench, os.X_OK):
        problems.append(f"kiln-bench not found at {args.bench} (build it: ninja -C {args.build_dir} kiln-bench)")
    for driver in args.drivers:
        if not manifests(args)[driver].is_file():
            problems.append(f"{driver} manifest not found at {manifests(args)[driver]}"
                            + (" (is Kiln built? or use --drivers lavapipe)" if driver == "kiln" else ""))
    return problems


def run_bench_once(args, driver, round_index):
    """Runs kiln-bench on one driver; returns a run record (its JSON in 'result', or an 'error')."""
    manifest = str(manifests(args)[driver])
    env = dict(os.environ, VK_ICD_FILENAMES=manifest, VK_DRIVER_FILES=manifest, **DRIVER_ENVIRONMENT.get(driver, {}))
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as temp_dir:
        json_path = Path(temp_dir) / "result.json"
        command = [str(args.bench), "--json", str(json_path), "--seconds", str(args.seconds)]
        for name in args.scenario:
            command += ["--scenario", name]
        if args.scenario and TRIAD not in args.scenario:
            command += ["--scenario", TRIAD]
        started = time.monotonic()
        process = subprocess.run(command, env=env, capture_output=True, text=True)
        elapsed = time.monotonic() - started
        record = {"driver": driver, "round": round_index, "manifest": manifest,
                  "exit_code": process.returncode, "seconds": round(elapsed, 3), "result": None}
        if json_path.is_file():
            record["result"] = json.loads(json_path.read_text())
        else:
            last_lines = (process.stderr or process.stdout).strip().splitlines()[-3:]
            record["error"] = " | ".join(last_lines) or f"kiln-bench exited {process.returncode}"
    return record


def describe_run(record):
    if record["result"] is None:
        return f"no results (exit {record['exit_code']}): {record['error']}"
    counts = {"ok": 0, "skip": 0, "fail": 0}
    for scenario in record["result"]["scenarios"]:
        counts[scenario["status"]] = counts.get(scenario["status"], 0) + 1
    device = record["result"]["device_name"]
    return (f"{counts['ok']} ok, {counts['skip']} skip, {counts['fail']} fail "
            f"in {record['seconds']:.1f} s on {device}")


def summarise_driver(runs, name):
    """One driver's verdict on one scenario over all rounds: status and the median of medians."""
    rounds = [scenario for record in runs if record["result"] is not None
              for scenario in record["result"]["scenarios"] if scenario["name"] == name]
    statuses = [r["status"] for r in rounds]
    medians = [r["median_throughput"] for r in rounds
               if r["status"] == "ok" and r["median_throughput"] is not None]
    reasons = sorted({r["reason"] for r in rounds if r["reason"]})
    # The fraction of the triad each run measured beside this scenario (GB/s scenarios only).
    fractions = []
    for record in runs:
        scenarios = {s["name"]: s for s in (record["result"] or {}).get("scenarios", [])}
        mine, triad = scenarios.get(name), scenarios.get(TRIAD)
        if (name != TRIAD and mine and triad and mine["unit"] == "GB/s" and mine["status"] == "ok" and
                triad["status"] == "ok" and mine["median_throughput"] and triad["median_throughput"]):
            moved = mine["median_throughput"] * MOVED_PER_COUNTED.get(name, 1)
            fractions.append(moved / triad["median_throughput"])
    runs_without_results = sum(1 for record in runs if record["result"] is None)
    if runs_without_results:
        reasons.append(f"{runs_without_results} run(s) of kiln-bench produced no results")
    if "fail" in statuses or runs_without_results or not rounds:
        status = "fail"
    elif all(s == "skip" for s in statuses):
        status = "skip"
    else:
        status = "ok"
    return {
        "status": status,
        "median_throughput": statistics.median(medians) if status == "ok" else None,
        "best_throughput": max(medians) if status == "ok" else None,
        "round_medians": medians,
        "triad_fraction": statistics.median(fractions) if fractions and status == "ok" else None,
        "reasons": reasons,
    }


def summarise(driver_runs):
    """scenario name -> {"unit", one entry per driver, and with two drivers "ratio"/"best_ratio":
    the first driver's throughput over the second's (median of round medians, best round)}."""
    units = {}  # every scenario any run reported, in the order first seen
    for runs in driver_runs.values():
        for record in runs:
            for scenario in (record["result"] or {}).get("scenarios", []):
                units.setdefault(scenario["name"], scenario["unit"])
    drivers = list(driver_runs)
    summary = {}
    for name, unit in units.items():
        entry = {"unit": unit}
        for driver, runs in driver_runs.items():
            entry[driver] = summarise_driver(runs, name)
        if len(drivers) == 2:
            first, second = entry[drivers[0]], entry[drivers[1]]
            both_ok = first["status"] == "ok" and second["status"] == "ok"
            for key, figure in (("ratio", "median_throughput"), ("best_ratio", "best_throughput")):
                entry[key] = first[figure] / second[figure] if both_ok and second[figure] else None
        summary[name] = entry
    return summary


def format_cell(result):
    if result is None:
        return "-"
    if result["status"] == "ok":
        return f"{result['median_throughput']:.3f}"
    return result["status"].upper() if result["status"] == "fail" else result["status"]


def print_table(summary, drivers):
    paired = len(drivers) == 2
    ratio_name = f"{drivers[0]}/{drivers[1]}" if paired else ""
    with_triad = any((entry.get(d) or {}).get("triad_fraction") is not None for entry in summary.values() for d in drivers)
    headers = (["scenario"] + drivers + ["unit"] +
               ([ratio_name, f"best {drivers[0]}", f"best {drivers[1]}", "best ratio"] if paired else []) +
               ([f"{d} of triad" for d in drivers] if with_triad else []))
    rows = []
    notes = []
    for name, entry in summary.items():
        row = [name] + [format_cell(entry.get(driver)) for driver in drivers] + [entry["unit"]]
        if paired:
            best = [(entry.get(d) or {}).get("best_throughput") for d in drivers]
            row += [f"{entry['ratio']:.2f}x" if entry["ratio"] is not None else "-"]
            row += [f"{b:.3f}" if b is not None else "-" for b in best]
            row += [f"{entry['best_ratio']:.2f}x" if entry["best_ratio"] is not None else "-"]
        if with_triad:
            fractions = [(entry.get(d) or {}).get("triad_fraction") for d in drivers]
            row += [f"{f:.0%}" if f is not None else "-" for f in fractions]
        rows.append(row)
        for driver in drivers:
            for reason in (entry.get(driver) or {}).get("reasons", []):
                notes.append(f"  {name} on {driver}: {reason}")
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]
    for i, row in enumerate([headers] + rows):
        cells = [str(cell).ljust(w) if c in (0, len(drivers) + 1) else str(cell).rjust(w)
                 for c, (cell, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if notes:
        print("notes:")
        print("\n".join(notes))


def main():
    args = parse_arguments()
    problems = check_inputs(args)
    if problems:
        for problem in problems:
            print(f"bench-compare: {problem}", file=sys.stderr)
        return 2

    print(f"bench-compare: {args.rounds} round(s) of {args.bench} on {', '.join(args.drivers)}", flush=True)
    driver_runs = {driver: [] for driver in args.drivers}
    for round_index in range(1, args.rounds + 1):
        # Flip the order every round so neither driver always runs first.
        order = args.drivers if round_index % 2 else list(reversed(args.drivers))
        for driver in order:
            record = run_bench_once(args, driver, round_index)
            driver_runs[driver].append(record)
            print(f"[round {round_index}/{args.rounds}] {driver:<8} {describe_run(record)}", flush=True)

    summary = summarise(driver_runs)
    print()
    print(f"median of {args.rounds} round(s), {args.seconds:g} s per scenario per run")
    print_table(summary, args.drivers)

    combined = {
        "tool": "bench-compare",
        "rounds": args.rounds,
        "seconds_per_scenario": args.seconds,
        "drivers": args.drivers,
        "summary": summary,
        "runs": [record for runs in driver_runs.values() for record in runs],
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(combined, indent=2) + "\n")
    print(f"wrote {args.json}")

    all_fine = all(entry[driver]["status"] in ("ok", "skip")
                   for entry in summary.values() for driver in args.drivers if driver in entry)
    return 0 if all_fine and summary else 1


if __name__ == "__main__":
    sys.exit(main())
