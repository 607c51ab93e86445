"""``python -m tessera_engine_farm``: the same as ``tessera-farm``."""

import sys

from .cli import main

sys.exit(main())
