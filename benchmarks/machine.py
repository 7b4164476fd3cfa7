"""The machine a benchmark ran on, printed beside its figures: a speed measured on one CPU can
reverse on another (issue 74)."""

import os
import subprocess
import sys

VECTOR_FLAGS = ("sse4_2", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512bw", "avx512vl",
                "avx512_vnni", "avx512_bf16")


def machine() -> dict:
    """What the figures were measured on: lscpu's fields and LLVM's name for the host CPU."""
    fields = {}
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    flags = set(fields.get("Flags", "").split())
    llvm_cpu = subprocess.run([sys.executable, "-c", "import llvmlite.binding as b;"
                               "print(b.get_host_cpu_name())"],
                              capture_output=True, text=True).stdout.strip()
    return {"model_name": fields.get("Model name"), "cpu_family": fields.get("CPU family"),
            "model": fields.get("Model"), "cores": os.cpu_count(),
            "l1d": fields.get("L1d cache"), "l1i": fields.get("L1i cache"),
            "l2": fields.get("L2 cache"), "l3": fields.get("L3 cache"),
            "vector_flags": [flag for flag in VECTOR_FLAGS if flag in flags],
            "llvm_cpu": llvm_cpu}
