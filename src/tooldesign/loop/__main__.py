"""``python -m tooldesign.loop``: the same command as ``tooldesign loop``; the code is in ``cli.py``."""

from tooldesign.loop.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
