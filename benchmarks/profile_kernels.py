"""Where a run's time goes inside the compiled kernels (issue 74; not a timed test): a
`simulate` run in a fresh process with an empty Numba cache (a function loaded from a cache
keeps no object code to read its symbols from), its kernels compiled by a small run first,
then the timed run sampled by `perf record` (the CPU clock: a virtual machine often has no
hardware counters), the compiled functions named for perf by a map written from Numba's
libraries (/tmp/perf-PID.map: each function's address and the size of its machine code).
Prints JSON: the run's deals a second, the share of samples per shared object and per kernel
(top 12) with each kernel's code size in bytes, and for the top 3 kernels the share of their
samples on conditional moves (`cmov`), on other moves to or from the stack, and the rest.

    .venv/bin/python benchmarks/profile_kernels.py [--play learned] [--deals 20000]
"""

import argparse
import bisect
import collections
import ctypes
import gc
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PERF = shutil.which("perf")


def compiled_functions() -> dict[str, tuple[int, int]]:
    """Every compiled function Numba holds in this process: name -> (address, bytes)."""
    from numba.core.dispatcher import Dispatcher

    gc.unfreeze()  # core.jit.freeze_compiled hides the kernels' objects from gc
    libraries = {id(c.library): c.library for o in gc.get_objects()
                 if isinstance(o, Dispatcher) for c in o.overloads.values()}
    found = {}
    for library in libraries.values():
        for name, size in symbol_sizes(library).items():
            if name in found:
                continue
            try:
                address = library.get_pointer_to_function(name)
            except Exception:  # noqa: BLE001 - not in this library
                address = 0
            if address:
                found[name] = (address, size)
    return found


def symbol_sizes(library) -> dict[str, int]:
    """The functions of a freshly compiled library and the size of each one's code."""
    try:
        data = library._get_compiled_object()  # noqa: SLF001 - Numba keeps no other handle
    except Exception:  # noqa: BLE001 - loaded from a cache: no object code kept
        return {}
    with tempfile.NamedTemporaryFile(suffix=".o") as handle:
        handle.write(data)
        handle.flush()
        listing = subprocess.run(["nm", "-S", "--defined-only", handle.name],
                                 capture_output=True, text=True).stdout
    return {parts[3]: int(parts[1], 16) for parts in map(str.split, listing.splitlines())
            if len(parts) == 4 and parts[2] in "tT"}


def short_name(symbol: str) -> str:
    """A Numba symbol's module path and function, e.g. play.playout.play_contract."""
    names, rest = [], symbol[3:] if symbol.startswith("_ZN") else symbol
    while rest and rest[0].isdigit():
        length = int(re.match(r"\d+", rest).group())
        digits = len(str(length))
        names.append(rest[digits:digits + length])
        rest = rest[digits + length:]
    return ".".join(n for n in names if n not in ("euchre_sim", "cpython", "inner")) or symbol[:60]


def run_profiled(args) -> None:
    """The child: the run, then the perf map and each hot kernel's code saved for the
    parent."""
    import euchre_sim

    scratch = args.scratch
    options = {"play": args.play, "bidding": args.bidding}
    euchre_sim.simulate(200, out=os.path.join(scratch, "warm"), seed=5, workers=1, **options)
    recorder = subprocess.Popen([PERF, "record", "-q", "-e", "cpu-clock", "-p", str(os.getpid()),
                                 "-o", os.path.join(scratch, "perf.data")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # perf attached
    started = time.perf_counter()
    euchre_sim.simulate(args.deals, out=os.path.join(scratch, "run"), seed=5, workers=1,
                        **options)
    rate = args.deals / (time.perf_counter() - started)
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    functions = compiled_functions()
    with open(f"/tmp/perf-{os.getpid()}.map", "w", encoding="utf-8") as handle:
        for name, (address, size) in sorted(functions.items(), key=lambda f: f[1]):
            handle.write(f"{address:x} {size:x} {name}\n")
    code = {name: (address, ctypes.string_at(address, size).hex())
            for name, (address, size) in functions.items()}
    with open(os.path.join(scratch, "child.json"), "w", encoding="utf-8") as handle:
        json.dump({"rate": rate, "pid": os.getpid(), "code": code}, handle)


def instruction_kinds(code_hex: str, address: int, samples: list[int]) -> dict:
    """The share of `samples` (instruction pointers) on cmov, stack moves and the rest."""
    with tempfile.NamedTemporaryFile(suffix=".bin") as handle:
        handle.write(bytes.fromhex(code_hex))
        handle.flush()
        listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                                  f"--adjust-vma={address:#x}", handle.name],
                                 capture_output=True, text=True).stdout
    text = {}
    for line in listing.splitlines():
        match = re.match(r"\s+([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S.*)?", line)
        if match and match.group(2):
            text[int(match.group(1), 16)] = match.group(2)
    starts = sorted(text)
    kinds = collections.Counter()
    for ip in samples:
        i = bisect.bisect_right(starts, ip) - 1
        here, before = text[starts[i]], text[starts[i - 1]] if i > 0 else ""
        if here.startswith("cmov") or before.startswith("cmov"):  # a sample lands after
            kinds["cmov"] += 1
        elif "(%rsp)" in here and here.startswith("mov"):
            kinds["stack_moves"] += 1
        else:
            kinds["other"] += 1
    total = sum(kinds.values()) or 1
    return {kind: round(count / total, 3) for kind, count in kinds.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--play", default="learned")
    parser.add_argument("--bidding", default="human")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_profiled(args)
        return
    if PERF is None:
        sys.exit("profile_kernels needs perf (Debian: linux-perf)")
    with tempfile.TemporaryDirectory(prefix="profile-kernels-") as scratch:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(scratch, "numba-cache"))
        data = os.path.join(scratch, "perf.data")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--scratch",
                        scratch, "--play", args.play, "--bidding", args.bidding,
                        "--deals", str(args.deals)], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(scratch, "child.json"), encoding="utf-8") as handle:
            child = json.load(handle)
        script = subprocess.run([PERF, "script", "-i", data, "-F", "pid,ip,sym,dso"],
                                capture_output=True, text=True).stdout
        os.remove(f"/tmp/perf-{child['pid']}.map")
    by_dso, by_kernel, ips = collections.Counter(), collections.Counter(), {}
    for line in script.splitlines():
        match = re.match(r"\s*\d+\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)$", line)
        if not match:
            continue
        ip, symbol, dso = match.groups()
        by_dso["jit" if dso.startswith("[JIT]") or "perf-" in dso else
               os.path.basename(dso)] += 1
        if symbol in child["code"]:
            by_kernel[symbol] += 1
            ips.setdefault(symbol, []).append(int(ip, 16))
    total = sum(by_dso.values()) or 1
    report = {"play": args.play, "bidding": args.bidding, "deals": args.deals,
              "deals_per_second": round(child["rate"], 1),
              "shares_by_object": {k: round(v / total, 3) for k, v in by_dso.most_common(8)},
              "kernels": {}}
    for symbol, count in by_kernel.most_common(12):
        address, code = child["code"][symbol]
        entry = {"share": round(count / total, 3), "code_bytes": len(code) // 2}
        if len(report["kernels"]) < 3:
            entry["samples_on"] = instruction_kinds(code, address, ips[symbol])
        report["kernels"][short_name(symbol)] = entry
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
