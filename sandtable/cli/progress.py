"""The progress of a batch of games on stderr, shared by sweep and simulate (and its ladder):
tqdm on a terminal, 'progress N M' lines for programs that ask for them, else nothing. Never
under --json or --no-progress: stdout then holds the report alone and stderr only problems."""
from __future__ import annotations

import sys


class Progress:
    """Called with (done, total) as games finish; a new ``desc`` starts a new bar (a ladder's
    levels are batches of their own)."""

    def __init__(self, args, desc: str):
        self.bar = None
        self.desc = desc
        self.lines = getattr(args, "progress_lines", False)
        self.tty = not args.no_progress and args.format != "json" and sys.stderr.isatty()

    def __call__(self, done: int, total: int, desc: str | None = None) -> None:
        if self.lines:
            sys.stderr.write(f"progress {done} {total}\n")
            sys.stderr.flush()
        if not self.tty:
            return
        if desc is not None and desc != self.desc:
            self.close()
            self.desc = desc
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit="game", desc=self.desc, file=sys.stderr, smoothing=0.1,
                            dynamic_ncols=True)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
