"""tessera-farm: tessera's long jobs cut into shards of games and run as Ray tasks, on a local
Ray started for the run or on a cluster, with every finished shard kept in the run's folder.

Modules, from the command line down:

- :mod:`.cli` the ``tessera-farm`` command; :mod:`.command_blockudoku`, :mod:`.command_match`,
  :mod:`.command_tune` drive one subcommand each, through :mod:`.session` (run folder, bundle,
  Ray session, report).
- :mod:`.farm` runs shards as Ray tasks (retries, early stop, progress bar); :mod:`.rundir`
  keeps them on disk; :mod:`.shards` cuts games by index; :mod:`.bundle` ships the binaries.
- The shards themselves, run on the workers: :mod:`.blockudoku` (any protocol player),
  :mod:`.blokus` (GTP engines, through ``tessera_engine_client.blokus_match``), :mod:`.sudoku`
  (``tessera selfplay sudoku`` slices); :mod:`.matches` merges match results and runs the SPRT.
- :mod:`.stats` the statistics as tessera prints them, :mod:`.rustrand` tessera's deal
  generator, :mod:`.plots` the PNGs, :mod:`.processes` an engine's CPU time.
"""
