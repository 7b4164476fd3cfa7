"""One Numba decorator with the project's defaults (cache on, nogil).

Set EUCHRE_SIM_NO_CACHE=1 to compile without the on-disk cache; NUMBA_CACHE_DIR moves it.
"""

import os

import numba

_CACHE = os.environ.get("EUCHRE_SIM_NO_CACHE", "") not in ("1", "true", "yes")


def njit(*args, **kwargs):
    kwargs.setdefault("cache", _CACHE)
    kwargs.setdefault("nogil", True)
    return numba.njit(*args, **kwargs)
