"""What the three GUIs share: the level chooser, the numbered marks of a three-line hint, and the
rated-games panel (Blokus and Competitive Sudoku).

The level and the rated games are kept between sessions in the GUI's settings file
(:mod:`tessera_engine_client.settings`, ``~/.config/tessera/<gui>.json``); ratings are estimated as
:mod:`tessera_engine_client.rating` says: level k counts as rating 1000 + 150 (k - 1), the person
starts at 1000 and moves by K (S - E) after each rated game (K = 40 for the first 10 games,
then 20).
"""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tessera_engine_client.rating import RatedGame, describe, rated_games, record
from tessera_engine_client.settings import LEVELS, Settings, level_label

HINT_LINES = 3
"""How many lines a hint asks for (the engine's MultiPV)."""
RANK_COLORS = ("#e4572e", "#17a398", "#3d4b66")
"""The colours of hint lines 1, 2 and 3."""
RATING_HELP = ("Level k counts as rating 1000 + 150 (k - 1). You start at 1000; after each "
               "rated game your rating moves by K (S - E): S = 1 win, 1/2 draw, 0 loss, E the "
               "score expected against the level, K = 40 for the first 10 games, then 20. "
               "An unfinished rated game is not counted.")


class LevelChooser(ttk.Combobox):
    """A read-only list of the levels 1 to 10 (``10 (full strength)``); a choice is saved in
    ``settings`` and passed to ``on_change``."""

    def __init__(self, parent: tk.Misc, settings: Settings, level: int,
                 on_change: Callable[[int], None] = lambda level: None, **kwargs: Any) -> None:
        self.var = tk.StringVar(value=level_label(level))
        super().__init__(parent, textvariable=self.var, values=[level_label(k) for k in LEVELS],
                         state="readonly", width=16, **kwargs)
        self.settings = settings
        self.on_change = on_change
        self.bind("<<ComboboxSelected>>", self._chosen)

    @property
    def level(self) -> int:
        """The level shown."""
        return int(self.var.get().split()[0])

    def _chosen(self, _event: Any) -> None:
        self.settings.level = self.level
        self.on_change(self.level)


def badge(canvas: tk.Canvas, x: float, y: float, rank: int, radius: float = 11,
          tags: Any = ()) -> None:
    """The number ``rank`` (1-based) in a disc of its colour, centred on (x, y)."""
    canvas.create_oval(x - radius, y - radius, x + radius, y + radius, outline="white", width=2,
                       fill=RANK_COLORS[(rank - 1) % len(RANK_COLORS)], tags=tags)
    canvas.create_text(x, y, text=str(rank), fill="white", tags=tags,
                       font=("DejaVu Sans", -int(radius * 1.2), "bold"))


def _searched_score(info: Dict[str, Any]) -> Optional[int]:
    """The line's score, None for a line found without searching (depth 0)."""
    return info.get("score") if info.get("depth") else None


def hint_lines(best: Sequence[Any], lines: Sequence[Dict[str, Any]],
               whole: bool = False) -> List[Tuple[Optional[int], List[str]]]:
    """A search's lines as (score, moves), best first: ``best`` (the ``bestmove``'s moves;
    empty for ``bestmove none``, which gives no line) with the score of ``lines[0]``, then the
    other lines (info dicts by rank) whose first move (``whole``: whose moves) no better line
    has (a line kept from an earlier iteration may repeat the new best one). The score is None
    for a line the engine did not search (depth 0: a fallback or a book move)."""
    if not best:
        return []
    candidates = [(_searched_score(lines[0]) if lines else None, best)]
    candidates += [(_searched_score(info), info.get("pv", [])) for info in lines[1:]]
    out: List[Tuple[Optional[int], List[str]]] = []
    seen = set()
    for score, moves in candidates:
        texts = [str(m) for m in moves]
        if not texts:
            continue
        key = " ".join(texts) if whole else texts[0]
        if key not in seen:
            seen.add(key)
            out.append((score, texts))
    return out


class RatedPanel(ttk.Labelframe):
    """The rated games: the person's rating in the current variant, a button that starts a
    rated game at the chosen level, and (on request) the results and how the rating is
    estimated."""

    def __init__(self, parent: tk.Misc, settings: Settings, start: Callable[[], None],
                 width: int = 200) -> None:
        super().__init__(parent, text="RATED GAMES", padding=(8, 4))
        self.settings = settings
        self.summary = ttk.Label(self, wraplength=width, justify="left")
        self.summary.pack(anchor="w", fill="x")
        row = ttk.Frame(self)
        row.pack(anchor="w", fill="x", pady=(4, 0))
        self.button = ttk.Button(row, command=start)
        self.button.pack(side="left")
        self.link = ttk.Label(row, text="Results and rating ▸", foreground="#4a6fb5",
                              cursor="hand2")
        self.link.pack(side="left", padx=(10, 0))
        self.link.bind("<Button-1>", lambda e: self._toggle_details())
        self.details = ttk.Frame(self)
        self.history = tk.Listbox(self.details, height=5, width=30, activestyle="none",
                                  font=("DejaVu Sans Mono", 9), highlightthickness=0,
                                  relief="flat")
        self.history.pack(anchor="w", fill="x", pady=(4, 4))
        ttk.Label(self.details, text=RATING_HELP, wraplength=width, justify="left",
                  font=("DejaVu Sans", 8)).pack(anchor="w")

    def _toggle_details(self) -> None:
        shown = self.details.winfo_ismapped()
        if shown:
            self.details.pack_forget()
        else:
            self.details.pack(anchor="w", fill="x")
        self.link.configure(text="Results and rating " + ("▸" if shown else "▾"))

    def show(self, variant: str, title: str, level: int, playing: Optional[int]) -> None:
        """Shows ``variant``'s rating (``title`` names it) and last games; ``playing``: the
        level of the rated game under way (None: no rated game, one may start at ``level``)."""
        games = rated_games(self.settings, variant)
        self.summary.configure(text=f"{title}: {describe(games)}")
        self.history.delete(0, "end")
        for game in reversed(games[-20:]):
            self.history.insert("end", f"{game.date}  level {game.level:<2}  {game.result}")
            color = {"win": "#1f8a3a", "loss": "#b03a2e"}.get(game.result, "#22304f")
            self.history.itemconfigure("end", foreground=color)
        if playing is None:
            self.button.configure(text=f"Rated game at level {level}", state="normal")
        else:
            self.button.configure(text=f"Rated game under way (level {playing})",
                                  state="disabled")

    def record(self, game: RatedGame) -> None:
        """Stores a finished rated game in the settings file."""
        record(self.settings, game)
