"""``tessera-farm tune``: the Blockudoku evaluation weights tuned by CMA-ES (the ``cmaes``
package), each candidate's games played as Ray tasks, its fitness the exact death chance per
round; the learned weights (the distribution's final mean) are written as one line that
``tessera selfplay blockudoku --weights "$(cat FILE)"`` takes.

Every generation, each candidate, the distribution's mean and the start weights play the same
games (games ``0 .. G-1`` of the selfplay run seeded ``--seed`` + generation), so they are
compared on equal deals. A run started again replays the optimizer from its seed and reads the
finished games back from the run folder: only the missing shards are played.
"""

from __future__ import annotations

import argparse
import math
from typing import Any, Dict, List

import numpy as np
from cmaes import CMA

import tessera_engine_farm

from . import plots, tune
from .bundle import program
from .session import note, session
from .shards import power_of_two_at_least, split


def default_population(dimensions: int) -> int:
    """The ``cmaes`` package's default population: 4 + floor(3 ln n)."""
    return 4 + math.floor(3 * math.log(dimensions))


def run(args: argparse.Namespace) -> int:
    engine = program(args.engine)
    names, builtin = tune.builtin_weights(engine.words)
    start = builtin
    if args.start_weights is not None:
        start = [int(w) for w in args.start_weights.split(",")]
    if len(start) != len(names):
        raise ValueError(f"--from needs {len(names)} weights ({', '.join(names)})")
    starts = None
    if args.starts:
        from tessera_engine_client.blockudoku_referee import read_starts

        starts = read_starts(args.starts)
    population = args.population or default_population(len(names))
    size = power_of_two_at_least(args.shard_games or max(1, math.ceil(args.games / 4)))
    definition = {"starts": starts, "games": args.games, "cap": args.cap, "depth": args.depth,
                  "death_chance": args.death_chance, "generations": args.generations,
                  "population": population, "sigma": args.sigma, "seed": args.seed,
                  "start_weights": start, "pieceset": args.pieceset, "shard_games": size}
    with session(args, "tune", definition, [engine]) as run_session:
        setup = dict(definition, engine=run_session.ship(engine), engine_label=engine.command)
        farm = run_session.start([tessera_engine_farm])
        encoding = tune.Encoding(names, start)
        optimizer = CMA(mean=np.array(encoding.vector(start)), sigma=args.sigma, seed=args.seed,
                        population_size=population)
        progress = run_session.progress(args.generations * (population + 2) * args.games, "tune")
        history: List[Dict[str, Any]] = []
        lines = [f"tune blockudoku: {len(starts) if starts else 'the empty'} start board(s), "
                 f"{args.games} games x {args.cap} rounds per candidate, depth {args.depth}, "
                 f"fitness: death chance per round on boards of {args.death_chance}+ cells, "
                 f"population {population}, sigma {args.sigma}, seed {args.seed}"]
        try:
            for generation in range(args.generations):
                vectors = [optimizer.ask() for _ in range(population)]
                candidates = [encoding.weights(v) for v in vectors]
                candidates += [encoding.weights(optimizer.mean), start]
                scores = play_generation(farm, run_session, setup, generation, candidates, size,
                                         progress)
                optimizer.tell(list(zip(vectors, scores[:population])))
                best = min(range(population), key=lambda c: scores[c])
                history.append({"generation": generation, "candidates": scores[:population],
                                "best": scores[best], "best_weights": candidates[best],
                                "mean": scores[-2], "start": scores[-1]})
                line = tune.generation_line(history[-1], args.generations,
                                            encoding.weights(optimizer.mean))
                lines.append(line)
                progress.write(line)
        finally:
            progress.close()
        learned = encoding.weights(optimizer.mean)
        out = args.out or run_session.folder.file("weights.txt")
        out.write_text(tune.weights_text(learned) + "\n")
        lines += [f"learned {tune.weights_text(learned)}",
                  f"weights file {out} (selfplay blockudoku --weights \"$(cat {out})\")"]
        title = f"CMA-ES on the Blockudoku weights ({args.games} games a candidate)"
        picture = plots.tune_png(run_session.folder.file("fitness.png"), history, title)
        run_session.report(lines, [picture])
    note(f"weights written to {out}")
    return 0


def play_generation(farm, run_session, setup, generation: int, candidates: List[List[int]],
                    size: int, progress) -> List[float]:
    """Plays every candidate's games of a generation at once; the fitness of each."""
    seed = setup["seed"] + generation
    prefixes = [f"gen{generation:03d}-cand{c:02d}" for c in range(len(candidates))]
    shards = [shard for prefix, weights in zip(prefixes, candidates)
              for shard in split(setup["games"], size, prefix, {"weights": weights, "seed": seed})]
    results = farm.run(run_session.folder, shards, tune.play_shard, setup, progress,
                       lambda done: f"generation {generation + 1}")
    return [tune.fitness(tune.games_of(results, prefix + "-")) for prefix in prefixes]
