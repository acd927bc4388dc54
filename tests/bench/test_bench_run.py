#!/usr/bin/env python3
"""bench/run --baseline's recheck pass, run over two fake builds.

Each fake build holds one benchmark program, a script that answers as a Google Benchmark binary
does (--benchmark_list_tests, --benchmark_filter, --benchmark_out as JSON) with times it reads from
a table: the n-th time a build measures a benchmark it reports the table's n-th entry (its last
from then on), so a test can make one side's first run slow, as a slow phase of the machine
would, and see what the comparison reports. Every measurement is logged (build, benchmark), so the
order of the runs can be checked. The fake builds' `shapevm` fails if it is ever run, except in
the test of a whole-process figure, where it answers --version (its first answers slowly in the new
build).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH_RUN = os.path.join(SOURCE_DIR, "bench", "run")

FAKE_BENCHMARK = textwrap.dedent("""\
    #!/usr/bin/env python3
    import json, os, re, sys
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(here, "times.json")) as f:
        times = json.load(f)
    if "--benchmark_list_tests" in sys.argv:
        print("\\n".join(times))
        sys.exit(0)
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
    pattern = args.get("benchmark_filter", ".")
    counts_path = os.path.join(here, "counts.json")
    counts = json.load(open(counts_path)) if os.path.exists(counts_path) else {}
    out = []
    for name, series in times.items():
        if not re.search(pattern, name):
            continue
        n = counts.get(name, 0)
        counts[name] = n + 1
        with open(os.environ["FAKE_BENCH_LOG"], "a") as log:
            log.write(f"{os.path.basename(here)} {name}\\n")
        value = series[min(n, len(series) - 1)]
        out.append({"name": name, "run_type": "iteration", "iterations": 1, "real_time": value,
                    "cpu_time": value, "time_unit": "ns", "per_op": value / 10})
    with open(counts_path, "w") as f:
        json.dump(counts, f)
    with open(args["benchmark_out"], "w") as f:
        json.dump({"benchmarks": out}, f)
    """)


FAILING_SHAPEVM = "#!/bin/sh\necho 'the fake shapevm ran' >&2\nexit 1\n"


def make_build(root, side, times, shapevm_script=FAILING_SHAPEVM):
    build = os.path.join(root, side)
    os.makedirs(os.path.join(build, "bench"))
    with open(os.path.join(build, "times.json"), "w") as f:
        json.dump(times, f)
    program = os.path.join(build, "bench", "bench_fake")
    with open(program, "w") as f:
        f.write(FAKE_BENCHMARK)
    shapevm = os.path.join(build, "shapevm")
    with open(shapevm, "w") as f:
        f.write(shapevm_script)
    for path in (program, shapevm):
        os.chmod(path, 0o755)
    return build


class RecheckTest(unittest.TestCase):
    def run_pair(self, old_times, new_times, *options, scripts=(FAILING_SHAPEVM,) * 2,
                 filter_regex="bench_fake/"):
        """Runs bench/run --baseline over the two fake builds (their shapevm scripts: old, new);
        returns (new figures, old figures, the new report's rechecked list, [(build, benchmark)]
        in the order measured, stdout)."""
        root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, root)
        self.root = root
        old = make_build(root, "old", old_times, scripts[0])
        new = make_build(root, "new", new_times, scripts[1])
        log = os.path.join(root, "log")
        out = os.path.join(root, "figures.json")
        result = subprocess.run(
            [sys.executable, BENCH_RUN, "--build", new, "--baseline", old, "--filter", filter_regex,
             "--out", out, *options],
            capture_output=True, text=True, env={**os.environ, "FAKE_BENCH_LOG": log})
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out) as f:
            report = json.load(f)
        with open(os.path.join(root, "figures.baseline.json")) as f:
            baseline = json.load(f)
        with open(log) as f:
            runs = [tuple(line.split()) for line in f]
        return report["figures"], baseline["figures"], report.get("rechecked"), runs, result.stdout

    def test_a_slow_first_run_is_measured_again_and_a_real_change_stays(self):
        # BM_Noisy's name holds a colon, as a benchmark's with a fixed iteration count does.
        old = {"BM_Noisy/iterations:2": [100], "BM_Faster": [100], "BM_Same": [100]}
        # BM_Noisy's first run fell in a slow phase; BM_Faster is twice as fast in every run;
        # BM_Same differs by 1%, within the threshold.
        new = {"BM_Noisy/iterations:2": [200, 100], "BM_Faster": [50], "BM_Same": [101]}
        figures, baseline, rechecked, runs, stdout = self.run_pair(
            old, new, "--rounds", "1", "--recheck", "10", "--recheck-rounds", "3")
        noisy = "bench_fake/BM_Noisy/iterations:2"
        self.assertEqual(figures[noisy]["value"], 100)
        self.assertEqual(figures["bench_fake/BM_Faster"]["value"], 50)
        self.assertEqual(figures["bench_fake/BM_Same"]["value"], 101)
        self.assertEqual(baseline[noisy]["value"], 100)
        # The counters come from the run whose time was kept.
        self.assertEqual(figures[noisy + ":per_op"]["value"], 10)
        self.assertEqual(sorted(rechecked), ["bench_fake/BM_Faster", noisy])
        # The first round measures each benchmark once per build; the recheck measures only the
        # two that differ, three more times per build, each alone, the builds alternating.
        count = lambda side, name: runs.count((side, name))
        for side in ("old", "new"):
            self.assertEqual(count(side, "BM_Same"), 1)
            self.assertEqual(count(side, "BM_Noisy/iterations:2"), 4)
            self.assertEqual(count(side, "BM_Faster"), 4)
        first_round = runs[:6]
        self.assertEqual(sorted(set(name for _, name in first_round)),
                         ["BM_Faster", "BM_Noisy/iterations:2", "BM_Same"])
        for name in ("BM_Noisy/iterations:2", "BM_Faster"):
            sides = [side for side, n in runs[6:] if n == name]
            self.assertEqual(sides, ["old", "new", "new", "old", "old", "new"])
        # The comparison marks what it measured again, and only that.
        lines = {line.split()[0]: line for line in stdout.splitlines() if line.startswith("bench_")}
        self.assertIn("rechecked", lines[noisy])
        self.assertIn("rechecked", lines[noisy + ":per_op"])
        self.assertIn("0.500  rechecked", lines["bench_fake/BM_Faster"])
        self.assertNotIn("rechecked", lines["bench_fake/BM_Same"])

    def test_without_a_recheck_the_slow_run_stands(self):
        old = {"BM_Noisy": [100]}
        new = {"BM_Noisy": [200, 100]}
        figures, _, rechecked, runs, _ = self.run_pair(old, new, "--rounds", "1", "--recheck", "0")
        self.assertEqual(figures["bench_fake/BM_Noisy"]["value"], 200)
        self.assertIsNone(rechecked)
        self.assertEqual(runs, [("old", "BM_Noisy"), ("new", "BM_Noisy")])

    def test_nothing_differs_nothing_is_measured_again(self):
        times = {"BM_A": [100, 300], "BM_B": [100]}
        figures, _, rechecked, runs, _ = self.run_pair(times, times, "--rounds", "2")
        self.assertEqual(rechecked, [])
        self.assertEqual(len(runs), 8)  # two rounds, two builds, two benchmarks
        self.assertEqual(figures["bench_fake/BM_A"]["value"], 100)

    def test_a_whole_process_figure_is_measured_again_with_its_group(self):
        # The new build's first 120 processes take 60 ms longer: more than half of the first
        # round's 200 runs of --version, so that round's median is at least 60 ms. A process of
        # the fake builds otherwise takes a few milliseconds (up to about 20 under a parallel
        # test run's load).
        quick = "#!/bin/sh\n[ \"$1\" = --version ] || exit 1\n"
        slow_first = quick.replace(
            "\n[", "\nd=$(dirname \"$0\"); n=$(wc -l < \"$d/calls\" 2>/dev/null || echo 0)\n"
            "echo >> \"$d/calls\"\n[ \"$n\" -lt 120 ] && sleep 0.06\n[", 1)
        times = {"BM_A": [100]}
        figures, baseline, rechecked, _, stdout = self.run_pair(
            times, times, "--rounds", "1", "--recheck-rounds", "2", scripts=(quick, slow_first),
            filter_regex="bench_fake/|process/version")
        self.assertEqual(rechecked, ["process/version:cpu_mean", "process/version:wall_median"])
        with open(os.path.join(self.root, "new", "calls")) as f:
            self.assertEqual(len(f.readlines()), 600)  # the round and two rechecks, 200 each
        self.assertLess(figures["process/version:wall_median"]["value"], 60)
        self.assertLess(baseline["process/version:wall_median"]["value"], 60)
        line = next(l for l in stdout.splitlines() if l.startswith("process/version:wall_median"))
        self.assertIn("rechecked", line)

if __name__ == "__main__":
    unittest.main()
