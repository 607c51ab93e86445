"""What a GUI keeps between sessions: one small JSON file per GUI in the user's config folder.

The folder is ``$XDG_CONFIG_HOME/tessera`` (``~/.config/tessera`` when that is unset); the
Blokus GUI keeps ``blokus.json`` there, and so on::

    settings = Settings("blokus")          # reads ~/.config/tessera/blokus.json if it exists
    level = settings.level                 # 1..10, 10 (full strength) until chosen
    settings.level = 3                     # written at once
    settings.update(rated=[...])           # any JSON value under any key

A missing file gives the defaults; an unreadable one too, and it is kept aside as
``<name>.json.bad`` so the next save does not destroy it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Optional

__all__ = ["FULL_STRENGTH", "LEVELS", "Settings", "config_dir", "level_label"]

FULL_STRENGTH = 10
LEVELS = tuple(range(1, FULL_STRENGTH + 1))


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/tessera``, or ``~/.config/tessera``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tessera"


def level_label(level: int) -> str:
    """``"3"``, or ``"10 (full strength)"``: the level chooser's entries."""
    return f"{level} (full strength)" if level == FULL_STRENGTH else str(level)


class Settings:
    """The settings of the GUI ``name``, read at once and written on every change."""

    def __init__(self, name: str, folder: Optional[Path] = None) -> None:
        self.path = (folder or config_dir()) / f"{name}.json"
        self.data: Dict[str, Any] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            self.data = data
        except FileNotFoundError:
            pass
        except (OSError, ValueError):
            try:
                self.path.replace(self.path.with_name(self.path.name + ".bad"))
            except OSError:
                pass

    def get(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, else ``default``."""
        return self.data.get(key, default)

    def update(self, **values: Any) -> None:
        """Sets the values and writes the file (atomically: a new file renamed over it)."""
        self.data.update(values)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(self.path)

    @property
    def level(self) -> int:
        """The engine level chosen last (1..10), :data:`FULL_STRENGTH` until one was chosen."""
        level = self.get("level", FULL_STRENGTH)
        return level if level in LEVELS else FULL_STRENGTH

    @level.setter
    def level(self, level: int) -> None:
        if level not in LEVELS:
            raise ValueError(f"levels are 1 to {FULL_STRENGTH}, got {level}")
        self.update(level=level)
