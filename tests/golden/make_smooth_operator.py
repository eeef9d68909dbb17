"""Regenerate the Smooth Operator golden playthroughs (tests/golden/smooth_operator_*.json).

    .venv/bin/python tests/golden/make_smooth_operator.py

Seeded bot games; every file stores the replay scenario and the omniscient summary after
every action. Only rerun on purpose (a rules change), then inspect the diff by hand.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from smooth_operator_helpers import regenerate_goldens  # noqa: E402

if __name__ == "__main__":
    for path in regenerate_goldens():
        print(path.relative_to(ROOT))
