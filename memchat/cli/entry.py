"""The `memchat` command's entry point: light, so that Ctrl+C while the rest of memchat is still being
imported (about half a second) ends with one line, as it does afterwards, not a traceback."""

from __future__ import annotations

import sys


def run() -> None:
    try:
        from memchat.cli.main import run as run_command
    except KeyboardInterrupt:
        print("memchat: interrupted", file=sys.stderr)
        sys.exit(130)
    run_command()
