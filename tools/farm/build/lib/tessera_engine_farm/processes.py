"""CPU time of a child process (an engine), read while it runs."""

from __future__ import annotations

import os
import time
from pathlib import Path


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far, all its threads: its Linux process
    CPU clock, or ``/proc/PID/stat`` (10 ms ticks) where that clock cannot be read."""
    try:
        return time.clock_gettime((~pid << 3) | 2)
    except OSError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
