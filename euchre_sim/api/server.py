"""What a server standing on the API needs besides the calls: a JSON body read as the
library reads its files (`parse_json`), the errors it answers with (`DamagedInstall`: a
shipped file that cannot be read; `json_name`: a field as a JSON body spells it in an
error's line) and whether the shipped atlas answers a question without a simulation
(`atlas_covers`)."""

from __future__ import annotations

from ..core.errors import DamagedInstall, json_name
from ..core.files import parse_json

__all__ = ["DamagedInstall", "atlas_covers", "json_name", "parse_json"]


def atlas_covers(question) -> bool:
    """Whether the shipped atlas answers an advice question (a bid question it covers), from
    its keys alone: no row read, no answer made. Anything but an advice question: False.

    Examples
    --------
    >>> from euchre_sim.api.server import atlas_covers
    >>> atlas_covers({"hand": "JS AS 9H 9D TC"})
    False
    """
    from ..advice.atlas import atlas_covers as covers

    return covers(question)
