"""The build backend: setuptools' own, without its notice on every editable install.

`euchre_sim_cli` is the folder `cli/`, so an editable install maps it with a meta path finder,
and setuptools then warns on each `pip install -e .` that folders named like the package may
shadow it. That is expected here and nothing a user can act on; every other warning stays.
"""

import warnings

from setuptools.build_meta import *  # noqa: F403 (the PEP 517 hooks, as they are)

warnings.filterwarnings("ignore", message="Editable installation")
