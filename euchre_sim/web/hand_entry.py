"""A hand entered on the page step by step: the partial record replayed with the engine, the
first step that breaks a rule named (as `replay` names it), and what the next seat may do
(`api.hands.check_entry`)."""

from __future__ import annotations

from ..api.hands import MAX_STEPS, check_entry, replayed

__all__ = ["MAX_STEPS", "check_entry", "replayed"]
