"""The GUIs' levels, hints, setup and rated games, the Blokus board's house player (moves
clicked square by square, the computer's announced, undo) and its game analysis, against the
real engine, in windows (CI runs these under xvfb-run; without a display they are skipped).

Each test drives an app through its own methods, simulated clicks and keys, and lets Tk run
until the engine has answered.
The settings files go to a temporary $XDG_CONFIG_HOME.
"""

import os
import sys
import time
from pathlib import Path

import pytest

GUI = Path(__file__).resolve().parents[1]
REPO = GUI.parents[1]
sys.path[:0] = [str(GUI), str(REPO / "tools" / "python")]

import tkinter as tk  # noqa: E402

import blokus as blokus_gui  # noqa: E402
import compsudoku as sudoku_gui  # noqa: E402
from tessera_engine_client import blokus  # noqa: E402
from tessera_engine_client.compsudoku import SudokuMove  # noqa: E402
from tessera_engine_client.rating import rated_games  # noqa: E402
from tessera_engine_client.settings import Settings, level_label  # noqa: E402

ENGINE = os.environ.get("TESSERA_ENGINE", str(REPO / "target" / "release" / "tessera"))

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (xvfb-run)")


@pytest.fixture
def app(tmp_path, monkeypatch):
    """Starts a GUI: app(module, App class name, *argv); closed after the test."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    apps = []

    def start(module, name, *argv):
        root = tk.Tk()
        gui = getattr(module, name)(root, module.parse_args(["--engine", ENGINE, *argv]))
        apps.append(gui)
        pump(gui, lambda: gui.engine_ready)
        return gui

    yield start
    for gui in apps:
        gui.close()


def pump(gui, done, timeout=30.0):
    """Runs Tk's events until ``done()`` (the engine answers through the worker's queue)."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "timed out"
        gui.root.update()
        time.sleep(0.005)


def choose_level(gui, level):
    """Picks ``level`` in the level chooser as a person would."""
    gui.level_chooser.set(level_label(level))
    gui.level_chooser.event_generate("<<ComboboxSelected>>")


def test_sudoku_setup_hint_and_level(app):
    gui = app(sudoku_gui, "CompSudokuApp", "--box", "2x3", "--mode", "rows", "--movetime", "50")
    pump(gui, lambda: gui.pending is None)
    choose_level(gui, 4)
    assert gui.level == 4 and Settings("compsudoku").level == 4
    gui.toggle_setup()
    for cell, value, fill in [((0, 0), 1, "Given"), ((0, 1), 2, "Player 1"),
                              ((1, 3), 3, "Player 2"), ((2, 2), 4, "Player 1"),
                              ((0, 2), 1, "Given")]:  # the last clashes: refused
        gui.fill_var.set(fill)
        gui._select(cell)
        gui._enter_value(value)
    gui.fill_var.set("Taboo")
    gui._select((5, 5))
    gui._enter_value(2)
    gui.score_vars[0].set("4")
    gui.score_vars[1].set("3")
    gui.turn_var.set(1)
    gui.finish_setup()
    pump(gui, lambda: gui.setting_up is None and gui.pending is None)
    state = gui.state
    assert state.get(0, 2) == 0 and state.get(1, 3) == 3 and state.owners[9] == 2
    assert state.scores == (4, 3) and state.turn == 1 and state.taboo == [SudokuMove(5, 5, 2)]
    gui.ask_hint()
    pump(gui, lambda: gui.hints or gui.pending is None)
    assert 1 <= len(gui.hints) <= 3 and all(move in gui.legal for move, _ in gui.hints)
    assert gui.worker.level == 4  # the engine got the level before the hint


def test_sudoku_rated_game_is_stored(app):
    gui = app(sudoku_gui, "CompSudokuApp", "--box", "2x2", "--movetime", "20")
    choose_level(gui, 1)
    gui.start_rated()
    assert gui.rated == (1, 1) and gui._kind(1) == "Human" and gui._kind(2) == "Engine"
    gui.ask_hint()  # refused in a rated game
    assert gui.pending is None or gui.pending[1] != "hint"
    while not gui.state.over:
        pump(gui, lambda: gui.state.over or (gui._human_to_move() and gui.pending is None))
        if not gui.state.over:
            gui.try_move(list(gui.legal)[0])
    pump(gui, lambda: gui.rated is None)
    games = rated_games(Settings("compsudoku"), "2x2 classic")
    assert len(games) == 1 and games[0].level == 1
    a, b = gui.state.scores
    assert games[0].result == ("win" if a > b else "draw" if a == b else "loss")
    assert "after 1 game" in gui.rated_panel.summary.cget("text")
    gui.start_rated()  # the next rated game: the other side
    assert gui.rated == (1, 2) and gui._kind(2) == "Human"


def test_blokus_hint_and_rated_game(app):
    gui = app(blokus_gui, "BlokusApp", "--variant", "duo", "--computer", "none",
              "--movetime", "30")
    for text in ("e9,d10,e10,f10,e11", "j5,j6,k6,i6,j4"):
        assert gui.play_move(blokus.parse_move(text, 14), "human")
    gui.ask_hint()
    pump(gui, lambda: gui.hint)
    assert 1 <= len(gui.hint) <= 3
    assert all(gui.game.position.is_legal(c, squares) for c, squares, _ in gui.hint)

    choose_level(gui, 1)
    gui.start_rated()
    assert gui.rated == (1, 0) and not gui.computer_vars[0].get() and gui.computer_vars[1].get()
    while gui.to_play() is not None:
        pump(gui, lambda: gui.to_play() in (None, 0) and gui.pending is None)
        if gui.to_play() == 0:
            pos = gui.game.position
            move = max(pos.legal_moves(0), key=lambda m: (len(m), sorted(m)))
            assert gui.play_move(move, "human")
            gui._after_move()
    games = rated_games(Settings("blokus"), "duo")
    assert len(games) == 1 and games[0].level == 1 and gui.rated is None
    assert "Duo: rating" in gui.rated_panel.summary.cget("text")


def click(gui, widget, point, event="<Button-1>"):
    """A mouse event on the board at a point's centre, as the window gets it."""
    x, y = gui.view.centre(point)
    widget.event_generate(event, x=round(x), y=round(y))
    gui.root.update()


@pytest.mark.parametrize("variant", ["trigon", "trigon_3"])
def test_blokus_trigon_board_pick_turn_flip_and_place(app, variant):
    gui = app(blokus_gui, "BlokusApp", "--variant", variant, "--computer", "none")
    info, geo, view = gui.info, gui.geo, gui.view
    assert isinstance(view, blokus_gui.TrigonView) and geo.kind == "trigon"
    # Every triangle is found under its centre; the corners of the frame are off the board.
    assert all(view.point_at(*view.centre(p)) == p for p in geo.points())
    assert view.point_at(blokus_gui.BX0 + 3, blokus_gui.BY0 + 3) is None
    polygons = gui.canvas.find_withtag("all")
    assert len(polygons) > len(geo.points())
    # The piece picker: turning six times or flipping twice gives the piece back, and turns
    # and flips reach every orientation.
    gui.select_piece("I3")
    first = gui.cells
    seen = set()
    for _ in range(2):
        for _ in range(6):
            seen.add(gui.cells)
            gui.turn_piece(1)
        gui.flip_piece()
    assert gui.cells == first and seen == set(geo.orientations("I3"))
    gui.turn_piece(1)
    gui.turn_piece(-1)
    assert gui.cells == first
    # Under the mouse on a starting point: the preview covers it and is legal; a click plays.
    start = info.starts[3]
    gui.root.update()
    click(gui, gui.canvas, start, "<Motion>")
    squares = frozenset(gui.preview_squares())
    assert start in squares and gui.game.position.is_legal(0, squares)
    assert gui.canvas.find_withtag("preview")
    click(gui, gui.canvas, start)
    assert len(gui.game) == 1 and gui.game.moves[0].squares == squares
    assert gui.game.moves[0].piece == "I3" and gui.selected is None
    # Yellow clicks its triangles one by one (no piece picked), then Enter: a legal I3 around
    # another starting point, found by the rules.
    other = info.starts[0]
    move = next(m for m in sorted(gui.game.position.legal_moves(1, ["I3"]), key=sorted)
                if other in m)
    for p in sorted(move):
        click(gui, gui.canvas, p)
    assert gui.entry == set(move)
    assert gui.status.cget("text").startswith(
        f"Triangles {blokus.move_text(move)}: Yellow's I3 — Enter to place it, or click more")
    gui.place_entry()
    assert len(gui.game) == 2 and gui.game.moves[1].squares == move
    # A move of Red that touches no starting point is refused with the reason.
    gui.select_piece("1")
    free = next(p for p in geo.points() if p not in info.starts and p not in gui.game.position.cells)
    click(gui, gui.canvas, free)
    assert len(gui.game) == 2 and "first piece must cover a starting point" in \
        gui.status.cget("text")


def test_blokus_callisto_board_single_squares_and_joined_pieces(app):
    gui = app(blokus_gui, "BlokusApp", "--variant", "callisto_2", "--computer", "none")
    info, geo, view = gui.info, gui.geo, gui.view
    assert isinstance(view, blokus_gui.CallistoView) and info.board == "callisto"
    # Every square of the octagon is found under its centre; the cut corners are off it.
    assert all(view.point_at(*view.centre(p)) == p for p in geo.points())
    assert view.point_at(*view.centre((0, 0))) is None and not geo.on_board((0, 0))
    # The centre section's empty squares are shaded.
    fills = {gui.canvas.itemcget(i, "fill") for i in gui.canvas.find_overlapping(
        *view.centre((7, 7)), *view.centre((7, 7)))}
    assert blokus_gui.CENTRE in fills
    assert gui.corner_label.cget("text") == "Attach:"
    # A single square may not go in the centre section; elsewhere it goes anywhere.
    gui.select_piece("1")
    click(gui, gui.canvas, (7, 7))
    assert len(gui.game) == 0 and "centre section" in gui.status.cget("text")
    click(gui, gui.canvas, (0, 7))
    assert len(gui.game) == 1 and gui.game.moves[0].piece == "1"
    # Green's first piece other than a single square is refused: two single squares first.
    gui.select_piece("2")
    click(gui, gui.canvas, (14, 8))
    assert len(gui.game) == 1 and "must place 2 single squares" in gui.status.cget("text")
    for p in [(15, 8), (1, 7), (15, 7)]:
        gui.select_piece("1")
        click(gui, gui.canvas, p)
    assert len(gui.game) == 4 and gui.game.position.contact_open(0)
    # Blue's domino along the edge of its single square b8, entered square by square.
    for p in [(2, 7), (3, 7)]:
        click(gui, gui.canvas, p)
    gui.place_entry()
    assert len(gui.game) == 5 and gui.game.moves[4].piece == "2"
    assert gui.game.position.points(0) == 2 and gui.game.position.points(1) == 0
    # The join between c8 and d8: the piece's colour across the gap between the squares.
    x = (view.centre((2, 7))[0] + view.centre((3, 7))[0]) / 2
    y = view.centre((2, 7))[1]
    colours = {gui.canvas.itemcget(i, "fill") for i in gui.canvas.find_overlapping(x, y, x, y)}
    assert gui.colours()[0] in colours


def test_blokus_nexos_board_segments_junctions_and_entry(app):
    gui = app(blokus_gui, "BlokusApp", "--variant", "nexos", "--computer", "none")
    info, geo, view = gui.info, gui.geo, gui.view
    assert isinstance(view, blokus_gui.NexosView) and geo.kind == "nexos"
    # Every segment is found under its centre, and nothing off the board.
    assert all(view.point_at(*view.centre(p)) == p for p in geo.points())
    assert view.point_at(blokus_gui.BX0 - 20, blokus_gui.BY0 - 20) is None
    # Blue's I2 (two segments in a line) over one of its starting segments: the preview is
    # legal, and the click plays it; the junction between its segments is Blue's too.
    start = info.starts_of(0)[0]
    gui.select_piece("I2")
    while geo.point_type(anchor := blokus_gui.anchor_cell(gui.cells, geo)) != \
            geo.point_type(start):
        gui.turn_piece(1)
    gui.root.update()
    click(gui, gui.canvas, start, "<Motion>")
    squares = frozenset(gui.preview_squares())
    assert start in squares and gui.game.position.is_legal(0, squares)
    click(gui, gui.canvas, start)
    assert len(gui.game) == 1 and gui.game.moves[0].squares == squares
    (junction,) = geo.covered(squares) - squares
    assert gui.game.position.cells[junction] == 0
    x, y = view.centre(junction)
    fills = {gui.canvas.itemcget(i, "fill") for i in gui.canvas.find_overlapping(x, y, x, y)}
    assert gui.colours()[0] in fills
    # Yellow clicks the segments of a legal V2 one by one, then Enter.
    move = next(m for m in sorted(gui.game.position.legal_moves(1, ["V2"]), key=sorted))
    for p in sorted(move):
        click(gui, gui.canvas, p)
    assert gui.entry == set(move)
    gui.place_entry()
    assert len(gui.game) == 2 and gui.game.moves[1].piece == "V2"
    # Red's single segment away from its starting segments is refused with the reason.
    gui.select_piece("1")
    free = next(p for p in geo.points() if geo.point_type(p) == 0
                and p not in info.starts and p not in gui.game.position.cells)
    click(gui, gui.canvas, free)
    assert len(gui.game) == 2 and "first piece must cover" in gui.status.cget("text")


def key(gui, sequence):
    """A key press as the window gets it."""
    gui.root.focus_force()
    gui.root.event_generate(sequence)
    gui.root.update()


def test_blokus_gembloq_board_triangles_entry_engine_and_record(app, tmp_path):
    gui = app(blokus_gui, "BlokusApp", "--variant", "gembloq_2", "--computer", "none")
    info, geo, view = gui.info, gui.geo, gui.view
    assert isinstance(view, blokus_gui.GembloqView) and geo.kind == "gembloq"
    # Every triangle is found under its centre; the cut corner of the frame is off the board.
    assert all(view.point_at(*view.centre(p)) == p for p in geo.points())
    assert view.point_at(blokus_gui.BX0 + 3, blokus_gui.BY0 + 3) is None
    # Blue's square (piece 1) over a triangle of its starting square: the preview covers the
    # four triangles of that square, green, and the click plays it.
    start = info.starts_of(0)
    gui.select_piece("1")
    gui.turn_piece(1)
    gui.root.update()
    click(gui, gui.canvas, start[0], "<Motion>")
    squares = frozenset(gui.preview_squares())
    assert squares == frozenset(start)
    fills = {gui.canvas.itemcget(i, "fill") for i in gui.canvas.find_withtag("preview")}
    assert blokus_gui.GOOD in fills
    click(gui, gui.canvas, start[0])
    assert len(gui.game) == 1 and gui.game.moves[0].squares == squares
    x, y = view.centre(start[1])
    fills = {gui.canvas.itemcget(i, "fill") for i in gui.canvas.find_overlapping(x, y, x, y)}
    assert gui.colours()[0] in fills
    # Green's square away from its starting square: red under the mouse, refused with the
    # reason.
    gui.select_piece("1")
    far = min((p for p in geo.points() if geo.point_type(p) == geo.point_type(start[0])),
              key=lambda p: (p[0] - geo.width / 2) ** 2 / 4 + (p[1] - geo.height / 2) ** 2)
    click(gui, gui.canvas, far, "<Motion>")
    assert blokus_gui.BAD in {gui.canvas.itemcget(i, "fill")
                              for i in gui.canvas.find_withtag("preview")}
    click(gui, gui.canvas, far)
    assert len(gui.game) == 1 and "all four" in gui.status.cget("text")
    gui.drop()
    # Green clicks the triangles of a legal 1.5 one by one; it goes in once they fit one move.
    move = min(gui.game.position.legal_moves(1, ["1.5"]), key=sorted)
    for p in sorted(move):
        if len(gui.game) == 1:
            click(gui, gui.canvas, p)
    if len(gui.game) == 1:
        assert gui.entry == set(move)
        gui.place_entry()
    assert len(gui.game) == 2 and gui.game.moves[1].squares == move
    # The engine (tessera gtp) hints one move for Blue, then plays one; the record goes both
    # ways.
    gui.ask_hint()
    pump(gui, lambda: gui.hint)
    assert len(gui.hint) == 1 and gui.game.position.is_legal(0, gui.hint[0][1])
    gui.computer_move()
    pump(gui, lambda: len(gui.game) == 3 and gui.pending is None)
    assert gui.game.moves[2].colour == 0 and gui.announced() == [gui.game.moves[2]]
    path = tmp_path / "gembloq.blksgf"
    gui._save(str(path))
    gui.new_game()
    gui.open_record(str(path), None, None)
    assert gui.info.name == "gembloq_2" and len(gui.game) == 3
    assert [m.squares for m in gui.game.moves[:2]] == [squares, move]
    # Pentobi's record of a whole game opens with Pentobi's result (B+7.5).
    gui.open_record(str(REPO / "tests" / "data" / "blokus" / "gembloq2-pentobi.blksgf"), None,
                    None)
    assert gui.to_play() is None and "Blue wins" in gui._result_text()
    assert "(+7.5)" in gui._result_text()


def test_blokus_house_player_enters_moves_by_squares_announces_and_undoes(app):
    """The seed's table: three people and the computer (Green). Moves are clicked square by
    square; the computer's move is announced and outlined; Ctrl+Z takes back the last move of a
    person with the computer's reply."""
    gui = app(blokus_gui, "BlokusApp", "--variant", "classic", "--computer", "4",
              "--movetime", "30", "--level", "1")
    pos = gui.game.position
    # Blue: the five squares of an L5 in its corner; the fifth click places it at once (no
    # other legal move contains them).
    l5 = [(0, 19), (1, 19), (2, 19), (3, 19), (3, 18)]
    assert pos.moves_covering(0, l5) == [frozenset(l5)]
    for p in l5[:4]:
        click(gui, gui.canvas, p)
        assert len(gui.game) == 0
    assert "Enter to place it" in gui.status.cget("text")  # an I4, or a larger move
    click(gui, gui.canvas, l5[4])
    assert len(gui.game) == 1 and gui.game.moves[0].squares == frozenset(l5)
    assert "only legal move" in gui.status.cget("text") and not gui.entry
    # Yellow: an I3 is a legal move, and larger ones contain it: Enter places it.
    i3 = [(19, 19), (19, 18), (19, 17)]
    for p in i3:
        click(gui, gui.canvas, p)
    assert len(gui.game) == 1 and "Yellow's I3 — Enter to place it" in gui.status.cget("text")
    key(gui, "<Return>")
    assert len(gui.game) == 2 and gui.game.moves[1].piece == "I3"
    # Red: a square away from its corner fits no legal move, and says why.
    click(gui, gui.canvas, (10, 10))
    text = gui.status.cget("text")
    assert len(gui.game) == 2 and text.startswith("No legal move of Red covers k11"), text
    assert gui.status.cget("fg") == blokus_gui.BAD
    key(gui, "<Escape>")
    # Red: some of a move's squares that only one legal move contains (drawn dashed): Enter
    # places that move.
    red = gui.game.position
    part, whole = next((cells, m) for m in sorted(red.legal_moves(2), key=blokus.move_text)
                       for n in (2, 3, 4) for cells in [sorted(m)[:n]]
                       if red.moves_covering(2, cells) == [m] and not red.is_legal(2, cells))
    for p in part:
        click(gui, gui.canvas, p)
    assert gui.completion == whole and "(dashed)" in gui.status.cget("text")
    key(gui, "<Return>")
    assert len(gui.game) == 3 and gui.game.moves[2].squares == whole
    # The computer (Green) answers: announced in large type and outlined on the board.
    pump(gui, lambda: len(gui.game) == 4 and gui.pending is None)
    green = gui.game.moves[3]
    assert gui.announced() == [green] and green.colour == 3
    head, main, more = (label.cget("text") for label in gui.announce_lines)
    assert head == "Green (computer) played" and main == green.piece
    assert more.split() == blokus.move_text(green.squares).split(",")
    outline = [i for i in gui.canvas.find_all()
               if gui.canvas.type(i) == "line" and gui.canvas.itemcget(i, "width") == "5.0"]
    assert outline
    # Ctrl+Z: Red's move and Green's reply taken back; Red to play, nothing announced.
    key(gui, "<Control-z>")
    assert gui.game.cursor == 2 and gui.to_play() == 2 and gui.announced() == []
    assert "Took back Red's" in gui.status.cget("text") and "computer's 1 move" in \
        gui.status.cget("text")
    assert gui.announce_lines[0].cget("text") == "Red to play"
    # The big button does the same: now Yellow's move goes.
    gui.undo_button.invoke()
    assert gui.game.cursor == 1 and gui.to_play() == 1


def test_blokus_analysis_graph_marks_moves_and_goes_to_them(app):
    record = REPO / "tests" / "data" / "blokus" / "duo-pentobi.blksgf"
    gui = app(blokus_gui, "BlokusApp", "--open", str(record), "--analysis-nodes", "300")
    assert len(gui.game) == 31 and not gui.analysis.winfo_ismapped()
    gui.analyze_game()
    assert gui.analysis.running
    pump(gui, lambda: not gui.analysis.running, timeout=60)
    panel = gui.analysis
    assert [v.number for v in panel.values] == list(range(1, 32))
    assert panel.winfo_ismapped() and "31 moves" in panel.status.cget("text")
    marked = [w for w in panel.worst_labels if isinstance(w, tk.Label)]
    assert 1 <= len(marked) <= 5
    # A click on the graph goes to the position after that move; a listed move too.
    panel.canvas.event_generate("<Button-1>", x=round(panel._x(7)), y=40)
    gui.root.update()
    assert gui.game.cursor == 7 and panel.cursor == 7
    worst = marked[0]
    worst.event_generate("<Button-1>")
    gui.root.update()
    assert gui.game.cursor == max(panel.values, key=lambda v: v.drop).number
    # A cancel stops a new analysis at once; playing another move makes the old one stale.
    gui.analyze_game()
    panel.cancel()
    pump(gui, lambda: not panel.running, timeout=10)
    assert "Cancelled" in panel.status.cget("text") or len(panel.values) == 31
    gui.goto_move(10)
    other = next(m for m in gui.game.position.legal_moves(gui.to_play())
                 if m != gui.game.moves[10].squares)
    assert gui.play_move(other, "human")
    assert panel.game is None and "changed" in panel.status.cget("text")


def test_blokus_computer_moves_in_a_row_are_announced_together(app):
    """The computer plays Yellow and Red: after Blue's move both replies stay announced and
    outlined until Green (a person) moves."""
    gui = app(blokus_gui, "BlokusApp", "--variant", "classic", "--computer", "2,3",
              "--movetime", "30", "--level", "1")
    assert gui.play_move(frozenset([(0, 19)]), "human")
    gui._after_move()
    pump(gui, lambda: len(gui.game) == 3 and gui.pending is None)
    yellow, red = gui.game.moves[1:]
    assert gui.announced() == [yellow, red]
    head, main, more = (label.cget("text") for label in gui.announce_lines)
    assert head == "The computer played 2 moves"
    assert main.startswith(f"Yellow {yellow.piece}: ") and more.startswith(f"Red {red.piece}: ")
    assert gui.play_move(frozenset([(0, 0)]), "human")  # Green's monomino in its corner
    assert gui.announced() == [] and gui.announce_lines[0].cget("text") == "Blue to play"
    # Ctrl+Z takes back Green's move only (a person's, with no reply after it).
    key(gui, "<Control-z>")
    assert gui.game.cursor == 3 and gui.announced() == [yellow, red]
