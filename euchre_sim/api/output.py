"""JSON as the command line and the page write it: strict JSON, a figure that is not finite
(NaN, Infinity: no JSON number) written null, never `NaN` (`json_text`, `finite`).

Examples
--------
>>> from euchre_sim.api.output import finite, json_text
>>> json_text({"points_se": float("nan"), "n": 3, "ci95": [float("-inf"), 0.5]})
'{"points_se": null, "n": 3, "ci95": [null, 0.5]}'
>>> finite((1.0, float("inf")))
[1.0, None]
"""

from __future__ import annotations

from ..core.output import finite, json_text

__all__ = ["finite", "json_text"]
