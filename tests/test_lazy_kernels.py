"""Kernels made when first needed (`core.jit`): importing the package and answering from the
atlas load neither Numba nor pandas (issue 73: an atlas answer loads no kernel), a kernel run
as Python (`as_python`, before Numba is loaded) gives what its compiled self gives (`as_python`
does nothing once Numba is loaded), and once Numba is loaded every module holds plain
dispatchers."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from euchre_sim.advice.advice_request import ask_any
from euchre_sim.advice.atlas import atlas_answer
from euchre_sim.core import jit
from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import preset

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECK = [rank + suit for rank in "9TJQKA" for suit in "CDHS"]
PRESETS = ("standard", "online", "yooker")


def _questions(count: int, seed: int) -> list[dict]:
    """Random plain questions: five cards, the upcard (round 1) or the card turned down (round
    2) from the rest, a seat, a preset with an atlas (Yooker's 25-card deck adds the Benny)."""
    rng = np.random.default_rng(seed)
    questions = []
    for _ in range(count):
        preset = PRESETS[rng.integers(len(PRESETS))]
        deck = DECK + (["JK"] if preset == "yooker" else [])
        cards = [deck[i] for i in rng.permutation(len(deck))[:6]]
        card = "up" if preset == "yooker" or rng.random() < 0.5 else "turned_down"
        if card == "up" and cards[5] == "JK":
            cards[5], cards[0] = cards[0], cards[5]
        questions.append({"hand": " ".join(cards[:5]), card: cards[5],
                          "seat": int(rng.integers(1, 5)), "rules": preset})
    return questions


def _answers(questions: list[dict]) -> list:
    """Each question's answer from the atlas (`advise --json`'s object; None where the atlas
    holds too few deals and `advise` would simulate), or its one-line error."""
    answers = []
    for question in questions:
        fields = dict(question)
        rules = preset(fields.pop("rules"))
        try:
            with jit.as_python():
                answers.append(atlas_answer(ask_any(rules, fields)))
        except UserError as err:
            answers.append(str(err))
    return answers


_IN_A_FRESH_PROCESS = """
import json, sys
sys.path.insert(0, {tests!r})
from test_lazy_kernels import _answers, _questions
answers = _answers(_questions({count}, {seed}))
loaded = sorted(m for m in ("numba", "pandas", "pyarrow.dataset") if m in sys.modules)
print(json.dumps({{"answers": answers, "loaded": loaded}}))
"""


def _fresh(count: int, seed: int) -> dict:
    script = _IN_A_FRESH_PROCESS.format(tests=os.path.join(ROOT, "tests"), count=count,
                                        seed=seed)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_atlas_answers_load_no_numba_nor_pandas_and_match_the_compiled_kernels():
    """Run as Python in a fresh process (the question's checks and the atlas's keys), then
    here with Numba's compiled kernels: the same objects, question by question."""
    fresh = _fresh(120, 73)
    assert fresh["loaded"] == []
    jit.load_numba()
    here = _answers(_questions(120, 73))
    assert sum(isinstance(a, dict) for a in here) >= 60
    for asked, compiled, python in zip(_questions(120, 73), here, fresh["answers"],
                                       strict=True):
        assert python == json.loads(json.dumps(compiled)), asked


def test_importing_the_command_line_loads_no_numba_numpy_nor_pandas():
    script = ("import sys, euchre_sim.cli.main, euchre_sim.api; "
              "print(sorted(m for m in ('numba', 'numpy', 'pandas') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[]"


_MODULE = '''
import numpy as np
from euchre_sim.core.jit import njit, overload

def doubled_in_python(x):
    return 2 * x

@overload(doubled_in_python)
def _doubled(x):
    return lambda x: x + x

@njit
def inner(x):
    return x + np.int64(1)

@njit
def outer(x):
    return inner(x) * np.int64(3) + doubled_in_python(x)
'''


@pytest.fixture
def kernels_module(tmp_path):
    """A module of kernels written here: a fresh subprocess imports it."""
    (tmp_path / "lazy_example.py").write_text(_MODULE)
    return str(tmp_path)


def test_a_kernel_waits_for_numba_runs_as_python_and_is_replaced_once_it_loads(kernels_module):
    script = f"""
import json, sys
sys.path.insert(0, {kernels_module!r})
import numpy as np
import lazy_example as m
from euchre_sim.core import jit
seen = [isinstance(m.outer, jit.Kernel), "numba" in sys.modules]
with jit.as_python():
    seen.append(int(m.outer(np.int64(4))))
seen.append("numba" in sys.modules)
seen.append(int(m.outer(np.int64(4))))  # compiled: Numba loaded here
seen += [isinstance(m.outer, jit.Kernel) or isinstance(m.inner, jit.Kernel),
         len(m.outer.signatures), "numba" in sys.modules]
with jit.as_python():  # once Numba is loaded, the compiled kernels serve
    seen.append(int(m.outer(np.int64(5))))
print(json.dumps(seen))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=ROOT, timeout=300,
                         env=os.environ | {"EUCHRE_SIM_NO_CACHE": "1"})
    assert run.returncode == 0, run.stderr[-2000:]
    # (4 + 1) * 3 + 8 = 23 both ways; (5 + 1) * 3 + 10 = 28
    assert json.loads(run.stdout) == [True, False, 23, False, 23, False, 1, True, 28]
