#!/usr/bin/env python3
"""Runs the Blokus match runner from a checkout, without installing anything: the same as the
installed command ``tessera-blokus-match``. Its options and rules are in the module
``tessera_engine_client.blokus_match`` (tools/python)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "python"))  # the checkout's client

from tessera_engine_client.blokus_match import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
