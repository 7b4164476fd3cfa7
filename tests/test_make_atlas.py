"""tools/make_atlas.py builds into its work folder and installs into the package only with
--install, once every file is built (issue 58 item 10): a failed step is one line with its
status, never a traceback, and the shipped atlas is untouched."""

import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "euchre_sim" / "data" / "atlas_standard.parquet"


def test_a_failed_step_is_one_line_and_installs_nothing(tmp_path):
    before = hashlib.sha256(ATLAS.read_bytes()).hexdigest()
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_atlas.py"), "--preset", "standard",
         "--deals", "200", "--work", str(tmp_path), "--workers", "0", "--install"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("make_atlas: the step 'euchre-sim simulate") and "nothing was " \
        "installed" in last, result.stderr
    assert "--workers" in result.stderr  # the command's own line: workers 0 was passed on
    assert hashlib.sha256(ATLAS.read_bytes()).hexdigest() == before
    assert not (tmp_path / "atlas").exists()
