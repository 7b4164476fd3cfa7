"""JSON as the command line and the page write it: strict JSON, a figure that is not finite
(NaN, Infinity: no JSON number) written null, never `NaN` (`json_text`, `finite`)."""

from __future__ import annotations

from ..core.output import finite, json_text

__all__ = ["finite", "json_text"]
